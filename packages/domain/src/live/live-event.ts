/**
 * What a live update says: what changed, never the content — a client
 * refetches through the API, which checks permissions again. The server emits these on Socket.IO
 * at `/api/socket.io`; the web invalidates the matching queries.
 */
export type LiveEvent =
  | { type: 'case.changed'; caseId: number; action: string }
  | { type: 'chat.message'; caseId: number; channel: number; messageId: number }
  | { type: 'chat.deleted'; caseId: number; channel: number; messageId: number }
  | { type: 'notification.created'; caseId: number | null; eventType: number };

export const LIVE_SOCKET_PATH = '/api/socket.io';
