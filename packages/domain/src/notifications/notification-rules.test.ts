import { describe, expect, it } from 'vitest';
import { CASE_STATUSES } from '../cases/case-status';
import { NOTIFICATION_TYPES, caseNotificationStatusSchema } from './notification';
import {
  caseNotificationCounters,
  counterKeyOf,
  eventTypeOfCounterKey,
  isChatNotificationType,
  notificationTypeOfCaseEvent,
} from './notification-rules';

const event = (
  action: string,
  fromStatus: string | null = null,
  toStatus: string | null = null,
) => ({
  action,
  fromStatus,
  toStatus,
  detail: {},
});

describe('notificationTypeOfCaseEvent', () => {
  it.each([
    ['attachmentAdded', null, 'public', NOTIFICATION_TYPES.fileAdded],
    ['attachmentAdded', null, null, NOTIFICATION_TYPES.fileAdded],
    ['plannerSet', null, null, NOTIFICATION_TYPES.plannerAssigned],
    ['archived', 'finished', 'finished', NOTIFICATION_TYPES.archived],
    ['dispatched', null, null, NOTIFICATION_TYPES.caseDispatched],
    ['close', 'finished', 'closed', NOTIFICATION_TYPES.closed],
    ['finish', 'finishing', 'finished', NOTIFICATION_TYPES.caseFulfil],
    ['finish', 'print', 'finished', NOTIFICATION_TYPES.caseFulfil],
    ['requestApproval', 'execute', 'approve', NOTIFICATION_TYPES.pendingApproval],
    ['submit', 'new', 'checkingout', NOTIFICATION_TYPES.statusChanged],
    ['checkout', 'new', 'checkingout', NOTIFICATION_TYPES.statusChanged],
    ['validate', 'checkingout', 'execute', NOTIFICATION_TYPES.statusChanged],
    ['approve', 'approve', 'finishing', NOTIFICATION_TYPES.statusChanged],
    ['cancel', 'new', 'cancelled', NOTIFICATION_TYPES.statusChanged],
    ['unarchived', 'archive', 'execute', NOTIFICATION_TYPES.statusChanged],
    // A partial approval leaves the case where it was: no status change.
    ['approve', 'approve', 'approve', null],
    ['unarchived', 'closed', 'closed', null],
    ['created', null, 'new', null],
    ['payment', null, null, null],
    ['serviceData', null, null, null],
    ['serviceAdded', null, null, null],
    ['updated', null, null, null],
    ['reviewOpened', null, null, null],
    ['reviewSolved', null, null, null],
    ['userAdded', null, null, null],
    ['userRemoved', null, null, null],
    // Attachment moves carry the file's statuses, which are not case statuses.
    ['attachmentPublished', 'private', 'publish', null],
    ['attachmentApproved', 'publish', 'approved', null],
    ['attachmentDeleted', 'public', null, null],
    ['somethingNew', 'nonsense', 'other', null],
  ])('%s %s → %s gives %s', (action, from, to, type) =>
    expect(notificationTypeOfCaseEvent(event(action, from, to))).toBe(type),
  );

  it('every change between two case statuses notifies', () => {
    for (const from of CASE_STATUSES) {
      for (const to of CASE_STATUSES) {
        const type = notificationTypeOfCaseEvent(event('move', from, to));
        if (from === to) expect(type).toBeNull();
        else expect(type).not.toBeNull();
      }
    }
  });
});

describe('chat notification types', () => {
  it.each([
    [3, true],
    [4, true],
    [5, true],
    [13, true],
    [2, false],
    [9, false],
    [21, false],
  ])('%i → %s', (type, chat) => expect(isChatNotificationType(type)).toBe(chat));
});

describe('counterKeyOf: types 1–13 in their own slot, 21, 23 and 24 in the first free slots', () => {
  it.each([
    [NOTIFICATION_TYPES.fileAdded, 'event_2'],
    [NOTIFICATION_TYPES.publicChatMessage, 'event_3'],
    [NOTIFICATION_TYPES.privateChatMessage, 'event_4'],
    [NOTIFICATION_TYPES.clinicChatMessage, 'event_5'],
    [NOTIFICATION_TYPES.plannerAssigned, 'event_7'],
    [NOTIFICATION_TYPES.statusChanged, 'event_9'],
    [NOTIFICATION_TYPES.closed, 'event_10'],
    [NOTIFICATION_TYPES.archived, 'event_11'],
    [NOTIFICATION_TYPES.instructorChatMessage, 'event_13'],
    [NOTIFICATION_TYPES.caseFulfil, 'event_1'],
    [NOTIFICATION_TYPES.pendingApproval, 'event_6'],
    [NOTIFICATION_TYPES.caseDispatched, 'event_8'],
    [8, null],
    [12, null],
    [99, null],
    [0, null],
  ])('type %i → %s', (type, key) => expect(counterKeyOf(type)).toBe(key));

  it('gives every named type its own counter, and inverts', () => {
    const keys = Object.values(NOTIFICATION_TYPES).map(counterKeyOf);
    expect(keys).not.toContain(null);
    expect(new Set(keys).size).toBe(keys.length);
    for (const type of Object.values(NOTIFICATION_TYPES)) {
      expect(eventTypeOfCounterKey(counterKeyOf(type)!)).toBe(type);
    }
    expect(eventTypeOfCounterKey('event_12')).toBeNull();
  });

  it('builds the thirteen counters from counts per type', () => {
    const details = caseNotificationCounters([
      { eventType: 2, count: 3 },
      { eventType: 23, count: 1 },
      { eventType: 21, count: 2 },
      { eventType: 99, count: 5 },
    ]);
    expect(details).toMatchObject({ event_2: 3, event_6: 1, event_1: 2, event_9: 0 });
    expect(Object.values(details).reduce((a, b) => a + b, 0)).toBe(6);
    expect(
      caseNotificationStatusSchema.safeParse({ caseId: 1, unseen: 6, trigger: true, details })
        .success,
    ).toBe(true);
  });
});
