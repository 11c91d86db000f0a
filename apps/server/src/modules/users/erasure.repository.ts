import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { auditLog, chatMessages, invitations, mailOutbox } from '../../db/schema';

/*
 * The reads and writes of a deleted person's erasure in the records that outlive the account
 * (users/erasure.ts decides what changes).
 */

/** The column's text (JSON as text) contains one of the values, ignoring case. */
const containsAny = (column: AnyPgColumn | SQL, values: readonly string[]): SQL | undefined =>
  values.length === 0
    ? undefined
    : or(...values.map((value) => sql`strpos(lower(${column}::text), lower(${value})) > 0`));

/** Audit rows about the user's account, or whose details mention one of the values. */
export function findAuditRowsOfPerson(db: DbOrTx, userId: number, values: readonly string[]) {
  return db
    .select({
      id: auditLog.id,
      entity: auditLog.entity,
      entityId: auditLog.entityId,
      details: auditLog.details,
    })
    .from(auditLog)
    .where(
      or(
        and(eq(auditLog.entity, 'user'), eq(auditLog.entityId, String(userId))),
        containsAny(auditLog.details, values),
      ),
    );
}

export async function updateAuditDetails(
  db: DbOrTx,
  id: number,
  details: Record<string, unknown>,
): Promise<void> {
  await db.update(auditLog).set({ details }).where(eq(auditLog.id, id));
}

/**
 * Invitations sent to the email: addressed to the anonymized email from now on, and the ones
 * not accepted revoked (their link no longer works).
 */
export async function eraseInvitationsTo(
  db: DbOrTx,
  email: string,
  replacement: string,
  now: Date,
): Promise<void> {
  await db
    .update(invitations)
    .set({
      email: replacement,
      revokedAt: sql`case when ${invitations.acceptedAt} is null then coalesce(${invitations.revokedAt}, ${now.toISOString()}::timestamptz) else ${invitations.revokedAt} end`,
    })
    .where(sql`lower(${invitations.email}) = lower(${email})`);
}

/**
 * Mails to the email: addressed to the anonymized email, their parameters (the body) and error
 * text dropped, and the ones not sent yet given up (a deleted account gets no more mail).
 */
export async function eraseMailsTo(db: DbOrTx, email: string, replacement: string): Promise<void> {
  await db
    .update(mailOutbox)
    .set({
      recipient: replacement,
      params: {},
      lastError: null,
      status: sql`case when ${mailOutbox.status} = 'pending' then 'failed' else ${mailOutbox.status} end`,
    })
    .where(sql`lower(${mailOutbox.recipient}) = lower(${email})`);
}

/** Mails to others whose parameters mention one of the values. */
export function findMailsMentioning(db: DbOrTx, values: readonly string[]) {
  const condition = containsAny(mailOutbox.params, values);
  if (!condition) return Promise.resolve([]);
  return db
    .select({ id: mailOutbox.id, params: mailOutbox.params })
    .from(mailOutbox)
    .where(condition);
}

export async function updateMailParams(
  db: DbOrTx,
  id: number,
  params: Record<string, unknown>,
): Promise<void> {
  await db.update(mailOutbox).set({ params }).where(eq(mailOutbox.id, id));
}

/** The user's own chat messages whose text mentions one of the values. */
export function findMessagesMentioning(db: DbOrTx, userId: number, values: readonly string[]) {
  const condition = containsAny(chatMessages.text, values);
  if (!condition) return Promise.resolve([]);
  return db
    .select({ id: chatMessages.id, text: chatMessages.text })
    .from(chatMessages)
    .where(and(eq(chatMessages.fromUser, userId), condition));
}

export async function updateMessageTexts(
  db: DbOrTx,
  texts: readonly { id: number; text: string }[],
): Promise<void> {
  for (const { id, text } of texts) {
    await db.update(chatMessages).set({ text }).where(eq(chatMessages.id, id));
  }
}
