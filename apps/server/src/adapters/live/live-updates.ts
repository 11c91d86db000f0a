/**
 * Live updates to open browsers (issue "Conversation"): what changed, never the content — a
 * client refetches through the API, which checks permissions again. Rooms: `user:{id}` (the
 * user's own tabs), `case:{id}` (everyone allowed to see the case), `case:{id}:chat:{channel}`
 * (everyone allowed on that channel). The Socket.IO server fills the rooms after the same checks
 * as the API; with `REDIS_URL` the emits reach every instance. Without a socket server (tests
 * that do not need one) emits go nowhere.
 */
export type LiveEvent =
  | { type: 'case.changed'; caseId: number; action: string }
  | { type: 'chat.message'; caseId: number; channel: number; messageId: number }
  | { type: 'chat.deleted'; caseId: number; channel: number; messageId: number }
  | { type: 'notification.created'; caseId: number | null; eventType: number };

export interface LiveUpdates {
  toUser(userId: number, event: LiveEvent): void;
  toCase(caseId: number, event: LiveEvent): void;
  toChannel(caseId: number, channel: number, event: LiveEvent): void;
}

export const roomOfUser = (userId: number) => `user:${userId}`;
export const roomOfCase = (caseId: number) => `case:${caseId}`;
export const roomOfChannel = (caseId: number, channel: number) => `case:${caseId}:chat:${channel}`;

/** Until a socket server is attached: emits are dropped (and remembered, for tests). */
export function createLiveUpdates(): LiveUpdates & {
  attach(target: (room: string, event: LiveEvent) => void): void;
} {
  let emit: ((room: string, event: LiveEvent) => void) | null = null;
  return {
    attach(target) {
      emit = target;
    },
    toUser: (userId, event) => emit?.(roomOfUser(userId), event),
    toCase: (caseId, event) => emit?.(roomOfCase(caseId), event),
    toChannel: (caseId, channel, event) => emit?.(roomOfChannel(caseId, channel), event),
  };
}
