import { CHAT_CHANNEL_IDS, isLanguage } from '@dentflow/domain';
import { loadEmailsSettings } from '../settings';
import type { Db } from '../../db/client';
import { enqueueMail } from './mail-outbox';
import {
  lockDigestNotifications,
  markNotificationsMailed,
  tryChatDigestLock,
  type DigestNotification,
} from './mail-outbox.repository';

/** A chat notification still unseen after this long goes into the recipient's digest. */
export const CHAT_DIGEST_DELAY_MS = 10 * 60_000;
/** Older unseen chat notifications are no longer mailed (and no longer scanned). */
const CHAT_DIGEST_WINDOW_MS = 7 * 24 * 60 * 60_000;

export interface ChatDigestItem {
  caseId: number;
  patientName: string | null;
  channel: number;
  count: number;
}

/**
 * Enqueues ONE `chatDigest` mail per user for their chat notifications (types 3, 4, 5, 13 — the
 * channel ids) that are unseen and unmailed `CHAT_DIGEST_DELAY_MS` after `now`'s cut-off, of the
 * types their email preferences include (none chosen: the `emails` settings' defaults), and marks
 * those notifications mailed in the same transaction. One instance at a time builds digests.
 */
export async function enqueueChatDigests(
  db: Db,
  now: Date,
): Promise<{ mails: number; notifications: number }> {
  return db.transaction(async (tx) => {
    if (!(await tryChatDigestLock(tx))) return { mails: 0, notifications: 0 };
    const due = await lockDigestNotifications(tx, {
      createdAfter: new Date(now.getTime() - CHAT_DIGEST_WINDOW_MS),
      createdBefore: new Date(now.getTime() - CHAT_DIGEST_DELAY_MS),
      chatTypes: [...CHAT_CHANNEL_IDS],
      defaultTypes: (await loadEmailsSettings(tx)).defaultEvents,
    });
    const byUser = new Map<number, DigestNotification[]>();
    for (const notification of due) {
      byUser.set(notification.userId, [...(byUser.get(notification.userId) ?? []), notification]);
    }
    for (const notifications of byUser.values()) {
      const first = notifications[0]!;
      await enqueueMail(tx, {
        recipient: first.email,
        template: 'chatDigest',
        language: isLanguage(first.language) ? first.language : 'en',
        params: { items: digestItems(notifications) },
      });
    }
    await markNotificationsMailed(
      tx,
      due.map((notification) => notification.id),
    );
    return { mails: byUser.size, notifications: due.length };
  });
}

/** One item per case and channel, in the order they first appear, with their message count. */
function digestItems(notifications: DigestNotification[]): ChatDigestItem[] {
  const items = new Map<string, ChatDigestItem>();
  for (const notification of notifications) {
    if (notification.caseId === null) continue;
    const key = `${notification.caseId}:${notification.eventType}`;
    const item = items.get(key);
    if (item) item.count += 1;
    else {
      items.set(key, {
        caseId: notification.caseId,
        patientName: notification.patientName,
        channel: notification.eventType,
        count: 1,
      });
    }
  }
  return [...items.values()];
}
