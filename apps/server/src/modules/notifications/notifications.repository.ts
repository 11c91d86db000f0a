import { and, count, desc, eq, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { placeholderRows, placeholderRowValues } from '../../db/placeholder-rows';
import { preparedStatement } from '../../db/prepared-statement';
import { caseUsers, cases, notifications, patients, users } from '../../db/schema';
import type { MailsCte } from '../mail';
import { emailsSettingsColumn } from '../settings';

export type NotificationRow = typeof notifications.$inferSelect;

/** Someone who may be told about a case's activity, with what the mail needs. */
export interface CaseRecipientRow {
  id: number;
  roles: string[];
  internal: boolean;
  email: string;
  language: string | null;
  emailNotifications: number[] | null;
}

/** What a notification's mail needs besides its recipient, read with the recipients. */
export interface NotificationMailFacts {
  patientName: string;
  actorName: string | null;
  /** The stored `emails` settings document (its default events), null when none is stored. */
  emailsSettings: unknown;
}

const recipientColumns = {
  id: users.id,
  roles: users.roles,
  internal: users.internal,
  email: users.email,
  language: sql<string | null>`${users.dataInfo} ->> 'language'`,
  emailNotifications: users.emailNotifications,
};

/**
 * The mail facts as columns of every recipient row: sub-selects that do not depend on the row,
 * which PostgreSQL runs once, and only when a row comes out (no recipient, no cost).
 */
const mailFactColumns = {
  patientName: sql<
    string | null
  >`(select p.fname || ' ' || p.lname from cases c join patients p on p.id = c.patient_id where c.id = ${sql.placeholder('caseId')}::int)`,
  actorName: sql<
    string | null
  >`(select u.display_name from users u where u.id = ${sql.placeholder('actorId')}::int)`,
  emailsSettings: emailsSettingsColumn(),
};

/**
 * One statement (a UNION ALL): the owner, then the case users in the order they were added,
 * then (for the instructor channel) the owner's instructor; `rank` keeps that order. Built once
 * per connection and named per form (with or without the instructor, with or without an actor
 * to leave out): PostgreSQL plans it once per connection too.
 */
const caseRecipientsStatement = preparedStatement(
  (instructor: boolean, withActor: boolean) =>
    `case_recipients_${instructor ? 'instructor' : 'case'}_${withActor ? 'others' : 'all'}`,
  (db, instructor: boolean, withActor: boolean) => {
    const notActor = withActor ? ne(users.id, sql.placeholder('actorId')) : undefined;
    const caseId = sql.placeholder('caseId');
    const columns = { ...recipientColumns, ...mailFactColumns };
    const owners = db
      .select({ ...columns, rank: sql<number>`0`.as('rank') })
      .from(cases)
      .innerJoin(users, eq(users.id, cases.ownerId))
      .where(and(eq(cases.id, caseId), isNotNull(users.verifiedAt), notActor));
    const members = db
      .select({ ...columns, rank: sql<number>`${caseUsers.id}`.as('rank') })
      .from(caseUsers)
      .innerJoin(users, eq(users.id, caseUsers.userId))
      .where(
        and(
          eq(caseUsers.caseId, caseId),
          eq(caseUsers.triggerNotification, true),
          isNotNull(users.verifiedAt),
          notActor,
          // The domain's `membershipHolds`: a membership that came from a role ends with it.
          sql`(${caseUsers.viaRole} is null or ${users.roles} ? ${caseUsers.viaRole})`,
        ),
      );
    const owner = alias(users, 'owner');
    const everyone = instructor
      ? owners.unionAll(members).unionAll(
          db
            .select({ ...columns, rank: sql<number>`2147483647`.as('rank') })
            .from(cases)
            .innerJoin(owner, eq(owner.id, cases.ownerId))
            .innerJoin(
              users,
              sql`${users.id} = (${owner.dataCapabilities} ->> 'instructorId')::int`,
            )
            .where(
              and(
                eq(cases.id, caseId),
                isNotNull(users.verifiedAt),
                notActor,
                // The domain's `isInstructor`: the relation ends with the role.
                sql`${users.roles} ?| array['admin', 'instructor']`,
              ),
            ),
        )
      : owners.unionAll(members);
    return everyone.orderBy(sql`rank`);
  },
);

/**
 * The case's owner and its case users who want notifications (`trigger_notification`) and still
 * hold the role their membership came from, verified accounts only, without `excludeId` (the one
 * who acted). One row per user, owner first. With `ownerInstructor` also the owner's instructor
 * (the instructor channel's other side). In the same statement, what their mails need (the
 * patient's and the actor's names, the `emails` settings): undefined when nobody is told.
 */
export async function findCaseRecipients(
  db: DbOrTx,
  caseId: number,
  excludeId: number | null,
  options: { ownerInstructor?: boolean } = {},
): Promise<{ recipients: CaseRecipientRow[]; mailFacts: NotificationMailFacts | undefined }> {
  const rows = await caseRecipientsStatement(
    db,
    { caseId, actorId: excludeId },
    options.ownerInstructor === true,
    excludeId !== null,
  );
  const seen = new Set<number>();
  const recipients = rows
    .filter((row) => !seen.has(row.id) && seen.add(row.id))
    .map(({ rank: _rank, patientName: _p, actorName: _a, emailsSettings: _e, ...row }) => row);
  const first = rows[0];
  return {
    recipients,
    mailFacts: first && {
      patientName: (first.patientName ?? '').trim(),
      actorName: first.actorName ?? null,
      emailsSettings: first.emailsSettings ?? null,
    },
  };
}

type NewNotification = typeof notifications.$inferInsert;
const NOTIFICATION_COLUMNS = [
  'caseId',
  'userId',
  'eventType',
  'resourceId',
  'path',
  'actorId',
  'createdAt',
  'modifiedAt',
  'sentAt',
] as const satisfies readonly (keyof NewNotification)[];

/**
 * The notifications of one event, with their mails as a CTE: one statement, built once per
 * connection for each number of notifications and mails (rows of placeholders).
 */
const insertNotificationsStatement = preparedStatement(
  (rows: number, mails: MailsCte | undefined) =>
    `notifications_insert_${rows}_${mails?.count ?? 0}`,
  (db, rows: number, mails: MailsCte | undefined) =>
    (mails ? db.with(mails.cte(db)) : db)
      .insert(notifications)
      .values(placeholderRows('n', NOTIFICATION_COLUMNS, rows, { asSql: true })),
);

/** The notifications; with `mails` (their mails, as a CTE) in the same statement. */
export async function insertNotifications(
  db: DbOrTx,
  rows: readonly NewNotification[],
  mails?: MailsCte,
): Promise<void> {
  if (rows.length === 0) return;
  await insertNotificationsStatement(
    db,
    { ...placeholderRowValues('n', NOTIFICATION_COLUMNS, rows), ...mails?.values },
    rows.length,
    mails && mails.count > 0 ? mails : undefined,
  );
}

// ───────────────────────────── reading ─────────────────────────────

const actors = alias(users, 'notification_actors');

/** A notification with the names the bell shows (actor, patient). */
export interface NotificationViewRow extends NotificationRow {
  actorName: string | null;
  patientFname: string | null;
  patientLname: string | null;
}

function selectViews(db: DbOrTx) {
  return db
    .select({
      id: notifications.id,
      caseId: notifications.caseId,
      userId: notifications.userId,
      eventType: notifications.eventType,
      resourceId: notifications.resourceId,
      path: notifications.path,
      actorId: notifications.actorId,
      createdAt: notifications.createdAt,
      modifiedAt: notifications.modifiedAt,
      sentAt: notifications.sentAt,
      viewedAt: notifications.viewedAt,
      actorName: actors.displayName,
      patientFname: patients.fname,
      patientLname: patients.lname,
    })
    .from(notifications)
    .leftJoin(actors, eq(actors.id, notifications.actorId))
    .leftJoin(cases, eq(cases.id, notifications.caseId))
    .leftJoin(patients, eq(patients.id, cases.patientId));
}

/** The user's notifications, newest first (index `notifications_user_idx`). */
export function listUserNotifications(
  db: DbOrTx,
  userId: number,
  page: { limit: number; offset: number },
): Promise<NotificationViewRow[]> {
  return selectViews(db)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** The user's notifications of one case, newest first. */
export function listUserCaseNotifications(
  db: DbOrTx,
  userId: number,
  caseId: number,
  limit: number,
): Promise<NotificationViewRow[]> {
  return selectViews(db)
    .where(and(eq(notifications.userId, userId), eq(notifications.caseId, caseId)))
    .orderBy(desc(notifications.id))
    .limit(limit);
}

/** How many notifications the user has, and how many of them are unseen. */
export async function countUserNotifications(
  db: DbOrTx,
  userId: number,
): Promise<{ total: number; unseen: number }> {
  const [row] = await db
    .select({
      total: count(),
      unseen: sql<number>`count(*) filter (where ${notifications.viewedAt} is null)`.mapWith(
        Number,
      ),
    })
    .from(notifications)
    .where(eq(notifications.userId, userId));
  return { total: row?.total ?? 0, unseen: row?.unseen ?? 0 };
}

/** The user's unseen notifications of a case, counted per event type. */
export function countUnseenByType(
  db: DbOrTx,
  userId: number,
  caseId: number,
): Promise<{ eventType: number; count: number }[]> {
  return db
    .select({ eventType: notifications.eventType, count: count() })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.caseId, caseId),
        isNull(notifications.viewedAt),
      ),
    )
    .groupBy(notifications.eventType);
}

/** The user's `trigger_notification` on the case; undefined when not a case user. */
export async function findCaseUserTrigger(
  db: DbOrTx,
  caseId: number,
  userId: number,
): Promise<boolean | undefined> {
  const [row] = await db
    .select({ trigger: caseUsers.triggerNotification })
    .from(caseUsers)
    .where(and(eq(caseUsers.caseId, caseId), eq(caseUsers.userId, userId)))
    .limit(1);
  return row?.trigger;
}

/** Marks the user's unseen notifications (of one case, or all) seen; returns how many. */
export async function markNotificationsSeen(
  db: DbOrTx,
  userId: number,
  at: Date,
  caseId?: number,
): Promise<number> {
  const updated = await db
    .update(notifications)
    .set({ viewedAt: at, modifiedAt: at })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.viewedAt),
        caseId === undefined ? undefined : eq(notifications.caseId, caseId),
      ),
    )
    .returning({ id: notifications.id });
  return updated.length;
}

// ───────────────────────────── email preferences ─────────────────────────────

/** The stored choice (null: the defaults); undefined when the user does not exist. */
export async function findEmailNotifications(
  db: DbOrTx,
  userId: number,
): Promise<number[] | null | undefined> {
  const [row] = await db
    .select({ eventTypes: users.emailNotifications })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ? row.eventTypes : undefined;
}

export async function updateEmailNotifications(
  db: DbOrTx,
  userId: number,
  eventTypes: number[],
): Promise<void> {
  await db
    .update(users)
    .set({ emailNotifications: eventTypes, modifiedAt: new Date() })
    .where(eq(users.id, userId));
}
