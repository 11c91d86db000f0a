import { createHash } from 'node:crypto';
import {
  and,
  asc,
  desc,
  eq,
  inArray,
  isNull,
  or,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  CASE_LIST_FILTERS,
  MEMBERSHIP_ROLES,
  PRINTER_VISIBLE_STATUSES,
  isCaseStaff,
  isInstructor,
  isPlanner,
  isPrinter,
  type CaseListFilter,
  type CaseMembership,
  type CaseViewer,
  type CaseVisibilityFacts,
  type DeliveryOrder,
  type Language,
  type AttachmentSlot,
  type ServiceWithoutOrder,
  type ServiceManufactureFacts,
  type MembershipRole,
} from '@dentflow/domain';
import type { Db, DbOrTx } from '../../db/client';
import {
  caseEvents,
  caseListCounts,
  caseReviews,
  caseServices,
  caseUsers,
  caseViewers,
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

/** A product's name in a language, falling back to English (SQL). */
const productNameSql = (language: Language) =>
  sql<string>`coalesce(nullif(${products.texts} -> ${language} ->> 'name', ''), ${products.texts} -> 'en' ->> 'name', '')`;

// ───────────────────────────── visibility ─────────────────────────────

/** A case printers see: a printable service, in finishing, print or finished (the printer's branch). */
const printableForPrintersSql = sql`(${cases.hasPrintable} and ${cases.caseStatus} in (${sql.join(
  PRINTER_VISIBLE_STATUSES.map((status) => sql`${status}`),
  sql`, `,
)}))`;

/** The case's owner is a student of this instructor (the instructor's branch of visibility). */
const ownedByStudentOf = (instructorId: number | Placeholder) =>
  sql`${cases.ownerId} in (select u2.id from users u2 where (u2.data_capabilities ->> 'instructorId')::int = ${instructorId})`;

/** The instructor of the case's owner, in a select from `cases` (a visibility fact). */
const ownerInstructorIdSql = sql<
  number | null
>`(select (u.data_capabilities ->> 'instructorId')::int from users u where u.id = "cases"."owner_id")`;

/**
 * The SQL twin of the domain's `caseRelation(...) !== null` for one viewer: staff see every case;
 * the others the cases they own, plan (a service's planner, with the planner role), are a case
 * user of (while they hold the role of their membership: the viewer's roles are known, so the
 * condition is on `via_role` alone), print (printer role, a printable service, in
 * finishing/print/finished) or instruct (instructor role, the owner's instructor).
 * Written as `owner = me OR id IN (…) OR …`: PostgreSQL evaluates each `IN` once as a hashed
 * sub-plan, so a list still walks its index in `modifiedAt` order and stops at the page.
 */
export function caseVisibleToSql(viewer: CaseViewer): SQL | undefined {
  if (isCaseStaff(viewer)) return undefined;
  const me = viewer.userId;
  const held = MEMBERSHIP_ROLES.filter((role) => viewer.roles.includes(role));
  const membershipHolds =
    held.length === 0
      ? sql`cu.via_role is null`
      : sql`(cu.via_role is null or cu.via_role in (${sql.join(
          held.map((role) => sql`${role}`),
          sql`, `,
        )}))`;
  const branches: SQL[] = [
    sql`${cases.ownerId} = ${me}`,
    sql`${cases.id} in (select cu.case_id from case_users cu where cu.user_id = ${me} and ${membershipHolds})`,
  ];
  if (isPlanner(viewer.roles)) {
    branches.push(
      sql`${cases.id} in (select cs.case_id from case_services cs where cs.planner_id = ${me})`,
    );
  }
  if (isPrinter(viewer.roles)) {
    branches.push(printableForPrintersSql);
  }
  if (isInstructor(viewer.roles)) {
    branches.push(ownedByStudentOf(me));
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
      members: sql<
        CaseMembership[] | null
      >`(select json_agg(json_build_object('userId', cu.user_id, 'viaRole', cu.via_role)) from case_users cu where cu.case_id = "cases"."id")`,
      plannerIds: sql<
        number[]
      >`array(select distinct cs.planner_id from case_services cs where cs.case_id = "cases"."id" and cs.planner_id is not null)`,
      ownerInstructorId: ownerInstructorIdSql,
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
    members: row.members ?? [],
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
  unseen: number;
  services: { id: number; productName: string; category: number }[];
  /** The recorded dispatch's kind, or null. */
  dispatch: string | null;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The list statement's values as placeholders: its text then depends only on its shape (the
 * viewer's role branches, the filter, searched or not), so drizzle builds each shape once and,
 * where the plan does not depend on the pattern, each pooled connection plans it once
 * (`planDependsOnPattern`, docs/performance.md).
 */
const listParam = {
  userId: sql.placeholder('userId'),
  limit: sql.placeholder('limit'),
  offset: sql.placeholder('offset'),
  /** offset + limit: where each branch of a union is cut. */
  cut: sql.placeholder('cut'),
  pattern: sql.placeholder('pattern'),
  caseId: sql.placeholder('caseId'),
  language: sql`${sql.placeholder('language')}::text`,
};

/** A search by name (contains), or by name or case id when the text is a number. */
type SearchKind = 'name' | 'nameOrId' | undefined;
const searchKindOf = (q: string | undefined): SearchKind =>
  !q ? undefined : /^\d{1,9}$/.test(q) ? 'nameOrId' : 'name';

function searchCondition(
  kind: SearchKind,
  columns: { searchText: AnyPgColumn; id: AnyPgColumn } = {
    searchText: cases.searchText,
    id: cases.id,
  },
): SQL | undefined {
  if (!kind) return undefined;
  const byName = sql`${columns.searchText} like ${listParam.pattern}`;
  return kind === 'nameOrId' ? sql`(${byName} or ${columns.id} = ${listParam.caseId})` : byName;
}

/** The list filter: 'checkingout' is its own status inside the broad 'new' group. */
const filterCondition = (filter: CaseListFilter): SQL =>
  filter === 'checkingout'
    ? and(eq(cases.caseStatus, 'checkingout'), eq(cases.caseArchived, false))!
    : and(eq(cases.listGroup, filter), eq(cases.caseArchived, false))!;

/** The same filter on the viewer's `case_viewers` rows (they copy the case's list columns). */
const viewerFilterCondition = (filter: CaseListFilter): SQL =>
  filter === 'checkingout'
    ? and(eq(caseViewers.caseStatus, 'checkingout'), eq(caseViewers.caseArchived, false))!
    : and(eq(caseViewers.listGroup, filter), eq(caseViewers.caseArchived, false))!;

/** The shape of a list statement: everything its text depends on. */
interface ListShape {
  staff: boolean;
  printer: boolean;
  instructor: boolean;
  filter: CaseListFilter;
  search: SearchKind;
}

/**
 * The viewer's visible cases of one filter as `(id, modified_at)` sub-selects, one per relation,
 * for a non-staff viewer (`caseRelation` in SQL): their `case_viewers` range (owner, member,
 * planner; kept by triggers) plus, for those roles, the printer and instructor branches on
 * `cases`. Each branch walks an index in `modifiedAt` order, so with a LIMIT it stops early.
 */
function visibleBranches(shape: ListShape): { viewerRows: SQL; extra: SQL[] } {
  const search = searchCondition(shape.search);
  // The search reads the copied search_text in the index itself: no join, no heap.
  const viewerRows = sql`select ${caseViewers.caseId} as id, ${caseViewers.modifiedAt} as modified_at
            from ${caseViewers}
           where ${and(
             eq(caseViewers.userId, listParam.userId),
             viewerFilterCondition(shape.filter),
             searchCondition(shape.search, {
               searchText: caseViewers.searchText,
               id: caseViewers.caseId,
             }),
           )}`;
  const extra: SQL[] = [];
  const onCases = (condition: SQL) =>
    sql`select ${cases.id} as id, ${cases.modifiedAt} as modified_at from ${cases}
         where ${condition} and ${and(filterCondition(shape.filter), search)}`;
  if (shape.printer) {
    extra.push(onCases(printableForPrintersSql));
  }
  if (shape.instructor) {
    extra.push(onCases(ownedByStudentOf(listParam.userId)));
  }
  return { viewerRows, extra };
}

const newestFirst = sql`order by modified_at desc, id desc`;

/**
 * The ids of one list page, newest `modifiedAt` first (ties by id), and the SQL of the total.
 * Staff read `cases_list_idx`/`cases_status_idx` (index-only without a search); the others
 * their `case_viewers_*_idx` range, plus the printer/instructor branches (each cut at
 * offset + limit rows before the union, which is all a page can need).
 */
function pageIdsAndTotal(shape: ListShape): { pageIds: SQL; total: SQL } {
  const { limit, offset } = listParam;
  if (shape.staff) {
    const search = searchCondition(shape.search);
    const where = and(filterCondition(shape.filter), search);
    return {
      pageIds: sql`select ${cases.id} from ${cases} where ${where}
                   order by ${cases.modifiedAt} desc, ${cases.id} desc limit ${limit} offset ${offset}`,
      // Without a search, the filter's total is the sum of its few counter rows.
      total: search
        ? sql`select count(*)::int as total from ${cases} where ${where}`
        : sql`select coalesce(sum(${caseListCounts.n}), 0)::int as total from ${caseListCounts}
               where ${
                 shape.filter === 'checkingout'
                   ? eq(caseListCounts.caseStatus, 'checkingout')
                   : eq(caseListCounts.listGroup, shape.filter)
               }`,
    };
  }
  const { viewerRows, extra } = visibleBranches(shape);
  if (extra.length === 0) {
    return {
      pageIds: sql`select id from (${viewerRows}) v ${newestFirst} limit ${limit} offset ${offset}`,
      total: sql`select count(*)::int as total from (${viewerRows}) v`,
    };
  }
  const cut = (branch: SQL) =>
    sql`(select * from (${branch}) b ${newestFirst} limit ${listParam.cut})`;
  return {
    pageIds: sql`select id from (${sql.join([viewerRows, ...extra].map(cut), sql` union `)}) v
                 ${newestFirst} limit ${limit} offset ${offset}`,
    total: sql`select count(*)::int as total from (${sql.join(
      [viewerRows, ...extra].map((branch) => sql`(${branch})`),
      sql` union `,
    )}) v`,
  };
}

/** The page's services as a JSON array, inside the page query (no second round trip). */
export const previewServicesSql = (language: Language | SQL) =>
  sql<CasePreviewRow['services'] | null>`(select json_agg(json_build_object(
      'id', s.id,
      'productName', coalesce(nullif(pr.texts -> ${language} ->> 'name', ''), pr.texts -> 'en' ->> 'name', ''),
      'category', s.product_category_id) order by s.id)
    from case_services s join products pr on pr.id = s.product_id
   where s.case_id = "cases"."id")`;

/** The viewer's unseen notifications of the case (the list's badge; index user, case). */
const previewUnseenSql = (userId: number | Placeholder) =>
  sql<number>`(select count(*)::int from notifications n
   where n.user_id = ${userId} and n.case_id = "cases"."id" and n.viewed_at is null)`;

/** The columns of a case preview (list and archive), from cases joined to patient and owner. */
const previewColumns = (language: Language | SQL, userId: number | Placeholder) => ({
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
  services: previewServicesSql(language),
  unseen: previewUnseenSql(userId),
  dispatch: sql<string | null>`${cases.dispatch} ->> 'kind'`,
});

/**
 * Whether the best plan depends on the searched pattern: a search of `cases.search_text` (staff,
 * and the printer and instructor branches) uses the trigram index for a rare name but the
 * ordered list index for a common one. Measured with a generic plan: 17–52 ms for a name no case
 * has, against 0.2–0.9 ms planned for it. Such statements are planned at every call; the others
 * (unsearched, or searching only the viewer's `case_viewers` range) are named, so each pooled
 * connection plans them once (doctor search p95 52 → 29 ms at 10 in flight).
 */
const planDependsOnPattern = (shape: ListShape) =>
  shape.search !== undefined && (shape.staff || shape.printer || shape.instructor);

/** The values of the list's placeholders (`listParam`), for one call. */
type ListValues = {
  userId: number;
  limit: number;
  offset: number;
  cut: number;
  pattern: string | null;
  caseId: number | null;
  language: Language;
};
type ListRun = (values: ListValues) => Promise<{ rows: CasePreviewRow[]; total: number }>;

/** Rows as read → previews: the total column dropped, no services (JSON null) as none. */
const toPreviewRows = (
  rows: (Omit<CasePreviewRow, 'services'> & {
    services: CasePreviewRow['services'] | null;
    total: number;
  })[],
): CasePreviewRow[] =>
  rows.map(({ services, total: _total, ...row }) => ({ ...row, services: services ?? [] }));

/**
 * One list shape as prepared statements, run with the call's values.
 * - Named shapes: one statement, the page's rows with the total as an uncorrelated scalar
 *   sub-select (PostgreSQL evaluates it once); only an empty page past the first asks for the
 *   total on its own.
 * - Pattern-dependent shapes: first the page's ids and the total, a small statement planned for
 *   the pattern; then the rows of those ids, named. Planning the whole statement at every call
 *   cost more than the extra round trip.
 */
function prepareListRun(db: DbOrTx, shape: ListShape): ListRun {
  const { pageIds, total } = pageIdsAndTotal(shape);
  const rowsOf = (where: SQL, name: string, withTotal: boolean) =>
    db
      .select({
        ...previewColumns(listParam.language, listParam.userId),
        total: withTotal ? sql<number>`(${total})` : sql<number>`0`,
      })
      .from(cases)
      .innerJoin(patients, eq(patients.id, cases.patientId))
      .innerJoin(users, eq(users.id, cases.ownerId))
      .where(where)
      .orderBy(desc(cases.modifiedAt), desc(cases.id))
      .prepare(name);
  const totalOnly = () =>
    db
      .select({ total: sql<number>`total`, ids: sql<number[]>`ids` })
      .from(sql`(select (${total}) as total, array(${pageIds}) as ids) page`)
      .prepare(''); // node-postgres' unnamed statement: planned at each call, for its pattern

  if (planDependsOnPattern(shape)) {
    const pageAndTotal = totalOnly();
    const rows = rowsOf(
      sql`${cases.id} = any(${sql.placeholder('ids')}::int[])`,
      'case_list_rows',
      false,
    );
    return async (values) => {
      const [page] = await pageAndTotal.execute(values);
      const ids = (page?.ids ?? []).map(Number);
      const found = ids.length === 0 ? [] : await rows.execute({ ...values, ids });
      return {
        rows: toPreviewRows(found),
        total: Number(page?.total ?? 0),
      };
    };
  }
  const name = `case_list_${createHash('sha1').update(JSON.stringify(shape)).digest('hex').slice(0, 16)}`;
  // `= any(array(…))`, not `in (…)`: planned generically (named statements are, after five
  // calls), `in` guessed hundreds of page rows and read all 100,000 cases in a hash join
  // (5–12 ms); the array is estimated small, so the rows are read by primary key (0.5 ms).
  const statement = rowsOf(sql`${cases.id} = any(array(${pageIds}))`, name, true);
  return async (values) => {
    const found = await statement.execute(values);
    let count = found[0]?.total;
    if (count === undefined && values.offset > 0) {
      const [page] = await totalOnly().execute(values);
      count = page?.total;
    }
    return {
      rows: toPreviewRows(found),
      total: Number(count ?? 0),
    };
  };
}

const listRuns = new WeakMap<DbOrTx, Map<string, ListRun>>();

/**
 * THE case list query (`GET /case/list/{filter}/{page}`; the benchmark mirrors it): the viewer's
 * visible, non-archived cases of one list filter, optionally searched, newest `modifiedAt` first
 * (ties by id), one page, plus the total. The page's ids come first from an index (OFFSET over
 * ids only), then only those rows are joined to patient, owner and services.
 */
export async function listCasePage(
  db: DbOrTx,
  viewer: CaseViewer,
  query: CaseListQuery,
): Promise<{ rows: CasePreviewRow[]; total: number }> {
  const shape: ListShape = {
    staff: isCaseStaff(viewer),
    printer: isPrinter(viewer.roles),
    instructor: isInstructor(viewer.roles),
    filter: query.filter,
    search: searchKindOf(query.q),
  };
  const key = JSON.stringify(shape);
  let runs = listRuns.get(db);
  if (!runs) listRuns.set(db, (runs = new Map()));
  let run = runs.get(key);
  if (!run) runs.set(key, (run = prepareListRun(db, shape)));
  const offset = query.page * query.pageSize;
  return run({
    userId: viewer.userId,
    limit: query.pageSize,
    offset,
    cut: offset + query.pageSize,
    pattern: query.q ? `%${escapeLike(query.q)}%` : null,
    caseId: shape.search === 'nameOrId' ? Number(query.q) : null,
    language: query.language,
  });
}

/**
 * The number of visible, non-archived cases per list filter (the sidebar's counts), in one
 * grouped count: by list group, with checkingout (a status inside the broad 'new' group)
 * counted alongside. Non-staff count their `case_viewers` range index-only (plus the printer and
 * instructor branches).
 */
export async function countCasesByFilter(
  db: DbOrTx,
  viewer: CaseViewer,
): Promise<Record<CaseListFilter, number>> {
  const grouped = (rows: SQL) =>
    db
      .select({
        group: sql<string | null>`list_group`,
        count: sql<number>`sum(n)::int`,
        checkingout: sql<number>`coalesce(sum(n) filter (where case_status = 'checkingout'), 0)::int`,
      })
      .from(sql`(${rows}) v`)
      .groupBy(sql`list_group`);
  const listed = and(sql`${cases.listGroup} is not null`, eq(cases.caseArchived, false));
  const onCases = (condition: SQL) =>
    sql`select ${cases.id} as id, ${cases.listGroup} as list_group, ${cases.caseStatus} as case_status, 1 as n
          from ${cases} where ${and(listed, condition)}`;
  let rows: SQL;
  if (isCaseStaff(viewer)) {
    // Staff see every case: the counter rows kept by the triggers, not a count of every case.
    rows = sql`select ${caseListCounts.listGroup} as list_group, ${caseListCounts.caseStatus} as case_status, ${caseListCounts.n} as n
                 from ${caseListCounts}`;
  } else {
    const branches = [
      sql`select ${caseViewers.caseId} as id, ${caseViewers.listGroup} as list_group, ${caseViewers.caseStatus} as case_status, 1 as n
            from ${caseViewers}
           where ${caseViewers.userId} = ${viewer.userId} and ${caseViewers.listGroup} is not null
             and ${caseViewers.caseArchived} = false`,
    ];
    if (isPrinter(viewer.roles)) {
      branches.push(onCases(printableForPrintersSql));
    }
    if (isInstructor(viewer.roles)) {
      branches.push(onCases(ownedByStudentOf(viewer.userId)));
    }
    rows =
      branches.length === 1
        ? branches[0]!
        : sql.join(
            branches.map((branch) => sql`(${branch})`),
            sql` union `,
          );
  }
  const counts = Object.fromEntries(CASE_LIST_FILTERS.map((filter) => [filter, 0])) as Record<
    CaseListFilter,
    number
  >;
  for (const { group, count, checkingout } of await grouped(rows)) {
    if (group !== null && group in counts) counts[group as CaseListFilter] = count;
    counts.checkingout += checkingout;
  }
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
  /** One of the statuses an archived case can have. */
  status?: string | undefined;
  language: Language;
}

/** Archive search: the viewer's archived cases, newest first. */
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
    query.status ? eq(cases.caseStatus, query.status) : undefined,
    query.category
      ? serviceMatch(sql`${caseServices.productCategoryId} = ${query.category}`)
      : undefined,
    query.product ? serviceMatch(sql`${caseServices.productId} = ${query.product}`) : undefined,
  );
  const [pageRows, [count]] = await Promise.all([
    db
      .select({
        ...previewColumns(query.language, viewer.userId),
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
    rows: pageRows.map(({ services, ...row }) => ({ ...row, services: services ?? [] })),
    total: count?.total ?? 0,
  };
}

// ───────────────────────────── one case ─────────────────────────────

export async function findCase(db: DbOrTx, caseId: number): Promise<CaseRow | undefined> {
  const [row] = await db.select().from(cases).where(eq(cases.id, caseId)).limit(1);
  return row;
}

/**
 * The attachments case check (THE meeting point with the files feature), in a select from
 * `cases`: a file of the case that is not deleted, is public and was uploaded by the client side
 * (the owner).
 */
const clientFileExistsSql = sql<boolean>`exists (
  select 1 from attachments a
   where a.case_id = "cases"."id" and a.user_id = "cases"."owner_id"
     and a.status = 'public' and a.deleted_at is null)`;

/** The slot (bucket and kind) of a file: what the required-slots check compares. */
export interface FileSlot {
  bucketName: AttachmentSlot['bucketName'];
  attachmentType: string;
}

/** The slots of the case's public, non-deleted files (the required-slots check). */
const publicFileSlotsSql = sql<FileSlot[]>`coalesce((
  select json_agg(json_build_object('bucketName', a.bucket_name,
                                    'attachmentType', a.attachment_type))
    from attachments a
   where a.case_id = "cases"."id" and a.status = 'public' and a.deleted_at is null), '[]'::json)`;

/** A service as the case read returns it: the row's fields the case view shows, with its product. */
export interface CaseDetailService {
  id: number;
  productId: number;
  serviceId: number | null;
  productCategoryId: number;
  productName: string;
  productKind: number;
  qtdOption: number;
  qtdMax: number;
  manufactureTime: number;
  quantity: number;
  printableProduct: boolean;
  planner: { id: number; displayName: string } | null;
  approveRequestAt: Date | null;
  approveAt: Date | null;
  paidAt: Date | null;
  dataVersion: number;
  data: unknown;
  transactionStatus: string | null;
  paymentDeferredAt: Date | null;
  /** The product's options and the checkout's choice: what `serviceManufacture` reads. */
  production: Pick<
    ServiceManufactureFacts,
    'enableKit' | 'enableSleeve' | 'manufactureData' | 'sleeveManufacturerName'
  >;
}

/** Everything the case view shows about one case, and the facts `caseRelation` needs. */
export interface CaseDetailRow {
  row: CaseRow;
  owner: { id: number; displayName: string };
  facts: CaseVisibilityFacts;
  patient: Pick<PatientRow, 'fname' | 'lname' | 'birthDate' | 'gender' | 'note'> | null;
  services: CaseDetailService[];
  members: { userId: number; displayName: string; roles: string[]; triggerNotification: boolean }[];
  reviews: {
    id: number;
    reasonId: number | null;
    description: string;
    createdAt: Date;
    createdBy: { id: number; displayName: string } | null;
    solvedAt: Date | null;
    solvedBy: { id: number; displayName: string } | null;
  }[];
  hasClientAttachment: boolean;
  publicFiles: FileSlot[];
  transactionStatuses: string[];
  /** The order that chose the delivery (`deliveryOrderSql`), or null. */
  deliveryOrder: DeliveryOrder | null;
  /** Who recorded the dispatch. */
  dispatchRecordedBy: { id: number; displayName: string } | null;
}

/** A row as `json_build_object` returns it: timestamps become ISO strings. */
type Json<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};
const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

/** `{id, displayName}` of a user id column inside the JSON of a sub-select, or JSON null. */
const userRefJson = (column: string) =>
  sql.raw(
    `(select json_build_object('id', ref.id, 'displayName', ref.display_name) from users ref where ref.id = ${column})`,
  );

/**
 * The order that chose the case's delivery, in a select from `cases`: its first transaction with
 * a shipment, a live one (not cancelled or returned) before any other, so a refunded first order
 * still names where the parcel went when nothing else ships.
 */
const deliveryOrderSql = sql<DeliveryOrder | null>`(
  select json_build_object('payerId', t.payer_id, 'paymentMethod', t.payment_method,
                           'currency', t.currency, 'priceShipping', t.price_shipping,
                           'priceTotal', t.price_total, 'shipment', t.shipment)
    from transactions t
   where t.case_id = "cases"."id" and t.shipment is not null
   order by t.payment_status in ('cancelled', 'returned'), t.id
   limit 1)`;

/** The delivery order of one case (the dispatch reads its shipment type). */
export async function findDeliveryOrder(db: DbOrTx, caseId: number): Promise<DeliveryOrder | null> {
  const [row] = await db
    .select({ order: deliveryOrderSql })
    .from(cases)
    .where(eq(cases.id, caseId))
    .limit(1);
  return row?.order ?? null;
}

/**
 * The case read (`case/{id}/get` and the answer of every change) as ONE prepared statement: the
 * row with, as sub-selects, its patient, services with their products and planners, members,
 * reviews, the attachments and transactions checks' inputs and the visibility facts. It replaced
 * eleven statements in four round trips (docs/performance.md). Prepared per database handle:
 * drizzle builds it once and each pooled connection plans it once.
 */
export function prepareCaseDetail(db: Db) {
  const language = sql`${sql.placeholder('language')}::text`;
  const query = db
    .select({
      row: cases,
      ownerName: sql<string>`(select u.display_name from users u where u.id = "cases"."owner_id")`,
      ownerInstructorId: ownerInstructorIdSql,
      patient: sql<Json<NonNullable<CaseDetailRow['patient']>> | null>`(
        select json_build_object('fname', p.fname, 'lname', p.lname, 'birthDate', p.birth_date,
                                 'gender', p.gender, 'note', p.note)
          from patients p where p.id = "cases"."patient_id")`,
      services: sql<Json<CaseDetailService>[]>`coalesce((
        select json_agg(json_build_object(
                 'id', s.id, 'productId', s.product_id, 'serviceId', s.service_id,
                 'productCategoryId', s.product_category_id,
                 'productName', coalesce(nullif(pr.texts -> ${language} ->> 'name', ''),
                                         pr.texts -> 'en' ->> 'name', ''),
                 'productKind', pr.product_kind, 'qtdOption', pr.qtd_option,
                 'qtdMax', pr.qtd_max, 'manufactureTime', pr.manufacture_time,
                 'quantity', s.quantity, 'printableProduct', s.printable_product,
                 'planner', ${userRefJson('s.planner_id')},
                 'approveRequestAt', s.approve_request_at, 'approveAt', s.approve_at,
                 'paidAt', s.paid_at, 'dataVersion', s.data_version, 'data', s.data,
                 'transactionStatus',
                   (select t.payment_status from transactions t where t.id = s.transaction_id),
                 'paymentDeferredAt', s.payment_deferred_at,
                 'production', json_build_object(
                   'enableKit', pr.enable_kit, 'enableSleeve', pr.enable_sleeve,
                   'manufactureData', s.manufacture_data,
                   'sleeveManufacturerName', (
                     select sl.sleeve_manufacture from sleeves sl
                      where sl.id = (s.manufacture_data ->> 'sleevesManufacture')::int)))
               order by s.id)
          from case_services s join products pr on pr.id = s.product_id
         where s.case_id = "cases"."id"), '[]'::json)`,
      members: sql<(CaseDetailRow['members'][number] & CaseMembership)[]>`coalesce((
        select json_agg(json_build_object('userId', cu.user_id, 'displayName', u.display_name,
                                          'roles', u.roles,
                                          'triggerNotification', cu.trigger_notification,
                                          'viaRole', cu.via_role)
               order by cu.id)
          from case_users cu join users u on u.id = cu.user_id
         where cu.case_id = "cases"."id"), '[]'::json)`,
      reviews: sql<Json<CaseDetailRow['reviews'][number]>[]>`coalesce((
        select json_agg(json_build_object('id', r.id, 'reasonId', r.reason_id,
                                          'description', r.description,
                                          'createdAt', r.created_at,
                                          'createdBy', ${userRefJson('r.created_by')},
                                          'solvedAt', r.solved_at,
                                          'solvedBy', ${userRefJson('r.solved_by')})
               order by r.id)
          from case_reviews r where r.case_id = "cases"."id"), '[]'::json)`,
      hasClientAttachment: clientFileExistsSql,
      publicFiles: publicFileSlotsSql,
      transactionStatuses: sql<
        string[]
      >`array(select t.payment_status from transactions t where t.case_id = "cases"."id")`,
      deliveryOrder: deliveryOrderSql,
      dispatchRecordedBy: sql<CaseDetailRow['dispatchRecordedBy']>`${userRefJson(
        `("cases"."dispatch" ->> 'recordedBy')::int`,
      )}`,
    })
    .from(cases)
    .where(eq(cases.id, sql.placeholder('caseId')))
    .limit(1)
    .prepare('case_detail');

  return async (caseId: number, language: Language): Promise<CaseDetailRow | undefined> => {
    const [found] = await query.execute({ caseId, language });
    if (!found) return undefined;
    const services: CaseDetailService[] = found.services.map((s) => ({
      ...s,
      approveRequestAt: dateOrNull(s.approveRequestAt),
      approveAt: dateOrNull(s.approveAt),
      paidAt: dateOrNull(s.paidAt),
      paymentDeferredAt: dateOrNull(s.paymentDeferredAt),
    }));
    const members = found.members.map(({ viaRole: _viaRole, ...member }) => member);
    return {
      row: found.row,
      owner: { id: found.row.ownerId, displayName: found.ownerName ?? '' },
      facts: {
        ownerId: found.row.ownerId,
        caseStatus: found.row.caseStatus,
        hasPrintable: found.row.hasPrintable,
        members: found.members.map(({ userId, viaRole }) => ({ userId, viaRole })),
        plannerIds: [...new Set(services.flatMap((s) => (s.planner ? [s.planner.id] : [])))],
        ownerInstructorId:
          found.ownerInstructorId === null ? null : Number(found.ownerInstructorId),
      },
      patient: found.patient,
      services,
      members,
      reviews: found.reviews.map((r) => ({
        ...r,
        createdAt: new Date(r.createdAt),
        solvedAt: dateOrNull(r.solvedAt),
      })),
      hasClientAttachment: found.hasClientAttachment,
      publicFiles: found.publicFiles,
      transactionStatuses: found.transactionStatuses,
      deliveryOrder: found.deliveryOrder,
      dispatchRecordedBy: found.dispatchRecordedBy,
    };
  };
}

export async function findPatient(db: DbOrTx, id: number): Promise<PatientRow | undefined> {
  const [row] = await db.select().from(patients).where(eq(patients.id, id)).limit(1);
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
  /** The status of the transaction the service belongs to, or null without one. */
  transactionStatus: string | null;
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
      transactionStatus: transactions.paymentStatus,
    })
    .from(caseServices)
    .innerJoin(products, eq(products.id, caseServices.productId))
    .leftJoin(transactions, eq(transactions.id, caseServices.transactionId))
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

export async function listCaseEvents(db: DbOrTx, caseId: number): Promise<CaseEventRow[]> {
  return db
    .select()
    .from(caseEvents)
    .where(eq(caseEvents.caseId, caseId))
    .orderBy(asc(caseEvents.at), asc(caseEvents.id));
}

/** The attachments case check's inputs of one case (see `clientFileExistsSql`). */
export async function findCaseFileFacts(
  db: DbOrTx,
  caseId: number,
): Promise<{ hasClientFile: boolean; publicFiles: FileSlot[] }> {
  const [row] = await db
    .select({ hasClientFile: clientFileExistsSql, publicFiles: publicFileSlotsSql })
    .from(cases)
    .where(eq(cases.id, caseId));
  return { hasClientFile: row?.hasClientFile === true, publicFiles: row?.publicFiles ?? [] };
}

// ───────────────────────────── writes ─────────────────────────────

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

/** The case's printable flag, recomputed from its services. */
export async function caseHasPrintableService(db: DbOrTx, caseId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: caseServices.id })
    .from(caseServices)
    .where(and(eq(caseServices.caseId, caseId), eq(caseServices.printableProduct, true)))
    .limit(1);
  return row !== undefined;
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

/** The payment status of each transaction of a case (the transactions case check). */
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

export async function listCaseTransactionStatuses(db: DbOrTx, caseId: number): Promise<string[]> {
  const rows = await db
    .select({ paymentStatus: transactions.paymentStatus })
    .from(transactions)
    .where(eq(transactions.caseId, caseId));
  return rows.map((row) => row.paymentStatus);
}
