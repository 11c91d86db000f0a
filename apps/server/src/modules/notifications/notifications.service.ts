import {
  NOTIFICATION_LAST,
  NOTIFICATION_PAGE_SIZE,
  caseNotificationCounters,
  notificationIcon,
  type CaseNotificationStatus,
  type EmailNotifications,
  type LastNotifications,
  type NotificationPage,
  type NotificationView,
} from '@dentflow/domain';
import type { AppContext } from '../../context';
import { loadEmailsSettings } from '../settings';
import { AppError } from '../../http/app-error';
import { isoOrNull } from '../../http/envelope';
import type { AuthContext } from '../../http/permissions';
import {
  countUnseenByType,
  countUserNotifications,
  findCaseUserTrigger,
  findEmailNotifications,
  listUserCaseNotifications,
  listUserNotifications,
  markNotificationsSeen,
  updateEmailNotifications,
  type NotificationViewRow,
} from './notifications.repository';

type Caller = Pick<AuthContext, 'userId' | 'roles'>;

/** How many of a case's notifications `GET /notification/case/{id}` answers (newest first). */
export const CASE_NOTIFICATIONS_MAX = 100;

function toView(row: NotificationViewRow): NotificationView {
  return {
    id: row.id,
    caseId: row.caseId,
    eventType: row.eventType,
    icon: notificationIcon(row.eventType),
    resourceId: row.resourceId,
    path: row.path,
    actor: row.actorId === null ? null : { id: row.actorId, displayName: row.actorName ?? '' },
    patient:
      row.patientFname === null ? null : { fname: row.patientFname, lname: row.patientLname ?? '' },
    createdAt: row.createdAt.toISOString(),
    viewedAt: isoOrNull(row.viewedAt),
  };
}

/**
 * Whether the caller sees a case (and who owns it), or null when it is hidden or missing. The
 * cases module owns that rule and sits above notifications (its moves notify), so the
 * composition passes the check in rather than notifications importing cases.
 */
export type VisibleCaseOf = (caller: Caller, caseId: number) => Promise<{ ownerId: number } | null>;

/**
 * The caller's own notifications and their email preferences. Nobody
 * reads another user's notifications; a case's status and list are 404 when the case is hidden.
 */
export function createNotificationsService(
  ctx: Pick<AppContext, 'db'>,
  visibleCaseOf: VisibleCaseOf,
) {
  const { db } = ctx;

  async function requireCase(caller: Caller, caseId: number) {
    const access = await visibleCaseOf(caller, caseId);
    if (!access) throw new AppError(404, 'NOT_FOUND');
    return access;
  }

  return {
    /** The newest five and the unseen count (the bell). */
    async last(caller: Caller): Promise<LastNotifications> {
      const [rows, counts] = await Promise.all([
        listUserNotifications(db, caller.userId, { limit: NOTIFICATION_LAST, offset: 0 }),
        countUserNotifications(db, caller.userId),
      ]);
      return { items: rows.map(toView), unseen: counts.unseen };
    },

    /** A page of the caller's notifications, newest first, page from 0. */
    async page(caller: Caller, page: number): Promise<NotificationPage> {
      const [rows, counts] = await Promise.all([
        listUserNotifications(db, caller.userId, {
          limit: NOTIFICATION_PAGE_SIZE,
          offset: page * NOTIFICATION_PAGE_SIZE,
        }),
        countUserNotifications(db, caller.userId),
      ]);
      return {
        items: rows.map(toView),
        total: counts.total,
        page,
        pageSize: NOTIFICATION_PAGE_SIZE,
        unseen: counts.unseen,
      };
    },

    /**
     * Case notification status: the caller's unseen notifications of the case, counted
     * per type (`counterKeyOf`), and whether the caller gets them (the owner always does).
     */
    async caseStatus(caller: Caller, caseId: number): Promise<CaseNotificationStatus> {
      const access = await requireCase(caller, caseId);
      const [counts, trigger] = await Promise.all([
        countUnseenByType(db, caller.userId, caseId),
        access.ownerId === caller.userId
          ? Promise.resolve(true)
          : findCaseUserTrigger(db, caseId, caller.userId),
      ]);
      return {
        caseId,
        unseen: counts.reduce((sum, row) => sum + row.count, 0),
        trigger: trigger ?? false,
        details: caseNotificationCounters(counts),
      };
    },

    /**
     * The caller's notifications of a case, newest first (at most CASE_NOTIFICATIONS_MAX), as
     * they were before this call — so the web can still tell which ones are new — and then every
     * one of them on this case is marked seen.
     */
    async forCase(caller: Caller, caseId: number): Promise<NotificationView[]> {
      await requireCase(caller, caseId);
      const rows = await listUserCaseNotifications(
        db,
        caller.userId,
        caseId,
        CASE_NOTIFICATIONS_MAX,
      );
      await markNotificationsSeen(db, caller.userId, new Date(), caseId);
      return rows.map(toView);
    },

    async markAllRead(caller: Caller): Promise<{ updated: number }> {
      return { updated: await markNotificationsSeen(db, caller.userId, new Date()) };
    },

    async emailPreferences(caller: Caller): Promise<EmailNotifications> {
      const stored = await findEmailNotifications(db, caller.userId);
      if (stored === undefined) throw new AppError(401, 'NOT_AUTHORIZED');
      const types = stored ?? (await loadEmailsSettings(db)).defaultEvents;
      return { eventTypes: [...types].sort((a, b) => a - b) };
    },

    /** Saves the types that also come by email (already validated and sorted by the schema). */
    async setEmailPreferences(
      caller: Caller,
      body: EmailNotifications,
    ): Promise<EmailNotifications> {
      await updateEmailNotifications(db, caller.userId, body.eventTypes);
      return { eventTypes: body.eventTypes };
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
