import type { FastifyBaseLogger } from 'fastify';

/**
 * A change of a case, published in process AFTER its transaction committed (the same change is
 * already a `case_events` row). Later features (notifications, chat, payments) listen here;
 * files publish their own actions (e.g. 'attachmentAdded') through the same emitter.
 */
export interface CaseEventMessage {
  caseId: number;
  /** A case action or one of the history actions (see `caseEventSchema`), or a feature's own. */
  action: string;
  actorId: number | null;
  fromStatus: string | null;
  toStatus: string | null;
  detail: Record<string, unknown>;
  at: Date;
}

export type CaseEventListener = (event: CaseEventMessage) => void | Promise<void>;

export interface CaseEvents {
  /** Adds a listener; returns the function that removes it. */
  on(listener: CaseEventListener): () => void;
  /** Calls every listener; a failing listener is logged and never fails the publisher. */
  publish(events: CaseEventMessage | readonly CaseEventMessage[]): void;
}

export function createCaseEvents(log?: Pick<FastifyBaseLogger, 'error'>): CaseEvents {
  const listeners = new Set<CaseEventListener>();
  const report = (error: unknown, event: CaseEventMessage) =>
    log?.error({ err: error, caseId: event.caseId, action: event.action }, 'case event listener');
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish(events) {
      for (const event of [events].flat() as CaseEventMessage[]) {
        for (const listener of listeners) {
          try {
            const result = listener(event);
            if (result instanceof Promise) result.catch((error: unknown) => report(error, event));
          } catch (error) {
            report(error, event);
          }
        }
      }
    },
  };
}
