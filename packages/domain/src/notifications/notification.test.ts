import { describe, expect, it } from 'vitest';
import {
  caseNotificationStatusSchema,
  caseNotificationTotal,
  emptyCaseNotificationDetails,
  isAnnouncementActive,
  notificationIcon,
  notificationLabelKey,
  NOTIFICATION_TYPES,
  unreadCount,
} from './notification';
import { translate } from '../i18n/catalogues';

describe('notification types and icons', () => {
  it.each([
    [2, 'paperclip'],
    [3, 'message'],
    [4, 'message'],
    [5, 'message'],
    [7, 'at'],
    [9, 'edit'],
    [10, 'lock'],
    [11, 'archive'],
    [21, 'circle-check'],
    [23, 'hourglass'],
    [99, 'bell'],
  ])('type %i → %s', (type, icon) => expect(notificationIcon(type)).toBe(icon));

  it('every type has a label in each language', () => {
    for (const id of [...Object.values(NOTIFICATION_TYPES), 99]) {
      for (const language of ['en', 'ptBR', 'es'] as const) {
        const key = notificationLabelKey(id);
        expect(translate(language, 'domain', key)).not.toBe(key);
      }
    }
    expect(translate('ptBR', 'domain', notificationLabelKey(2))).toBe('Arquivo adicionado');
  });

  it('counts unread', () =>
    expect(unreadCount([{ viewedAt: null }, { viewedAt: 't' }, { viewedAt: null }])).toBe(2));
});

describe('case notification status: counters event_1 to event_13', () => {
  it('has thirteen counters and sums them', () => {
    const details = { ...emptyCaseNotificationDetails(), event_2: 3, event_13: 1 };
    expect(Object.keys(details)).toHaveLength(13);
    expect(caseNotificationTotal(details)).toBe(4);
    expect(
      caseNotificationStatusSchema.safeParse({ caseId: 1, unseen: 4, trigger: true, details })
        .success,
    ).toBe(true);
    const { event_13: _dropped, ...missing } = details;
    expect(
      caseNotificationStatusSchema.safeParse({
        caseId: 1,
        unseen: 4,
        trigger: true,
        details: missing,
      }).success,
    ).toBe(false);
  });
});

describe('announcement is active only with title and body', () => {
  it.each([
    [{ active: true, title: 'Hi', body: 'News' }, true],
    [{ active: true, title: '', body: 'News' }, false],
    [{ active: true, title: 'Hi', body: ' ' }, false],
    [{ active: false, title: 'Hi', body: 'News' }, false],
    [null, false],
  ])('%j → %s', (announcement, active) => expect(isAnnouncementActive(announcement)).toBe(active));
});
