import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import {
  PRINTER_VISIBLE_STATUSES,
  isCaseStaff,
  isInstructor,
  isPrinter,
  type CaseListFilter,
  type CaseViewer,
  type CaseVisibilityFacts,
  type Language,
} from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import {
  attachments,
  caseEvents,
  caseReviews,
  caseServices,
  caseUsers,
  cases,
  patients,
  products,
  users,
} from '../../db/schema';

export type CaseRow = typeof cases.$inferSelect;
export type PatientRow = typeof patients.$inferSelect;
export type CaseServiceRow = typeof caseServices.$inferSelect;
export type CaseReviewRow = typeof caseReviews.$inferSelect;
export type CaseEventRow = typeof caseEvents.$inferSelect;
export type ProductRow = typeof products.$inferSelect;

/** A product's name in a language, falling back to English (SQL). */
const productNameSql = (language: Language) =>
  sql<string>`coalesce(nullif(${products.texts} -> ${language} ->> 'name', ''), ${products.texts} -> 'en' ->> 'name', '')`;

// ───────────────────────────── visibility ─────────────────────────────

/**
 * The SQL twin of the domain's `caseRelation(...) !== null` for one viewer: staff see every case;
 * the others the cases they own, plan (a service's planner), are a case user of, print (printer
 * role, a printable service, in finishing/print/finished) or instruct (the owner's instructor).
 * Written as `owner = me OR id IN (…) OR …`: PostgreSQL evaluates each `IN` once as a hashed
 * sub-plan, so a list still walks its index in `modifiedAt` order and stops at the page.
 */
export function caseVisibleToSql(viewer: CaseViewer): SQL | undefined {
  if (isCaseStaff(viewer)) return undefined;
  const me = viewer.userId;
  const branches: SQL[] = [
    sql`${cases.ownerId} = ${me}`,
    sql`${cases.id} in (select cu.case_id from case_users cu where cu.user_id = ${me})`,
    sql`${cases.id} in (select cs.case_id from case_services cs where cs.planner_id = ${me})`,
  ];
  if (isPrinter(viewer.roles)) {
    branches.push(
      sql`(${cases.hasPrintable} and ${cases.caseStatus} in (${sql.join(
        PRINTER_VISIBLE_STATUSES.map((status) => sql`${status}`),
        sql`, `,
      )}))`,
    );
  }
  if (isInstructor(viewer.roles)) {
    branches.push(
      sql`${cases.ownerId} in (select u2.id from users u2 where (u2.data_capabilities ->> 'instructorId')::int = ${me})`,
    );
  }
  return sql`(${sql.join(branches, sql` or `)})`;
}

/** Everything `caseRelation` needs about one case, or undefined when it does not exist. */
export async function findCaseVisibilityFacts(
  db: DbOrTx,
  caseId: number,
  options: { lock?: boolean } = {},
): Promise<(CaseVisibilityFacts & { caseArchived: boolean; modifiedAt: Date }) | undefined> {
  // One round trip: the row and, as sub-selects, its members, planners and owner's instructor.
  const query = db
    .select({
      ownerId: cases.ownerId,
      caseStatus: cases.caseStatus,
      caseArchived: cases.caseArchived,
      hasPrintable: cases.hasPrintable,
      modifiedAt: cases.modifiedAt,
      // Raw names with aliases: drizzle leaves columns unqualified inside a select list.
      memberIds: sql<
        number[]
      >`array(select cu.user_id from case_users cu where cu.case_id = "cases"."id")`,
      plannerIds: sql<
        number[]
      >`array(select distinct cs.planner_id from case_services cs where cs.case_id = "cases"."id" and cs.planner_id is not null)`,
      ownerInstructorId: sql<
        number | null
      >`(select (u.data_capabilities ->> 'instructorId')::int from users u where u.id = "cases"."owner_id")`,
    })
    .from(cases)
    .where(eq(cases.id, caseId))
    .limit(1);
  // The row lock serializes every change of one case (moves, saves): the second waits, then
  // reads the first one's result and is refused if its premise no longer holds.
  const [row] = options.lock ? await query.for('update', { of: cases }) : await query;
  if (!row) return undefined;
  return {
    ...row,
    memberIds: (row.memberIds ?? []).map(Number),
    plannerIds: (row.plannerIds ?? []).map(Number),
    ownerInstructorId: row.ownerInstructorId === null ? null : Number(row.ownerInstructorId),
  };
}

// ───────────────────────────── lists ─────────────────────────────

export interface CaseListQuery {
  filter: CaseListFilter;
  page: number;
  pageSize: number;
  /** Folded search text (patient name, contains) or a case id when numeric. */
  q?: string | undefined;
  language: Language;
}

export interface CasePreviewRow {
  id: number;
  fname: string;
  lname: string;
  caseStatus: string;
  caseArchived: boolean;
  caseCurrency: string;
  ownerId: number;
  ownerName: string;
  createdAt: Date;
  deadlineAt: Date | null;
  modifiedAt: Date;
  caseReview: boolean;
  services: { id: number; productName: string; category: number }[];
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function searchCondition(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const byName = sql`${cases.searchText} like ${`%${escapeLike(q)}%`}`;
  if (/^\d{1,9}$/.test(q)) return sql`(${byName} or ${cases.id} = ${Number(q)})`;
  return byName;
}

/** The list filter: 'checkingout' is its own status inside the broad 'new' group. */
const filterCondition = (filter: CaseListFilter): SQL =>
  filter === 'checkingout'
    ? and(eq(cases.caseStatus, 'checkingout'), eq(cases.caseArchived, false))!
    : and(eq(cases.listGroup, filter), eq(cases.caseArchived, false))!;

/**
 * THE case list query (`GET /case/list/{filter}/{page}`; the benchmark mirrors it): the viewer's
 * visible, non-archived cases of one list filter, optionally searched, newest `modifiedAt` first
 * (ties by id), one page, plus the total. Services of the page come in one second query.
 */
export async function listCasePage(
  db: DbOrTx,
  viewer: CaseViewer,
  query: CaseListQuery,
): Promise<{ rows: CasePreviewRow[]; total: number }> {
  const where = and(
    filterCondition(query.filter),
    caseVisibleToSql(viewer),
    searchCondition(query.q),
  );
  const [pageRows, [count]] = await Promise.all([
    db
      .select({
        id: cases.id,
        fname: patients.fname,
        lname: patients.lname,
        caseStatus: cases.caseStatus,
        caseArchived: cases.caseArchived,
        caseCurrency: cases.caseCurrency,
        ownerId: cases.ownerId,
        ownerName: users.displayName,
        createdAt: cases.createdAt,
        deadlineAt: cases.deadlineAt,
        modifiedAt: cases.modifiedAt,
        caseReview: cases.caseReview,
      })
      .from(cases)
      .innerJoin(patients, eq(patients.id, cases.patientId))
      .innerJoin(users, eq(users.id, cases.ownerId))
      .where(where)
      .orderBy(desc(cases.modifiedAt), desc(cases.id))
      .limit(query.pageSize)
      .offset(query.page * query.pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(cases)
      .where(where),
  ]);
  return {
    rows: await withPreviewServices(db, pageRows, query.language),
    total: count?.total ?? 0,
  };
}

async function withPreviewServices(
  db: DbOrTx,
  rows: Omit<CasePreviewRow, 'services'>[],
  language: Language,
): Promise<CasePreviewRow[]> {
  if (rows.length === 0) return [];
  const services = await db
    .select({
      caseId: caseServices.caseId,
      id: caseServices.id,
      productName: productNameSql(language),
      category: caseServices.productCategoryId,
    })
    .from(caseServices)
    .innerJoin(products, eq(products.id, caseServices.productId))
    .where(
      inArray(
        caseServices.caseId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(caseServices.id));
  return rows.map((row) => ({
    ...row,
    services: services
      .filter((s) => s.caseId === row.id)
      .map(({ id, productName, category }) => ({ id, productName, category })),
  }));
}

/**
 * The number of visible, non-archived cases per list filter (the sidebar's counts): one grouped
 * count by list group, plus checkingout (a status inside the broad 'new' group).
 */
export async function countCasesByFilter(
  db: DbOrTx,
  viewer: CaseViewer,
): Promise<Record<CaseListFilter, number>> {
  const visible = caseVisibleToSql(viewer);
  const [groups, [checkingout]] = await Promise.all([
    db
      .select({ group: cases.listGroup, count: sql<number>`count(*)::int` })
      .from(cases)
      .where(and(sql`${cases.listGroup} is not null`, eq(cases.caseArchived, false), visible))
      .groupBy(cases.listGroup),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(cases)
      .where(and(eq(cases.caseStatus, 'checkingout'), eq(cases.caseArchived, false), visible)),
  ]);
  const counts = {
    new: 0,
    checkingout: 0,
    execute: 0,
    approve: 0,
    finishing: 0,
    print: 0,
    finished: 0,
  };
  for (const { group, count } of groups) {
    if (group !== null && group in counts) counts[group as CaseListFilter] = count;
  }
  counts.checkingout = checkingout?.count ?? 0;
  return counts;
}

export interface ArchiveQuery {
  page: number;
  pageSize: number;
  patient?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  category?: number | undefined;
  product?: number | undefined;
  currency?: string | undefined;
  language: Language;
}

/** Spec §2 archive search: the viewer's archived cases, newest first. */
export async function searchArchivedCases(
  db: DbOrTx,
  viewer: CaseViewer,
  query: ArchiveQuery,
): Promise<{ rows: CasePreviewRow[]; total: number }> {
  const serviceMatch = (condition: SQL) =>
    sql`exists (select 1 from ${caseServices} where ${caseServices.caseId} = ${cases.id} and ${condition})`;
  const where = and(
    sql`(${cases.caseArchived} or ${cases.caseStatus} = 'archive')`,
    caseVisibleToSql(viewer),
    query.patient ? sql`${cases.searchText} like ${`%${escapeLike(query.patient)}%`}` : undefined,
    query.from ? sql`${cases.createdAt} >= ${query.from}::date` : undefined,
    query.to ? sql`${cases.createdAt} < (${query.to}::date + 1)` : undefined,
    query.currency ? eq(cases.caseCurrency, query.currency) : undefined,
    query.category
      ? serviceMatch(sql`${caseServices.productCategoryId} = ${query.category}`)
      : undefined,
    query.product ? serviceMatch(sql`${caseServices.productId} = ${query.product}`) : undefined,
  );
  const [pageRows, [count]] = await Promise.all([
    db
      .select({
        id: cases.id,
        fname: patients.fname,
        lname: patients.lname,
        caseStatus: cases.caseStatus,
        caseArchived: cases.caseArchived,
        caseCurrency: cases.caseCurrency,
        ownerId: cases.ownerId,
        ownerName: users.displayName,
        createdAt: cases.createdAt,
        deadlineAt: cases.deadlineAt,
        modifiedAt: cases.modifiedAt,
        caseReview: cases.caseReview,
      })
      .from(cases)
      .innerJoin(patients, eq(patients.id, cases.patientId))
      .innerJoin(users, eq(users.id, cases.ownerId))
      .where(where)
      .orderBy(desc(cases.modifiedAt), desc(cases.id))
      .limit(query.pageSize)
      .offset(query.page * query.pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(cases)
      .where(where),
  ]);
  return {
    rows: await withPreviewServices(db, pageRows, query.language),
    total: count?.total ?? 0,
  };
}

// ───────────────────────────── one case ─────────────────────────────

export async function findCase(db: DbOrTx, caseId: number): Promise<CaseRow | undefined> {
  const [row] = await db.select().from(cases).where(eq(cases.id, caseId)).limit(1);
  return row;
}

export async function findPatient(db: DbOrTx, id: number): Promise<PatientRow | undefined> {
  const [row] = await db.select().from(patients).where(eq(patients.id, id)).limit(1);
  return row;
}

export async function findUserRef(
  db: DbOrTx,
  id: number,
): Promise<{ id: number; displayName: string } | undefined> {
  const [row] = await db
    .select({ id: users.id, displayName: users.displayName })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row;
}

export async function findUsersByIds(db: DbOrTx, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, displayName: users.displayName, roles: users.roles })
    .from(users)
    .where(inArray(users.id, [...ids]));
}

export async function findUserForCase(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      id: users.id,
      displayName: users.displayName,
      roles: users.roles,
      passwordHash: users.passwordHash,
      dataInfo: users.dataInfo,
      verifiedAt: users.verifiedAt,
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row;
}

export interface CaseServiceWithProduct extends CaseServiceRow {
  productName: string;
  productKind: number;
  qtdOption: number;
  qtdMax: number;
  manufactureTime: number;
}

export async function listCaseServices(
  db: DbOrTx,
  caseId: number,
  language: Language,
): Promise<CaseServiceWithProduct[]> {
  const rows = await db
    .select({
      service: caseServices,
      productName: productNameSql(language),
      productKind: products.productKind,
      qtdOption: products.qtdOption,
      qtdMax: products.qtdMax,
      manufactureTime: products.manufactureTime,
    })
    .from(caseServices)
    .innerJoin(products, eq(products.id, caseServices.productId))
    .where(eq(caseServices.caseId, caseId))
    .orderBy(asc(caseServices.id));
  return rows.map(({ service, ...product }) => ({ ...service, ...product }));
}

export async function listCaseMembers(db: DbOrTx, caseId: number) {
  return db
    .select({
      userId: caseUsers.userId,
      displayName: users.displayName,
      roles: users.roles,
      triggerNotification: caseUsers.triggerNotification,
    })
    .from(caseUsers)
    .innerJoin(users, eq(users.id, caseUsers.userId))
    .where(eq(caseUsers.caseId, caseId))
    .orderBy(asc(caseUsers.id));
}

export async function listCaseReviews(db: DbOrTx, caseId: number): Promise<CaseReviewRow[]> {
  return db
    .select()
    .from(caseReviews)
    .where(eq(caseReviews.caseId, caseId))
    .orderBy(asc(caseReviews.id));
}

export async function listCaseEvents(db: DbOrTx, caseId: number): Promise<CaseEventRow[]> {
  return db
    .select()
    .from(caseEvents)
    .where(eq(caseEvents.caseId, caseId))
    .orderBy(asc(caseEvents.at), asc(caseEvents.id));
}

/**
 * The attachments case check (THE meeting point with the files feature): at least one file of
 * the case that is not deleted, is public and was uploaded by the client side (the owner).
 */
export async function hasPublicClientAttachment(
  db: DbOrTx,
  caseId: number,
  ownerId: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: attachments.id })
    .from(attachments)
    .where(
      and(
        eq(attachments.caseId, caseId),
        eq(attachments.userId, ownerId),
        eq(attachments.status, 'public'),
        isNull(attachments.deletedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}

// ───────────────────────────── writes ─────────────────────────────

export async function insertPatient(
  db: DbOrTx,
  values: typeof patients.$inferInsert,
): Promise<PatientRow> {
  const [row] = await db.insert(patients).values(values).returning();
  return row!;
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

export async function insertCaseEvent(
  db: DbOrTx,
  values: typeof caseEvents.$inferInsert,
): Promise<CaseEventRow> {
  const [row] = await db.insert(caseEvents).values(values).returning();
  return row!;
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

/** The case's printable flag, recomputed from its services. */
export async function caseHasPrintableService(db: DbOrTx, caseId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: caseServices.id })
    .from(caseServices)
    .where(and(eq(caseServices.caseId, caseId), eq(caseServices.printableProduct, true)))
    .limit(1);
  return row !== undefined;
}

export async function upsertCaseUser(
  db: DbOrTx,
  values: { caseId: number; userId: number; triggerNotification: boolean },
): Promise<void> {
  await db
    .insert(caseUsers)
    .values(values)
    .onConflictDoUpdate({
      target: [caseUsers.caseId, caseUsers.userId],
      set: { triggerNotification: values.triggerNotification },
    });
}

/** Adds a case user unless present (keeps an existing notification choice). */
export async function ensureCaseUser(db: DbOrTx, caseId: number, userId: number): Promise<void> {
  await db
    .insert(caseUsers)
    .values({ caseId, userId, triggerNotification: true })
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
