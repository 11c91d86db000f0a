import type { LiveEvent } from '@dentflow/domain';
/**
 * Live updates to open browsers (issue "Conversation"): what changed, never the content — a
 * client refetches through the API, which checks permissions again. Rooms: `user:{id}` (the
 * user's own tabs), `case:{id}` (everyone allowed to see the case), `case:{id}:chat:{channel}`
 * (everyone allowed on that channel). The Socket.IO server fills the rooms after the same checks
 * as the API; with `REDIS_URL` the emits reach every instance. Without a socket server (tests
 * that do not need one) emits go nowhere.
 */
export type { LiveEvent };

export interface LiveUpdates {
  toUser(userId: number, event: LiveEvent): void;
  toCase(caseId: number, event: LiveEvent): void;
  toChannel(caseId: number, channel: number, event: LiveEvent): void;
}

export const roomOfUser = (userId: number) => `user:${userId}`;
export const roomOfCase = (caseId: number) => `case:${caseId}`;
export const roomOfChannel = (caseId: number, channel: number) => `case:${caseId}:chat:${channel}`;

/** Sends one event to everyone in a room (the socket server's broadcast). */
export type LiveEmit = (room: string, event: LiveEvent) => void;

/** Live updates sent through `emit`. */
export const liveUpdatesThrough = (emit: LiveEmit): LiveUpdates => ({
  toUser: (userId, event) => emit(roomOfUser(userId), event),
  toCase: (caseId, event) => emit(roomOfCase(caseId), event),
  toChannel: (caseId, channel, event) => emit(roomOfChannel(caseId, channel), event),
});

export interface AttachableLiveUpdates extends LiveUpdates {
  /** Sends from now on through `target`; returns the function that detaches it again. */
  attach(target: LiveEmit): () => void;
}

export const isAttachable = (live: LiveUpdates): live is AttachableLiveUpdates =>
  typeof (live as Partial<AttachableLiveUpdates>).attach === 'function';

/** Until a socket server is attached (and after it detached): emits are dropped. */
export function createLiveUpdates(): AttachableLiveUpdates {
  let emit: LiveEmit | null = null;
  return {
    attach(target) {
      emit = target;
      return () => {
        if (emit === target) emit = null;
      };
    },
    ...liveUpdatesThrough((room, event) => emit?.(room, event)),
  };
}
