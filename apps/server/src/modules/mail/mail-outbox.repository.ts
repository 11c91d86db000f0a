import {
  and,
  asc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNotNull,
  isNull,
  lte,
  sql,
  type SQLWrapper,
} from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db, DbOrTx } from '../../db/client';
import { placeholderRows, placeholderRowValues } from '../../db/placeholder-rows';
import { preparedStatement } from '../../db/prepared-statement';
import { emailsSettingsColumn } from '../settings';
import { cases, mailOutbox, notifications, patients, users } from '../../db/schema';

export type MailRow = typeof mailOutbox.$inferSelect;

export interface NewMail {
  recipient: string;
  template: string;
  language: string;
  params: Record<string, unknown>;
}

/** The channel on which a committed mail wakes the mail workers of every instance. */
const MAIL_QUEUED_CHANNEL = 'mail_outbox_queued';
/** The transaction-level advisory lock that lets one instance at a time build chat digests. */
const CHAT_DIGEST_LOCK = 4_711_016_001;

/** A parameter holding a live secret (an account token): erased once the row is done. */
const SECRET_PARAM = 'token';

const afterMs = (ms: number) => sql`clock_timestamp() + ${ms} * interval '1 millisecond'`;

/**
 * Inserts pending mails in one statement. The insert's trigger (migration 0014) notifies the
 * workers on `MAIL_QUEUED_CHANNEL`; PostgreSQL delivers the notification only when the
 * transaction commits, so a rolled-back change wakes nobody.
 */
export async function insertMails(db: DbOrTx, mails: readonly NewMail[]): Promise<void> {
  if (mails.length === 0) return;
  await db.insert(mailOutbox).values([...mails]);
}

const MAIL_COLUMNS = [
  'recipient',
  'template',
  'language',
  'params',
] as const satisfies readonly (keyof NewMail)[];

/**
 * `insertMails` as a CTE (`with mails as (insert …)`) of another write of the same change, e.g.
 * the notifications the mails tell of: one statement for both (the trigger still notifies). Its
 * `count` rows are placeholders (`mailsCteValues` fills them), so a statement built once per
 * connection can carry it (`preparedStatement`).
 */
export const mailsCte = (db: DbOrTx, count: number) =>
  db.$with('mails').as(
    db
      .insert(mailOutbox)
      .values(placeholderRows('mail', MAIL_COLUMNS, count))
      .returning({ mailId: mailOutbox.id }),
  );

/** The values of `mailsCte`'s placeholders for these mails. */
export const mailsCteValues = (mails: readonly NewMail[]) =>
  placeholderRowValues('mail', MAIL_COLUMNS, mails);

/**
 * The session setting that keeps a transaction idle for `ms` (a placeholder): PostgreSQL's
 * `idle_in_transaction_session_timeout` and, from PostgreSQL 17, `transaction_timeout`, set for
 * this transaction only, whatever the server's defaults say.
 */
const holdSessionSql = (ms: SQLWrapper) =>
  sql<string>`concat(set_config('idle_in_transaction_session_timeout', ${ms}::text, true),
    case when current_setting('transaction_timeout', true) is not null
         then set_config('transaction_timeout', ${ms}::text, true) end)`;

/**
 * `lockDueMail`'s statement, built once per connection and planned at each call (the queue grows
 * by a mail per notified move); `holding` sets the hold in it too.
 */
const lockDueMailStatement = preparedStatement(
  (holding: boolean) => `mail_lock_due${holding ? '_holding' : ''}`,
  (tx, holding: boolean) => {
    const except = sql`<> all(${sql.placeholder('exceptIds')}::int[])`;
    return tx
      .select({
        ...getTableColumns(mailOutbox),
        // The sender name's document, read with the row (one statement less per mail).
        emailsSettings: emailsSettingsColumn(),
        // Rows another worker holds count too: the hint only stops a run early, never skips a
        // mail. (Raw names: drizzle leaves columns unqualified inside a select list.)
        more: sql<boolean>`exists (select 1 from mail_outbox m2 where m2.status = 'pending'
          and m2.next_attempt_at <= now() and m2.id <> "mail_outbox"."id" and m2.id ${except})`,
        ...(holding ? { held: holdSessionSql(sql.placeholder('holdMs')) } : {}),
      })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.status, 'pending'),
          lte(mailOutbox.nextAttemptAt, sql`now()`),
          sql`${mailOutbox.id} ${except}`,
        ),
      )
      .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
      .limit(1)
      .for('update', { of: mailOutbox, skipLocked: true });
  },
  { planEachCall: true },
);

/**
 * Locks the oldest due pending mail (other than `exceptIds`), skipping rows another worker holds.
 * Call inside a transaction: the lock lasts until it ends. `more` tells whether another due mail
 * was there too (a hint: a run that sees none stops without one more empty transaction, and a
 * mail committed later wakes the workers through its notification anyway).
 *
 * `holdMs` keeps the session (and so the row's lock) alive that long while the transaction
 * waits idle on a send, in the same statement: a lock dropped during a send would let another
 * worker send the same row again.
 */
export async function lockDueMail(
  tx: DbOrTx,
  options: { exceptIds?: number[]; holdMs?: number } = {},
): Promise<(MailRow & { more: boolean; emailsSettings: unknown }) | undefined> {
  const holding = options.holdMs !== undefined;
  const [row] = await lockDueMailStatement(
    tx,
    {
      exceptIds: options.exceptIds ?? [],
      ...(holding ? { holdMs: String(Math.ceil(options.holdMs!)) } : {}),
    },
    holding,
  );
  return row;
}

/** One drizzle handle per pooled connection, made the first time the connection is taken. */
const handles = new WeakMap<pg.PoolClient, Db>();

/**
 * Runs `work` on one pooled PostgreSQL connection of its own (PGlite: the database itself) that
 * reports its loss instead of crashing the process: a checked-out node-postgres connection has no
 * error listener, and one dropped (database restart) while a transaction waits on a send would
 * throw an unhandled 'error'. A lost connection is discarded, not returned to the pool.
 */
export async function withOwnConnection<T>(
  db: Db,
  work: (connection: Db) => Promise<T>,
): Promise<T> {
  const pool = (db as unknown as { $client: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return work(db);
  const client = await pool.connect();
  let lost: Error | undefined;
  const onError = (error: Error) => (lost = error);
  client.on('error', onError);
  let connection = handles.get(client);
  if (!connection) handles.set(client, (connection = drizzle(client) as unknown as Db));
  try {
    return await work(connection);
  } finally {
    client.removeListener('error', onError);
    client.release(lost);
  }
}

/** Moves a row's next attempt `ms` ahead: a lease other runs of this process respect. */
export async function leaseMail(db: DbOrTx, id: number, ms: number): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ nextAttemptAt: afterMs(ms) })
    .where(eq(mailOutbox.id, id));
}

const markMailSentStatement = preparedStatement(
  'mail_mark_sent',
  (db) =>
    db
      .update(mailOutbox)
      .set({
        status: 'sent',
        sentAt: sql`clock_timestamp()`,
        lastError: null,
        params: sql`${mailOutbox.params} - ${SECRET_PARAM}::text`,
      })
      .where(eq(mailOutbox.id, sql.placeholder('id'))),
  { planEachCall: true },
);

export async function markMailSent(db: DbOrTx, id: number): Promise<void> {
  await markMailSentStatement(db, { id });
}

/** Records a failed attempt: retried after `retryInMs`, or given up for good when null. */
export async function markMailAttemptFailed(
  db: DbOrTx,
  id: number,
  failure: { attempts: number; error: string; retryInMs: number | null },
): Promise<void> {
  await db
    .update(mailOutbox)
    .set(
      failure.retryInMs === null
        ? {
            status: 'failed',
            attempts: failure.attempts,
            lastError: failure.error,
            params: sql`${mailOutbox.params} - ${SECRET_PARAM}::text`,
          }
        : {
            attempts: failure.attempts,
            lastError: failure.error,
            nextAttemptAt: afterMs(failure.retryInMs),
          },
    )
    .where(eq(mailOutbox.id, id));
}

/**
 * Calls `onQueued` whenever a transaction that enqueued a mail commits (in any instance on this
 * database). PostgreSQL: a dedicated connection LISTENs (the pool's connections come and go);
 * PGlite: the embedded database's own listener. Resolves to the function that stops listening.
 */
export async function listenForQueuedMail(
  db: Db,
  databaseUrl: string | undefined,
  onQueued: () => void,
  onConnectionError: (error: Error) => void,
): Promise<() => Promise<void>> {
  if (!databaseUrl) {
    const embedded = (db as unknown as { $client: PgliteListener }).$client;
    return embedded.listen(MAIL_QUEUED_CHANNEL, onQueued);
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', onConnectionError);
  client.on('notification', onQueued);
  try {
    await client.connect();
    await client.query(`LISTEN ${MAIL_QUEUED_CHANNEL}`);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return () => client.end().catch(() => undefined);
}

interface PgliteListener {
  listen(channel: string, callback: () => void): Promise<() => Promise<void>>;
}

// ───────────────────────────── chat digest ─────────────────────────────

/** True when this transaction may build the chat digests (no other instance is doing it). */
export async function tryChatDigestLock(tx: DbOrTx): Promise<boolean> {
  const [row] = await tx
    .select({ locked: sql<boolean>`pg_try_advisory_xact_lock(${CHAT_DIGEST_LOCK})` })
    .from(sql`(select 1) as one`);
  return row?.locked === true;
}

export interface DigestNotification {
  id: number;
  userId: number;
  email: string;
  language: unknown;
  caseId: number | null;
  eventType: number;
  patientName: string | null;
}

/**
 * Locks the unseen, unmailed chat notifications created in the window whose type the recipient
 * (a verified user) wants by email — their own list, or `defaultTypes` when they never chose.
 */
export async function lockDigestNotifications(
  tx: DbOrTx,
  window: { createdAfter: Date; createdBefore: Date; chatTypes: number[]; defaultTypes: number[] },
): Promise<DigestNotification[]> {
  const wanted = sql`coalesce(${users.emailNotifications}, ${JSON.stringify(window.defaultTypes)}::jsonb)`;
  const rows = await tx
    .select({
      id: notifications.id,
      userId: notifications.userId,
      email: users.email,
      language: sql<unknown>`${users.dataInfo} -> 'language'`,
      caseId: notifications.caseId,
      eventType: notifications.eventType,
      patientFname: patients.fname,
      patientLname: patients.lname,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.userId))
    .leftJoin(cases, eq(cases.id, notifications.caseId))
    .leftJoin(patients, eq(patients.id, cases.patientId))
    .where(
      and(
        inArray(notifications.eventType, window.chatTypes),
        isNotNull(notifications.caseId),
        isNull(notifications.sentAt),
        isNull(notifications.viewedAt),
        gt(notifications.createdAt, window.createdAfter),
        lte(notifications.createdAt, window.createdBefore),
        isNotNull(users.verifiedAt),
        sql`${wanted} @> to_jsonb(${notifications.eventType})`,
      ),
    )
    .orderBy(asc(notifications.userId), asc(notifications.id))
    .for('update', { of: notifications, skipLocked: true });
  return rows.map(({ patientFname, patientLname, ...row }) => ({
    ...row,
    patientName: patientFname === null ? null : `${patientFname} ${patientLname ?? ''}`.trim(),
  }));
}

export async function markNotificationsMailed(tx: DbOrTx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(notifications)
    .set({ sentAt: sql`now()` })
    .where(inArray(notifications.id, ids));
}

/** Pending mails and the age of the oldest one, read at each scrape (an indexed status filter). */
export async function readOutboxBacklog(
  db: DbOrTx,
): Promise<{ pending: number; oldestAgeSeconds: number }> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*)::int`,
      oldestAgeSeconds: sql<number>`coalesce(extract(epoch from now() - min(${mailOutbox.createdAt})), 0)::float8`,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'pending'));
  return {
    pending: Number(row?.pending ?? 0),
    oldestAgeSeconds: Number(row?.oldestAgeSeconds ?? 0),
  };
}
