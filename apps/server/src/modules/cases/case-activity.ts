import { NOTIFICATION_TYPES, notificationTypeOfCaseEvent } from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { notifyCaseUsers } from '../notifications';
import { insertCaseActivity, type CaseActivityEvent } from './case-activity.repository';

/**
 * Notifications ride on the case events: they are written in the
 * event's own transaction, and their recipients travel to the live updates inside the published
 * message — `detail.notified` (user ids) and `detail.notificationType` — because a listener on
 * `ctx.caseEvents` runs after commit and could not know them otherwise. The live updates emit
 * `notification.created` to each of them; the stored history row never holds them.
 */
export interface CaseEventNotice {
  /** The notification type raised, or null. */
  notificationType: number | null;
  /** Who was notified (never the actor). */
  notified: number[];
}

const idOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : null;

/**
 * The notify step of a case event, in its transaction: the type from the domain
 * (`notificationTypeOfCaseEvent`), the case's people told through `notifyCaseUsers`.
 */
export async function notifyOfCaseEvent(
  tx: DbOrTx,
  event: Omit<CaseActivityEvent, 'fromStatus' | 'toStatus'> & {
    fromStatus: string | null;
    toStatus: string | null;
  },
): Promise<CaseEventNotice> {
  const notificationType = notificationTypeOfCaseEvent(event);
  if (notificationType === null) return { notificationType, notified: [] };
  const isFile = notificationType === NOTIFICATION_TYPES.fileAdded;
  const serviceIds = event.detail.serviceIds;
  const resourceId = isFile
    ? idOf(event.detail.attachmentId)
    : Array.isArray(serviceIds)
      ? idOf(serviceIds[0])
      : null;
  const notified = await notifyCaseUsers(tx, {
    caseId: event.caseId,
    eventType: notificationType,
    actorId: event.actorId,
    resourceId,
    path: `/case/${event.caseId}?tab=${isFile ? 'attachments' : 'general'}`,
  });
  return { notificationType, notified };
}

/** The detail to publish: the event's own, plus the recipients when someone was notified. */
export function publishedDetail(
  detail: Record<string, unknown>,
  notice: CaseEventNotice,
): Record<string, unknown> {
  if (notice.notified.length === 0) return detail;
  return { ...detail, notified: notice.notified, notificationType: notice.notificationType };
}

/**
 * How another feature (files, payments, checkout, chat) records something that happened on a
 * case, in its own transaction: one history row, the case's `modifiedAt` moved forward, and the
 * notifications it raises. Returns the detail to publish on `ctx.caseEvents` after commit (which
 * stays with the caller) — the event's detail with `notified` added when someone was notified.
 */
export async function recordCaseActivity(
  tx: DbOrTx,
  event: CaseActivityEvent,
): Promise<CaseEventNotice & { detail: Record<string, unknown> }> {
  await insertCaseActivity(tx, event);
  const notice = await notifyOfCaseEvent(tx, {
    ...event,
    fromStatus: event.fromStatus ?? null,
    toStatus: event.toStatus ?? null,
  });
  return { ...notice, detail: publishedDetail(event.detail, notice) };
}
