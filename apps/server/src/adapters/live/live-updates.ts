import type { LiveEvent } from '@dentflow/domain';
/**
 * Live updates to open browsers: what changed, never the content — a
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
  /**
   * The user's access may have shrunk: removed from the case `caseId`, or (null) a role changed,
   * sessions ended or the account was deleted. Their sockets, on every instance, leave the rooms
   * of that case (of every case) the API would no longer let them join; a socket whose session
   * is closed is disconnected. Resolves when done; never rejects (a failure is logged).
   */
  recheckAccess(userId: number, caseId: number | null): Promise<void>;
}

export const roomOfUser = (userId: number) => `user:${userId}`;
export const roomOfCase = (caseId: number) => `case:${caseId}`;
export const roomOfChannel = (caseId: number, channel: number) => `case:${caseId}:chat:${channel}`;

/** The case a case or chat room belongs to, or null for any other room. */
export function caseOfRoom(room: string): number | null {
  const match = /^case:(\d+)(?::chat:\d+)?$/.exec(room);
  return match ? Number(match[1]) : null;
}

/** Sends one event to everyone in a room (the socket server's broadcast). */
export type LiveEmit = (room: string, event: LiveEvent) => void;

/** What a socket server offers the rest of the app: its broadcast and its access re-check. */
export interface LiveTarget {
  emit: LiveEmit;
  recheckAccess: LiveUpdates['recheckAccess'];
}

/** Live updates sent through `target`. */
export const liveUpdatesThrough = (target: LiveTarget): LiveUpdates => ({
  toUser: (userId, event) => target.emit(roomOfUser(userId), event),
  toCase: (caseId, event) => target.emit(roomOfCase(caseId), event),
  toChannel: (caseId, channel, event) => target.emit(roomOfChannel(caseId, channel), event),
  recheckAccess: (userId, caseId) => target.recheckAccess(userId, caseId),
});

export interface AttachableLiveUpdates extends LiveUpdates {
  /** Sends from now on through `target`; returns the function that detaches it again. */
  attach(target: LiveTarget): () => void;
}

export const isAttachable = (live: LiveUpdates): live is AttachableLiveUpdates =>
  typeof (live as Partial<AttachableLiveUpdates>).attach === 'function';

/** Until a socket server is attached (and after it detached): emits are dropped. */
export function createLiveUpdates(): AttachableLiveUpdates {
  let attached: LiveTarget | null = null;
  return {
    attach(target) {
      attached = target;
      return () => {
        if (attached === target) attached = null;
      };
    },
    ...liveUpdatesThrough({
      emit: (room, event) => attached?.emit(room, event),
      recheckAccess: async (userId, caseId) => attached?.recheckAccess(userId, caseId),
    }),
  };
}
