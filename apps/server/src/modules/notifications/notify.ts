import {
  DEFAULT_EMAIL_NOTIFICATIONS,
  NOTIFICATION_TYPES,
  isChatNotificationType,
  isLanguage,
} from '@dentflow/domain';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { enqueueMailsWith } from '../mail';
import { emailsSettingsOf } from '../settings';
import { findCaseRecipients, insertNotifications } from './notifications.repository';

/** Who may receive a notification, as a `mayReceive` filter sees them. */
export interface NotificationCandidate {
  id: number;
  roles: string[];
  internal: boolean;
}

export interface NotifyCaseUsersInput {
  caseId: number;
  eventType: number;
  actorId: number | null;
  /** What it is about: a message, a file, a service. */
  resourceId: number | null;
  /** Where the web opens it, e.g. `/case/12?tab=attachments`. */
  path: string | null;
  /** A further rule on who may know (the chat's channel rule); everyone when absent. */
  mayReceive?: (user: NotificationCandidate) => boolean;
}

/**
 * Tells a case's people that something happened, in the caller's transaction (so a change that
 * rolls back notifies nobody): the owner and every case user with `triggerNotification` (and, for
 * the instructor channel, the owner's instructor), never
 * the actor, verified accounts only, filtered by `mayReceive`. One `notifications` row each; the
 * recipients whose email preferences (null → the `emails` settings' `defaultEvents`, else
 * `DEFAULT_EMAIL_NOTIFICATIONS`) include the type also
 * get a mail through the outbox, marked sent — except chat types, which the mail worker sends as
 * a digest. Returns the recipients' ids (publish `notification.created` to them after commit).
 */
export async function notifyCaseUsers(tx: DbOrTx, input: NotifyCaseUsersInput): Promise<number[]> {
  // The instructor channel's other side is the owner's instructor, who is not a case user.
  const { recipients: candidates, mailFacts } = await findCaseRecipients(
    tx,
    input.caseId,
    input.actorId,
    { ownerInstructor: input.eventType === NOTIFICATION_TYPES.instructorChatMessage },
  );
  const recipients = input.mayReceive
    ? candidates.filter((user) =>
        input.mayReceive!({ id: user.id, roles: user.roles, internal: user.internal }),
      )
    : candidates;
  if (recipients.length === 0 || !mailFacts) return [];

  const now = new Date();
  // Users who never chose get the administration's defaults (settings `emails`).
  const defaultTypes = recipients.some((user) => user.emailNotifications === null)
    ? emailsSettingsOf(mailFacts.emailsSettings).defaultEvents
    : DEFAULT_EMAIL_NOTIFICATIONS;
  const mailed = isChatNotificationType(input.eventType)
    ? []
    : recipients.filter((user) =>
        (user.emailNotifications ?? defaultTypes).includes(input.eventType),
      );
  const mailedIds = new Set(mailed.map((user) => user.id));
  // The mails go in the notifications' statement, as its CTE: one round trip for both.
  const mails =
    mailed.length === 0
      ? undefined
      : enqueueMailsWith(
          mailed.map((user) => ({
            recipient: user.email,
            template: 'notification',
            language: isLanguage(user.language) ? user.language : 'en',
            params: {
              eventType: input.eventType,
              caseId: input.caseId,
              patientName: mailFacts.patientName,
              actorName: mailFacts.actorName,
              path: input.path,
            },
          })),
        );
  await insertNotifications(
    tx,
    recipients.map((user) => ({
      caseId: input.caseId,
      userId: user.id,
      eventType: input.eventType,
      resourceId: input.resourceId,
      path: input.path,
      actorId: input.actorId,
      createdAt: now,
      modifiedAt: now,
      sentAt: mailedIds.has(user.id) ? now : null,
    })),
    mails,
  );
  return recipients.map((user) => user.id);
}

/**
 * After commit: tells the recipients' open browsers (room `user:{id}`) that a notification came,
 * for callers that do not go through the case events bus (the chat). Case events carry their
 * recipients in `detail.notified` instead (see `cases/case-activity.ts`).
 */
export function publishNotifications(
  ctx: Pick<AppContext, 'live'>,
  caseId: number,
  recipients: readonly number[],
  eventType: number,
): void {
  for (const userId of recipients) {
    ctx.live.toUser(userId, { type: 'notification.created', caseId, eventType });
  }
}
