import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  caseReviews,
  caseServices,
  cases,
  invoiceCustomers,
  patients,
  paymentNotices,
  transactionCancels,
  transactionReceipts,
  transactions,
  users,
} from '../../db/schema';

export type TransactionRow = typeof transactions.$inferSelect;
export type ReceiptRow = typeof transactionReceipts.$inferSelect;
export type InvoiceRow = typeof invoiceCustomers.$inferSelect;
export type CancelRow = typeof transactionCancels.$inferSelect;
export type TransactionPatch = Partial<
  Omit<typeof transactions.$inferInsert, 'id' | 'caseId' | 'payerId' | 'reference'>
>;

// ───────────────────────────── transactions ─────────────────────────────

export async function findTransaction(
  db: DbOrTx,
  id: number,
  options: { lock?: boolean } = {},
): Promise<TransactionRow | undefined> {
  const query = db.select().from(transactions).where(eq(transactions.id, id)).limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function findTransactionByReference(
  db: DbOrTx,
  reference: string,
): Promise<TransactionRow | undefined> {
  const [row] = await db
    .select()
    .from(transactions)
    .where(eq(transactions.reference, reference))
    .limit(1);
  return row;
}

/** A web payment's transaction by the provider's order or checkout id. */
export async function findTransactionByGatewayCode(
  db: DbOrTx,
  paymentMethod: string,
  gatewayCode: string,
): Promise<TransactionRow | undefined> {
  const [row] = await db
    .select()
    .from(transactions)
    .where(
      and(eq(transactions.paymentMethod, paymentMethod), eq(transactions.gatewayCode, gatewayCode)),
    )
    .limit(1);
  return row;
}

export async function listCaseTransactions(db: DbOrTx, caseId: number): Promise<TransactionRow[]> {
  return db
    .select()
    .from(transactions)
    .where(eq(transactions.caseId, caseId))
    .orderBy(desc(transactions.createdAt), desc(transactions.id));
}

/** Every transaction of these cases, in one query (the payments queue's twin check). */
export async function listTransactionsOfCases(
  db: DbOrTx,
  caseIds: readonly number[],
): Promise<TransactionRow[]> {
  if (caseIds.length === 0) return [];
  return db
    .select()
    .from(transactions)
    .where(inArray(transactions.caseId, [...caseIds]));
}

export async function insertTransaction(
  db: DbOrTx,
  values: typeof transactions.$inferInsert,
): Promise<TransactionRow> {
  const [row] = await db.insert(transactions).values(values).returning();
  return row!;
}

/** Marks the services a new transaction pays with its id. */
export async function setServicesTransaction(
  db: DbOrTx,
  serviceIds: readonly number[],
  transactionId: number,
): Promise<void> {
  if (serviceIds.length === 0) return;
  await db
    .update(caseServices)
    .set({ transactionId })
    .where(inArray(caseServices.id, [...serviceIds]));
}

export async function updateTransaction(
  db: DbOrTx,
  id: number,
  patch: TransactionPatch,
): Promise<void> {
  await db.update(transactions).set(patch).where(eq(transactions.id, id));
}

/**
 * Transactions waiting for staff, oldest first: a receipt to decide, a card machine or insurance
 * payment to confirm, a cancel to authorise, or an open 'payment issue' review.
 */
export async function listPendingTransactions(
  db: DbOrTx,
  paymentIssueReason: number,
): Promise<TransactionRow[]> {
  const receiptPending = sql`exists (select 1 from ${transactionReceipts} r where r.id = ${transactions.receiptId} and r.auth_at is null)`;
  const cancelPending = sql`exists (select 1 from ${transactionCancels} c where c.id = ${transactions.cancelId} and c.auth_at is null)`;
  const issueOpen = sql`exists (select 1 from ${caseReviews} v where v.transaction_id = ${transactions.id} and v.reason_id = ${paymentIssueReason} and v.solved_at is null)`;
  return db
    .select()
    .from(transactions)
    .where(
      or(
        and(eq(transactions.paymentStatus, 'awaiting_payment'), receiptPending),
        and(
          eq(transactions.paymentStatus, 'pre_paid'),
          inArray(transactions.paymentMethod, ['physical', 'dentalPrev']),
        ),
        cancelPending,
        issueOpen,
      ),
    )
    .orderBy(asc(transactions.modifiedAt), asc(transactions.id))
    .limit(200);
}

// ───────────────────────────── receipts, invoices, cancels ─────────────────────────────

export async function insertReceipt(
  db: DbOrTx,
  values: typeof transactionReceipts.$inferInsert,
): Promise<ReceiptRow> {
  const [row] = await db.insert(transactionReceipts).values(values).returning();
  return row!;
}

export async function updateReceipt(
  db: DbOrTx,
  id: number,
  patch: Partial<typeof transactionReceipts.$inferInsert>,
): Promise<void> {
  await db.update(transactionReceipts).set(patch).where(eq(transactionReceipts.id, id));
}

export async function findReceiptsByIds(db: DbOrTx, ids: readonly number[]): Promise<ReceiptRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(transactionReceipts)
    .where(inArray(transactionReceipts.id, [...ids]));
}

export async function insertInvoice(
  db: DbOrTx,
  values: typeof invoiceCustomers.$inferInsert,
): Promise<InvoiceRow> {
  const [row] = await db.insert(invoiceCustomers).values(values).returning();
  return row!;
}

export async function updateInvoice(
  db: DbOrTx,
  id: number,
  patch: Partial<typeof invoiceCustomers.$inferInsert>,
): Promise<void> {
  await db.update(invoiceCustomers).set(patch).where(eq(invoiceCustomers.id, id));
}

export async function findInvoicesByIds(db: DbOrTx, ids: readonly number[]): Promise<InvoiceRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(invoiceCustomers)
    .where(inArray(invoiceCustomers.id, [...ids]));
}

export async function insertCancel(
  db: DbOrTx,
  values: typeof transactionCancels.$inferInsert,
): Promise<CancelRow> {
  const [row] = await db.insert(transactionCancels).values(values).returning();
  return row!;
}

export async function updateCancel(
  db: DbOrTx,
  id: number,
  patch: Partial<typeof transactionCancels.$inferInsert>,
): Promise<void> {
  await db.update(transactionCancels).set(patch).where(eq(transactionCancels.id, id));
}

export async function findCancelsByIds(db: DbOrTx, ids: readonly number[]): Promise<CancelRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(transactionCancels)
    .where(inArray(transactionCancels.id, [...ids]));
}

// ───────────────────────────── services ─────────────────────────────

export async function listServiceIdsByTransactions(
  db: DbOrTx,
  transactionIds: readonly number[],
): Promise<{ id: number; transactionId: number | null }[]> {
  if (transactionIds.length === 0) return [];
  return db
    .select({ id: caseServices.id, transactionId: caseServices.transactionId })
    .from(caseServices)
    .where(inArray(caseServices.transactionId, [...transactionIds]));
}

/** The transaction's services count as paid (they can no longer be removed). */
export async function markServicesPaid(db: DbOrTx, transactionId: number, at: Date): Promise<void> {
  await db
    .update(caseServices)
    .set({ paidAt: at })
    .where(and(eq(caseServices.transactionId, transactionId), isNull(caseServices.paidAt)));
}

/** An authorised cancel deletes every service the transaction paid; answers their ids. */
export async function deleteServicesOfTransaction(
  db: DbOrTx,
  transactionId: number,
): Promise<number[]> {
  const rows = await db
    .delete(caseServices)
    .where(eq(caseServices.transactionId, transactionId))
    .returning({ id: caseServices.id });
  return rows.map((row) => row.id);
}

// ───────────────────────────── reviews ─────────────────────────────

export async function insertPaymentReview(
  db: DbOrTx,
  values: { caseId: number; transactionId: number; reasonId: number; at: Date },
): Promise<void> {
  await db.insert(caseReviews).values({
    caseId: values.caseId,
    transactionId: values.transactionId,
    reasonId: values.reasonId,
    description: '',
    createdAt: values.at,
  });
}

export async function hasOpenPaymentReview(
  db: DbOrTx,
  transactionId: number,
  reasonId: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: caseReviews.id })
    .from(caseReviews)
    .where(
      and(
        eq(caseReviews.transactionId, transactionId),
        eq(caseReviews.reasonId, reasonId),
        isNull(caseReviews.solvedAt),
      ),
    )
    .limit(1);
  return !!row;
}

/** Solves the transaction's open reviews with these reasons (the work they asked for is done). */
export async function solvePaymentReviews(
  db: DbOrTx,
  transactionId: number,
  reasonIds: readonly number[],
  solvedBy: number | null,
  at: Date,
): Promise<void> {
  await db
    .update(caseReviews)
    .set({ solvedAt: at, solvedBy })
    .where(
      and(
        eq(caseReviews.transactionId, transactionId),
        inArray(caseReviews.reasonId, [...reasonIds]),
        isNull(caseReviews.solvedAt),
      ),
    );
}

// ───────────────────────────── people and cases ─────────────────────────────

export async function findCaseForPayments(db: DbOrTx, caseId: number) {
  const [row] = await db
    .select({
      id: cases.id,
      ownerId: cases.ownerId,
      caseStatus: cases.caseStatus,
      caseArchived: cases.caseArchived,
      caseCurrency: cases.caseCurrency,
      modifiedAt: cases.modifiedAt,
      fname: patients.fname,
      lname: patients.lname,
    })
    .from(cases)
    .innerJoin(patients, eq(patients.id, cases.patientId))
    .where(eq(cases.id, caseId))
    .limit(1);
  return row;
}

/** Locks the case row (every change of a case's payments takes the case first). */
export async function lockCase(db: DbOrTx, caseId: number): Promise<boolean> {
  const rows = await db
    .select({ id: cases.id })
    .from(cases)
    .where(eq(cases.id, caseId))
    .for('update');
  return rows.length > 0;
}

export async function findPeople(db: DbOrTx, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      dataCapabilities: users.dataCapabilities,
    })
    .from(users)
    .where(inArray(users.id, [...ids]));
}

// ───────────────────────────── provider notices ─────────────────────────────

/**
 * Claims a provider notice once: false when the same (provider, key) was already recorded — a
 * repeated delivery — so it changes nothing. Concurrent copies wait on the unique index.
 */
export async function claimNotice(
  db: DbOrTx,
  values: {
    provider: string;
    eventKey: string;
    transactionId: number | null;
    outcome: string;
    providerStatus: string | null;
    detail: Record<string, unknown>;
  },
): Promise<number | null> {
  const rows = await db
    .insert(paymentNotices)
    .values(values)
    .onConflictDoNothing({ target: [paymentNotices.provider, paymentNotices.eventKey] })
    .returning({ id: paymentNotices.id });
  return rows[0]?.id ?? null;
}

export async function setNoticeOutcome(db: DbOrTx, id: number, outcome: string): Promise<void> {
  await db.update(paymentNotices).set({ outcome }).where(eq(paymentNotices.id, id));
}
