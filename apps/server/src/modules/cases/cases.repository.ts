import { and, asc, eq, inArray, isNull, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import {
  CASE_STATUSES,
  caseListGroup,
  type Language,
  type ServiceWithoutOrder,
  type MembershipRole,
} from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { preparedStatement } from '../../db/prepared-statement';
import { auditCte, auditCteValues, type AuditEntry } from '../audit';
import {
  caseEvents,
  caseReviews,
  caseServices,
  caseUsers,
  cases,
  patients,
  products,
  transactions,
  users,
  type StoredCaseDispatch,
} from '../../db/schema';

export type CaseRow = typeof cases.$inferSelect;
export type PatientRow = typeof patients.$inferSelect;
export type CaseServiceRow = typeof caseServices.$inferSelect;
export type CaseReviewRow = typeof caseReviews.$inferSelect;
export type CaseEventRow = typeof caseEvents.$inferSelect;
export type ProductRow = typeof products.$inferSelect;

/** The product's name in `language` (a value or a statement's placeholder), else in English. */
export const productNameSql = (language: Language | Placeholder) =>
  sql<string>`coalesce(nullif(${products.texts} -> ${language}::text ->> 'name', ''), ${products.texts} -> 'en' ->> 'name', '')`;

// The writes of a case (and the reads that belong to them: deferrals, reviews, transactions).

/** Records the dispatch, once: false when one was already stored. */
export async function setCaseDispatch(
  db: DbOrTx,
  caseId: number,
  dispatch: StoredCaseDispatch,
): Promise<boolean> {
  const updated = await db
    .update(cases)
    .set({ dispatch })
    .where(and(eq(cases.id, caseId), isNull(cases.dispatch)))
    .returning({ id: cases.id });
  return updated.length > 0;
}

/** The checkout's delivery address becomes the case's address unless it has one. */
export async function setCaseAddressIfNone(
  db: DbOrTx,
  caseId: number,
  address: NonNullable<CaseRow['address']>,
): Promise<void> {
  await db
    .update(cases)
    .set({ address })
    .where(and(eq(cases.id, caseId), isNull(cases.address)));
}

export async function insertPatient(
  db: DbOrTx,
  values: typeof patients.$inferInsert,
): Promise<PatientRow> {
  const [row] = await db.insert(patients).values(values).returning();
  return row!;
}

/** The patient's full name as the case shows it ('' when the case has none). */
export async function findPatientName(db: DbOrTx, patientId: number | null): Promise<string> {
  if (patientId === null) return '';
  const [row] = await db
    .select({ fname: patients.fname, lname: patients.lname })
    .from(patients)
    .where(eq(patients.id, patientId))
    .limit(1);
  return row ? `${row.fname} ${row.lname}`.trim() : '';
}

export async function updatePatient(
  db: DbOrTx,
  id: number,
  patch: Partial<typeof patients.$inferInsert>,
): Promise<void> {
  await db.update(patients).set(patch).where(eq(patients.id, id));
}

export async function insertCase(db: DbOrTx, values: typeof cases.$inferInsert): Promise<CaseRow> {
  const [row] = await db.insert(cases).values(values).returning();
  return row!;
}

export type CasePatch = Partial<
  Pick<
    CaseRow,
    | 'caseStatus'
    | 'listGroup'
    | 'caseArchived'
    | 'caseReview'
    | 'hasPrintable'
    | 'address'
    | 'observation'
    | 'caseCurrency'
    | 'searchText'
    | 'modifiedAt'
    | 'validatedAt'
    | 'deadlineAt'
    | 'finishAt'
  >
>;

export async function updateCase(db: DbOrTx, caseId: number, patch: CasePatch): Promise<void> {
  await db.update(cases).set(patch).where(eq(cases.id, caseId));
}

/** A constant of the domain as a SQL literal (the statuses and groups are plain words). */
const literal = (value: string | null) =>
  value === null ? 'null' : `'${value.replaceAll("'", "''")}'`;

/**
 * The domain's `caseListGroup` as a SQL `case` over the known statuses, written with literals so
 * the statement's text stays the same and small.
 */
const LIST_GROUP_CASES = sql.raw(
  CASE_STATUSES.map((s) => `when ${literal(s)} then ${literal(caseListGroup(s))}`).join(' '),
);
const listGroupOfSql = (status: SQL) =>
  sql<string | null>`(case ${status} ${LIST_GROUP_CASES} else null end)`;

/** A history row to write, and the audit row written with it (a change of status or archive). */
export interface CaseEventWrite {
  event: typeof caseEvents.$inferInsert;
  audit?: AuditEntry | undefined;
}

/** A history row's values as placeholders, filled by `caseEventWriteValues`. */
const caseEventPlaceholders = {
  caseId: sql.placeholder('eventCaseId'),
  actorId: sql.placeholder('eventActorId'),
  at: sql.placeholder('eventAt'),
  action: sql.placeholder('eventAction'),
  fromStatus: sql.placeholder('eventFromStatus'),
  toStatus: sql.placeholder('eventToStatus'),
  detail: sql.placeholder('eventDetail'),
};

/** The history row's insert as a CTE (`with history as (insert …)`) of the case's update. */
const caseEventCte = (db: DbOrTx) =>
  db
    .$with('history')
    .as(db.insert(caseEvents).values(caseEventPlaceholders).returning({ eventId: caseEvents.id }));

/** The placeholders' values of a history row and its audit row (`caseEventCte`, `auditCte`). */
const caseEventWriteValues = ({ event, audit }: CaseEventWrite) => ({
  eventCaseId: event.caseId,
  eventActorId: event.actorId ?? null,
  eventAt: event.at,
  eventAction: event.action,
  eventFromStatus: event.fromStatus ?? null,
  eventToStatus: event.toStatus ?? null,
  eventDetail: event.detail ?? {},
  ...(audit ? auditCteValues(audit) : {}),
});

/** A history row, with its audit row as a CTE: built once per connection. */
const insertCaseEventStatement = preparedStatement(
  (withAudit: boolean) => `case_event_insert${withAudit ? '_audited' : ''}`,
  (db, withAudit: boolean) =>
    (withAudit ? db.with(auditCte(db)) : db).insert(caseEvents).values(caseEventPlaceholders),
);

/** A history row, with its audit row in the same statement when it has one. */
export async function insertCaseEvent(db: DbOrTx, write: CaseEventWrite): Promise<void> {
  await insertCaseEventStatement(db, caseEventWriteValues(write), write.audit !== undefined);
}

/** `refreshCaseColumns`' statement: built once per connection, named per form. */
const refreshCaseStatement = preparedStatement(
  (newStatus: boolean, writes: 'none' | 'history' | 'audited') =>
    `case_refresh_${newStatus ? 'status' : 'same'}_${writes}`,
  (db, newStatus: boolean, writes: 'none' | 'history' | 'audited') => {
    const status = newStatus
      ? sql`${sql.placeholder('caseStatus')}::text`
      : sql`${cases.caseStatus}`;
    const ctes =
      writes === 'none'
        ? []
        : writes === 'history'
          ? [caseEventCte(db)]
          : [auditCte(db), caseEventCte(db)];
    return (ctes.length > 0 ? db.with(...ctes) : db)
      .update(cases)
      .set({
        ...(newStatus ? { caseStatus: status } : {}),
        listGroup: listGroupOfSql(status),
        hasPrintable: sql`exists (select 1 from ${caseServices} where ${caseServices.caseId} = ${cases.id} and ${caseServices.printableProduct})`,
        caseReview: sql`exists (select 1 from ${caseReviews} where ${caseReviews.caseId} = ${cases.id} and ${caseReviews.solvedAt} is null)`,
        modifiedAt: sql`${sql.param(sql.placeholder('modifiedAt'), cases.modifiedAt)}`,
      })
      .from(patients)
      .where(and(eq(cases.id, sql.placeholder('caseId')), eq(patients.id, cases.patientId)))
      .returning({
        caseStatus: cases.caseStatus,
        caseArchived: cases.caseArchived,
        searchText: cases.searchText,
        fname: patients.fname,
        lname: patients.lname,
      });
  },
);

/**
 * The derived columns of a case made true in ONE statement (with the status, when given, and
 * `modifiedAt`): the list group of the status, the printable flag and the open-review flag from
 * the case's services and reviews. With `history`, the change's history row (and its audit row)
 * are written by the same statement, as its CTEs: every change of a case ends here. Returns what
 * the caller checks next (the stored folded patient name against the patient's, the status and
 * archive flag after the change); undefined when the case does not exist.
 */
export async function refreshCaseColumns(
  db: DbOrTx,
  caseId: number,
  values: { caseStatus?: string | undefined; modifiedAt: Date },
  /** The change's history row (and audit row), written by the same statement. */
  history?: CaseEventWrite,
) {
  const newStatus = values.caseStatus !== undefined;
  const [row] = await refreshCaseStatement(
    db,
    {
      caseId,
      modifiedAt: values.modifiedAt,
      ...(newStatus ? { caseStatus: values.caseStatus } : {}),
      ...(history ? caseEventWriteValues(history) : {}),
    },
    newStatus,
    !history ? 'none' : history.audit ? 'audited' : 'history',
  );
  return row;
}

export async function findProduct(db: DbOrTx, id: number): Promise<ProductRow | undefined> {
  const [row] = await db.select().from(products).where(eq(products.id, id)).limit(1);
  return row;
}

export async function findProductsByIds(db: DbOrTx, ids: readonly number[]): Promise<ProductRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(products)
    .where(inArray(products.id, [...ids]));
}

export async function insertCaseServices(
  db: DbOrTx,
  values: (typeof caseServices.$inferInsert)[],
): Promise<CaseServiceRow[]> {
  if (values.length === 0) return [];
  return db.insert(caseServices).values(values).returning();
}

export async function deleteCaseService(db: DbOrTx, serviceId: number): Promise<void> {
  await db.delete(caseServices).where(eq(caseServices.id, serviceId));
}

export async function updateCaseService(
  db: DbOrTx,
  serviceId: number,
  patch: Partial<
    Pick<CaseServiceRow, 'dataVersion' | 'data' | 'plannerId' | 'approveRequestAt' | 'approveAt'>
  >,
): Promise<void> {
  await db.update(caseServices).set(patch).where(eq(caseServices.id, serviceId));
}

/** A supervisor's override: these services may be made unpaid (they stay unpaid). */
export async function deferServicesPayment(
  db: DbOrTx,
  serviceIds: readonly number[],
  deferral: { at: Date; by: number; reason: string },
): Promise<void> {
  if (serviceIds.length === 0) return;
  await db
    .update(caseServices)
    .set({
      paymentDeferredAt: deferral.at,
      paymentDeferredBy: deferral.by,
      paymentDeferredReason: deferral.reason,
    })
    .where(inArray(caseServices.id, [...serviceIds]));
}

/**
 * Services a supervisor let through unpaid that no paid or pre-paid transaction pays yet, oldest
 * deferral first (the supervisors' payment queue).
 */
export async function listDeferredUnpaidServices(db: DbOrTx, language: Language) {
  return db
    .select({
      serviceId: caseServices.id,
      caseId: cases.id,
      caseStatus: cases.caseStatus,
      caseCurrency: cases.caseCurrency,
      fname: patients.fname,
      lname: patients.lname,
      ownerId: cases.ownerId,
      ownerName: users.displayName,
      productName: productNameSql(language),
      quantity: caseServices.quantity,
      deferredAt: caseServices.paymentDeferredAt,
      reason: caseServices.paymentDeferredReason,
    })
    .from(caseServices)
    .innerJoin(cases, eq(cases.id, caseServices.caseId))
    .innerJoin(patients, eq(patients.id, cases.patientId))
    .innerJoin(users, eq(users.id, cases.ownerId))
    .innerJoin(products, eq(products.id, caseServices.productId))
    .leftJoin(transactions, eq(transactions.id, caseServices.transactionId))
    .where(
      and(
        sql`${caseServices.paymentDeferredAt} is not null`,
        or(isNull(transactions.id), sql`${transactions.paymentStatus} not in ('paid', 'pre_paid')`),
      ),
    )
    .orderBy(asc(caseServices.paymentDeferredAt), asc(caseServices.id))
    .limit(500);
}

/** Adds or updates a case user; the latest addition decides the role it comes from. */
export async function upsertCaseUser(
  db: DbOrTx,
  values: {
    caseId: number;
    userId: number;
    triggerNotification: boolean;
    viaRole: MembershipRole | null;
  },
): Promise<void> {
  await db
    .insert(caseUsers)
    .values(values)
    .onConflictDoUpdate({
      target: [caseUsers.caseId, caseUsers.userId],
      set: { triggerNotification: values.triggerNotification, viaRole: values.viaRole },
    });
}

/** Adds a case user unless present (keeps an existing notification choice and its role). */
export async function ensureCaseUser(
  db: DbOrTx,
  caseId: number,
  userId: number,
  viaRole: MembershipRole | null,
): Promise<void> {
  await db
    .insert(caseUsers)
    .values({ caseId, userId, triggerNotification: true, viaRole })
    .onConflictDoNothing();
}

export async function deleteCaseUser(db: DbOrTx, caseId: number, userId: number): Promise<boolean> {
  const deleted = await db
    .delete(caseUsers)
    .where(and(eq(caseUsers.caseId, caseId), eq(caseUsers.userId, userId)))
    .returning({ id: caseUsers.id });
  return deleted.length > 0;
}

export async function insertCaseReview(
  db: DbOrTx,
  values: typeof caseReviews.$inferInsert,
): Promise<CaseReviewRow> {
  const [row] = await db.insert(caseReviews).values(values).returning();
  return row!;
}

export async function solveCaseReview(
  db: DbOrTx,
  caseId: number,
  reviewId: number,
  solvedBy: number,
  at: Date,
): Promise<boolean> {
  const solved = await db
    .update(caseReviews)
    .set({ solvedAt: at, solvedBy })
    .where(
      and(
        eq(caseReviews.id, reviewId),
        eq(caseReviews.caseId, caseId),
        isNull(caseReviews.solvedAt),
      ),
    )
    .returning({ id: caseReviews.id });
  return solved.length > 0;
}

/** One open review of the case (what solving it checks), or undefined. */
export async function findOpenCaseReview(
  db: DbOrTx,
  caseId: number,
  reviewId: number,
): Promise<Pick<CaseReviewRow, 'id' | 'reasonId'> | undefined> {
  const [row] = await db
    .select({ id: caseReviews.id, reasonId: caseReviews.reasonId })
    .from(caseReviews)
    .where(
      and(
        eq(caseReviews.id, reviewId),
        eq(caseReviews.caseId, caseId),
        isNull(caseReviews.solvedAt),
      ),
    )
    .limit(1);
  return row;
}

export async function hasOpenReview(
  db: DbOrTx,
  caseId: number,
  reasonId?: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: caseReviews.id })
    .from(caseReviews)
    .where(
      and(
        eq(caseReviews.caseId, caseId),
        isNull(caseReviews.solvedAt),
        reasonId === undefined ? undefined : eq(caseReviews.reasonId, reasonId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Cases still being planned whose deadline is at or before `until`, not archived, without an
 * open review of `reasonId` (the deadline-near job).
 */
export async function findCasesWithDeadlineBefore(
  db: DbOrTx,
  until: Date,
  settledStatuses: readonly string[],
  reasonId: number,
): Promise<{ id: number; caseStatus: string }[]> {
  return db
    .select({ id: cases.id, caseStatus: cases.caseStatus })
    .from(cases)
    .where(
      and(
        sql`${cases.deadlineAt} is not null`,
        sql`${cases.deadlineAt} <= ${until.toISOString()}::timestamptz`,
        eq(cases.caseArchived, false),
        sql`${cases.caseStatus} not in (${sql.join(
          settledStatuses.map((s) => sql`${s}`),
          sql`, `,
        )})`,
        sql`not exists (select 1 from ${caseReviews} where ${caseReviews.caseId} = ${cases.id} and ${caseReviews.reasonId} = ${reasonId} and ${caseReviews.solvedAt} is null)`,
      ),
    );
}

/**
 * The case's services that no live transaction pays: none was made for them, or theirs was
 * cancelled (the content of the next order for the case).
 */
export async function listServicesWithoutOrder(
  db: DbOrTx,
  caseId: number,
): Promise<ServiceWithoutOrder[]> {
  return db
    .select({
      id: caseServices.id,
      productId: caseServices.productId,
      comboId: caseServices.serviceId,
      quantity: caseServices.quantity,
      manufactureData: caseServices.manufactureData,
    })
    .from(caseServices)
    .leftJoin(transactions, eq(transactions.id, caseServices.transactionId))
    .where(
      and(
        eq(caseServices.caseId, caseId),
        or(isNull(caseServices.transactionId), eq(transactions.paymentStatus, 'cancelled')),
      ),
    )
    .orderBy(asc(caseServices.id));
}

/** The totals of these transactions (what services waiting for them would cost). */
export async function findTransactionTotals(db: DbOrTx, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ total: transactions.priceTotal })
    .from(transactions)
    .where(inArray(transactions.id, [...ids]));
  return rows.map((row) => row.total);
}

/** Each transaction of a case with its payer (who, besides staff and owner, reads its money). */
export async function listCaseTransactionPayers(
  db: DbOrTx,
  caseId: number,
): Promise<{ id: number; payerId: number }[]> {
  return db
    .select({ id: transactions.id, payerId: transactions.payerId })
    .from(transactions)
    .where(eq(transactions.caseId, caseId));
}

/** The payment status of each transaction of a case (the transactions case check). */
export async function listCaseTransactionStatuses(db: DbOrTx, caseId: number): Promise<string[]> {
  const rows = await db
    .select({ paymentStatus: transactions.paymentStatus })
    .from(transactions)
    .where(eq(transactions.caseId, caseId));
  return rows.map((row) => row.paymentStatus);
}
