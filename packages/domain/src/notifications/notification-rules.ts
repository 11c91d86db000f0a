import { CHAT_CHANNEL_IDS } from '../chat/chat';
import { isCaseStatus } from '../cases/case-status';
import {
  NOTIFICATION_EVENT_TYPE_COUNT,
  NOTIFICATION_TYPES,
  emptyCaseNotificationDetails,
  type CaseNotificationCounterKey,
  type NotificationTypeId,
} from './notification';

/** What a case history row says, as far as notifications care. */
export interface CaseEventFacts {
  action: string;
  fromStatus: string | null;
  toStatus: string | null;
  detail: Record<string, unknown>;
}

/**
 * Which notification a case event raises, if any. A file added, a
 * planner set, archiving and the dispatch of the order have their own types; any other move of the case's status is a status
 * change, with closing, finishing and waiting for approval named apart. Attachment moves carry the
 * file's statuses, not the case's, so only case statuses count. Everything else (payments,
 * service data, reviews, users) notifies nobody.
 */
export function notificationTypeOfCaseEvent(event: CaseEventFacts): NotificationTypeId | null {
  switch (event.action) {
    case 'attachmentAdded':
      return NOTIFICATION_TYPES.fileAdded;
    case 'plannerSet':
      return NOTIFICATION_TYPES.plannerAssigned;
    case 'archived':
      return NOTIFICATION_TYPES.archived;
    case 'dispatched':
      return NOTIFICATION_TYPES.caseDispatched;
    default:
      break;
  }
  const { fromStatus, toStatus } = event;
  if (!isCaseStatus(fromStatus) || !isCaseStatus(toStatus) || fromStatus === toStatus) return null;
  if (toStatus === 'closed') return NOTIFICATION_TYPES.closed;
  if (toStatus === 'finished') return NOTIFICATION_TYPES.caseFulfil;
  if (toStatus === 'approve') return NOTIFICATION_TYPES.pendingApproval;
  return NOTIFICATION_TYPES.statusChanged;
}

/** Chat notifications (types = channel ids 3, 4, 5, 13) are mailed as a digest, never one by one. */
export const isChatNotificationType = (eventType: number) =>
  (CHAT_CHANNEL_IDS as readonly number[]).includes(eventType);

const NAMED_TYPE_IDS = (Object.values(NOTIFICATION_TYPES) as number[]).sort((a, b) => a - b);
const SLOT_COUNT = NOTIFICATION_EVENT_TYPE_COUNT;

/**
 * Which counter (`event_1` … `event_13` of the case notification status) counts a type. Decision:
 * a type from 1 to 13 counts in its own slot (`event_2` files, `event_3` public chat … `event_13`
 * instructor chat, so a chat channel's counter is `event_{channel}`); the types above 13 (case
 * fulfil 21, pending approval 23, case dispatched 24) take the slots no named type uses, in
 * ascending order: 21 → `event_1`, 23 → `event_6`, 24 → `event_8`. Slot 12 stays reserved. Unknown types have no counter.
 */
const SLOT_OF_TYPE: ReadonlyMap<number, number> = (() => {
  const slots = new Map<number, number>();
  const free: number[] = [];
  for (let slot = 1; slot <= SLOT_COUNT; slot++) {
    if (NAMED_TYPE_IDS.includes(slot)) slots.set(slot, slot);
    else free.push(slot);
  }
  for (const id of NAMED_TYPE_IDS.filter((type) => type > SLOT_COUNT)) {
    const slot = free.shift();
    if (slot === undefined) throw new Error('more notification types than counters');
    slots.set(id, slot);
  }
  return slots;
})();

export function counterKeyOf(eventType: number): CaseNotificationCounterKey | null {
  const slot = SLOT_OF_TYPE.get(eventType);
  return slot === undefined ? null : (`event_${slot}` as CaseNotificationCounterKey);
}

/** The type a counter counts (the inverse of `counterKeyOf`), null for a reserved slot. */
export function eventTypeOfCounterKey(key: CaseNotificationCounterKey): number | null {
  for (const [type, slot] of SLOT_OF_TYPE) if (`event_${slot}` === key) return type;
  return null;
}

/** The counters of a case notification status from counts per type (unknown types ignored). */
export function caseNotificationCounters(
  counts: readonly { eventType: number; count: number }[],
): Record<CaseNotificationCounterKey, number> {
  const details = emptyCaseNotificationDetails();
  for (const { eventType, count } of counts) {
    const key = counterKeyOf(eventType);
    if (key) details[key] = (details[key] ?? 0) + count;
  }
  return details;
}
