import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { caseApprovalRecords, users } from '../../db/schema';

export type ApprovalRecordRow = typeof caseApprovalRecords.$inferSelect;
type NewApprovalRecordRow = typeof caseApprovalRecords.$inferInsert;
/** A record with its approver's current display name (an erased account reads anonymized). */
export type ApprovalRecordView = ApprovalRecordRow & { approverName: string };

export async function insertApprovalRecord(
  db: DbOrTx,
  values: NewApprovalRecordRow,
): Promise<ApprovalRecordRow> {
  const [row] = await db.insert(caseApprovalRecords).values(values).returning();
  return row!;
}

const withApprover = (db: DbOrTx) =>
  db
    .select({ record: caseApprovalRecords, approverName: users.displayName })
    .from(caseApprovalRecords)
    .innerJoin(users, eq(users.id, caseApprovalRecords.approverId));

const flat = (rows: { record: ApprovalRecordRow; approverName: string }[]) =>
  rows.map(({ record, approverName }) => ({ ...record, approverName }));

/** A case's approval records, oldest first. */
export async function listCaseApprovalRecords(
  db: DbOrTx,
  caseId: number,
): Promise<ApprovalRecordView[]> {
  return flat(
    await withApprover(db)
      .where(eq(caseApprovalRecords.caseId, caseId))
      .orderBy(asc(caseApprovalRecords.id)),
  );
}

export async function findApprovalRecord(
  db: DbOrTx,
  id: number,
): Promise<ApprovalRecordView | undefined> {
  return flat(await withApprover(db).where(eq(caseApprovalRecords.id, id)).limit(1))[0];
}

/** The approvals a user made (their own data: the account's export), oldest first. */
export async function listApprovalRecordsByApprover(
  db: DbOrTx,
  approverId: number,
): Promise<ApprovalRecordRow[]> {
  return db
    .select()
    .from(caseApprovalRecords)
    .where(eq(caseApprovalRecords.approverId, approverId))
    .orderBy(asc(caseApprovalRecords.id));
}

/** The record of a certificate code (stored in its grouped, upper-case form). */
export async function findApprovalRecordByCode(
  db: DbOrTx,
  code: string,
): Promise<ApprovalRecordRow | undefined> {
  const [row] = await db
    .select()
    .from(caseApprovalRecords)
    .where(eq(caseApprovalRecords.certificateCode, code))
    .limit(1);
  return row;
}
