import { createHash } from 'node:crypto';
import { and, desc, eq, isNotNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  CASE_LIST_FILTERS,
  cappedTotal,
  isCaseStaff,
  isInstructor,
  isPrinter,
  type CaseListFilter,
  type CaseViewer,
  type Language,
} from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { escapeLike } from '../../db/like-pattern';
import { prepareSelect } from '../../db/prepared-statement';
import { caseListCounts, caseServices, caseViewers, cases, patients, users } from '../../db/schema';
import {
  ownedByStudentOf,
  printableForPrintersSql,
  caseVisibleToSql,
} from './case-visibility.repository';

/**
 * The case lists: one page of a list filter (prepared per shape), the sidebar's counts and the
 * archive search; `case-visibility.repository.ts` decides which cases each viewer's rows hold.
 */

/** A list filter, or every list at once ('all': a search across statuses). */
export type CaseListScope = CaseListFilter | 'all';

export interface CaseListQuery {
  filter: CaseListScope;
  page: number;
  pageSize: number;
  /** Folded search text (patient name, contains) or a case id when numeric. */
  q?: string | undefined;
  /** A searched list counts at most this many matches (`totalCapped` beyond). */
  totalCap: number;
  language: Language;
}

/** One list page: its rows and the total, capped for a searched list. */
export interface CaseListPage {
  rows: CasePreviewRow[];
  total: number;
  /** True when a search matched more than `totalCap` cases: `total` is then the cap. */
  totalCapped: boolean;
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

/**
 * The list statement's values as placeholders: its text then depends only on its shape (the
 * viewer's role branches, the filter, searched or not), so drizzle builds each shape once and,
 * where nothing makes PostgreSQL plan it again at every call, each pooled connection plans it
 * once (`pageIdsPlannedPerCall`, docs/performance.md).
 */
const listParam = {
  userId: sql.placeholder('userId'),
  limit: sql.placeholder('limit'),
  offset: sql.placeholder('offset'),
  /** offset + limit: where each branch of a union is cut. */
  cut: sql.placeholder('cut'),
  pattern: sql.placeholder('pattern'),
  caseId: sql.placeholder('caseId'),
  /** totalCap + 1: a searched total counts this many matches at most. */
  countLimit: sql.placeholder('countLimit'),
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

/**
 * The list filter: 'checkingout' is its own status inside the broad 'new' group; 'all' is every
 * listed case (any list group), still never an archived one.
 */
const filterCondition = (filter: CaseListScope): SQL =>
  filter === 'all'
    ? and(isNotNull(cases.listGroup), eq(cases.caseArchived, false))!
    : filter === 'checkingout'
      ? and(eq(cases.caseStatus, 'checkingout'), eq(cases.caseArchived, false))!
      : and(eq(cases.listGroup, filter), eq(cases.caseArchived, false))!;

/** The same filter on the viewer's `case_viewers` rows (they copy the case's list columns). */
const viewerFilterCondition = (filter: CaseListScope): SQL =>
  filter === 'all'
    ? and(isNotNull(caseViewers.listGroup), eq(caseViewers.caseArchived, false))!
    : filter === 'checkingout'
      ? and(eq(caseViewers.caseStatus, 'checkingout'), eq(caseViewers.caseArchived, false))!
      : and(eq(caseViewers.listGroup, filter), eq(caseViewers.caseArchived, false))!;

/** The sidebar counter rows of a filter (the unsearched staff total sums them). */
const counterCondition = (filter: CaseListScope): SQL =>
  filter === 'all'
    ? isNotNull(caseListCounts.listGroup)
    : filter === 'checkingout'
      ? eq(caseListCounts.caseStatus, 'checkingout')
      : eq(caseListCounts.listGroup, filter);

/** The shape of a list statement: everything its text depends on. */
interface ListShape {
  staff: boolean;
  printer: boolean;
  instructor: boolean;
  filter: CaseListScope;
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
        ? sql`select count(*)::int as total from (select 1 from ${cases} where ${where}
                limit ${listParam.countLimit}) matches`
        : sql`select coalesce(sum(${caseListCounts.n}), 0)::int as total from ${caseListCounts}
               where ${counterCondition(shape.filter)}`,
    };
  }
  const { viewerRows, extra } = visibleBranches(shape);
  // A searched total stops counting past the cap; an unsearched one is the viewer's own range.
  const countOf = (rows: SQL) =>
    shape.search
      ? sql`select count(*)::int as total from (select 1 from (${rows}) v limit ${listParam.countLimit}) matches`
      : sql`select count(*)::int as total from (${rows}) v`;
  if (extra.length === 0) {
    return {
      pageIds: sql`select id from (${viewerRows}) v ${newestFirst} limit ${limit} offset ${offset}`,
      total: countOf(viewerRows),
    };
  }
  const cut = (branch: SQL) =>
    sql`(select * from (${branch}) b ${newestFirst} limit ${listParam.cut})`;
  return {
    pageIds: sql`select id from (${sql.join([viewerRows, ...extra].map(cut), sql` union `)}) v
                 ${newestFirst} limit ${limit} offset ${offset}`,
    total: countOf(
      sql.join(
        [viewerRows, ...extra].map((branch) => sql`(${branch})`),
        sql` union `,
      ),
    ),
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
 * Whether the page's ids are planned at every call, in a small statement of their own:
 * - When the best plan depends on the searched pattern: a search of `cases.search_text` (staff,
 *   and the printer and instructor branches) uses the trigram index for a rare name but the
 *   ordered list index for a common one. Measured with a generic plan: 17–52 ms for a name no
 *   case has, against 0.2–0.9 ms planned for it.
 * - For staff, who page through every case of a filter: a named statement's generic plan does
 *   not know the page's LIMIT and OFFSET and costs its id scan at a tenth of the filter's cases,
 *   so PostgreSQL kept planning the whole page statement (0.35 ms, more than running it) at
 *   every call once a filter held a few hundred thousand cases, and on a fresh connection until
 *   deep pages happened to raise the average cost of its plans (docs/performance.md).
 * The others (the viewer's own `case_viewers` range, searched or not) are one named statement,
 * so each pooled connection plans them once (doctor search p95 52 → 29 ms at 10 in flight).
 */
const pageIdsPlannedPerCall = (shape: ListShape) =>
  shape.staff || (shape.search !== undefined && (shape.printer || shape.instructor));

/** The values of the list's placeholders (`listParam`), for one call. */
type ListValues = {
  userId: number;
  limit: number;
  offset: number;
  cut: number;
  pattern: string | null;
  caseId: number | null;
  countLimit: number;
  language: Language;
};
type ListRun = (values: ListValues) => Promise<{ rows: CasePreviewRow[]; total: number }>;

/**
 * Rows as read → previews, in place (no copy of every row): no services (JSON null) as none.
 * The total column stays on the rows; the answer is built field by field and never reads it.
 */
function toPreviewRows(
  rows: (Omit<CasePreviewRow, 'services'> & {
    services: CasePreviewRow['services'] | null;
    total: number;
  })[],
): CasePreviewRow[] {
  for (const row of rows) row.services ??= [];
  return rows as CasePreviewRow[];
}

/**
 * One list shape as prepared statements, run with the call's values.
 * - Named shapes: one statement, the page's rows with the total as an uncorrelated scalar
 *   sub-select (PostgreSQL evaluates it once); only an empty page past the first asks for the
 *   total on its own.
 * - Shapes whose page ids are planned per call (`pageIdsPlannedPerCall`): first the page's ids
 *   and the total, a small statement planned for the call's values; then the rows of those ids,
 *   named. Planning the whole statement at every call cost more than the extra round trip.
 */
function prepareListRun(db: DbOrTx, shape: ListShape): ListRun {
  const { pageIds, total } = pageIdsAndTotal(shape);
  const rowsOf = (where: SQL, name: string, withTotal: boolean) =>
    prepareSelect(
      db
        .select({
          ...previewColumns(listParam.language, listParam.userId),
          total: withTotal ? sql<number>`(${total})` : sql<number>`0`,
        })
        .from(cases)
        .innerJoin(patients, eq(patients.id, cases.patientId))
        .innerJoin(users, eq(users.id, cases.ownerId))
        .where(where)
        .orderBy(desc(cases.modifiedAt), desc(cases.id)),
      name,
    );
  // node-postgres' unnamed statement: planned at each call, for its pattern
  const totalOnly = () =>
    prepareSelect(
      db
        .select({ total: sql<number>`total`, ids: sql<number[]>`ids` })
        .from(sql`(select (${total}) as total, array(${pageIds}) as ids) page`),
      '',
    );

  if (pageIdsPlannedPerCall(shape)) {
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
): Promise<CaseListPage> {
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
  const { rows, total } = await run({
    userId: viewer.userId,
    limit: query.pageSize,
    offset,
    cut: offset + query.pageSize,
    pattern: query.q ? `%${escapeLike(query.q)}%` : null,
    caseId: shape.search === 'nameOrId' ? Number(query.q) : null,
    countLimit: query.totalCap + 1,
    language: query.language,
  });
  return shape.search
    ? { rows, ...cappedTotal(total, query.totalCap) }
    : { rows, total, totalCapped: false };
}

type CountRows = { group: string | null; count: number; checkingout: number }[];
const countRuns = new WeakMap<DbOrTx, Map<string, (userId: number) => Promise<CountRows>>>();

/**
 * The counts' statement of one viewer shape (staff, or the non-staff role branches), prepared
 * once and named: building it with drizzle on every call cost about 7 % of the request's CPU.
 */
function prepareCountRun(db: DbOrTx, shape: Omit<ListShape, 'filter' | 'search'>) {
  const userId = listParam.userId;
  const listed = and(sql`${cases.listGroup} is not null`, eq(cases.caseArchived, false));
  const onCases = (condition: SQL) =>
    sql`select ${cases.id} as id, ${cases.listGroup} as list_group, ${cases.caseStatus} as case_status, 1 as n
          from ${cases} where ${and(listed, condition)}`;
  let rows: SQL;
  if (shape.staff) {
    // Staff see every case: the counter rows kept by the triggers, not a count of every case.
    rows = sql`select ${caseListCounts.listGroup} as list_group, ${caseListCounts.caseStatus} as case_status, ${caseListCounts.n} as n
                 from ${caseListCounts}`;
  } else {
    const branches = [
      sql`select ${caseViewers.caseId} as id, ${caseViewers.listGroup} as list_group, ${caseViewers.caseStatus} as case_status, 1 as n
            from ${caseViewers}
           where ${caseViewers.userId} = ${userId} and ${caseViewers.listGroup} is not null
             and ${caseViewers.caseArchived} = false`,
    ];
    if (shape.printer) branches.push(onCases(printableForPrintersSql));
    if (shape.instructor) branches.push(onCases(ownedByStudentOf(userId)));
    rows =
      branches.length === 1
        ? branches[0]!
        : sql.join(
            branches.map((branch) => sql`(${branch})`),
            sql` union `,
          );
  }
  const name = `case_counts_${createHash('sha1').update(JSON.stringify(shape)).digest('hex').slice(0, 16)}`;
  const statement = prepareSelect(
    db
      .select({
        group: sql<string | null>`list_group`,
        count: sql<number>`sum(n)::int`,
        checkingout: sql<number>`coalesce(sum(n) filter (where case_status = 'checkingout'), 0)::int`,
      })
      .from(sql`(${rows}) v`)
      .groupBy(sql`list_group`),
    name,
  );
  return (id: number) => statement.execute({ userId: id });
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
  const shape = {
    staff: isCaseStaff(viewer),
    printer: isPrinter(viewer.roles),
    instructor: isInstructor(viewer.roles),
  };
  const key = JSON.stringify(shape);
  let runs = countRuns.get(db);
  if (!runs) countRuns.set(db, (runs = new Map()));
  let run = runs.get(key);
  if (!run) runs.set(key, (run = prepareCountRun(db, shape)));
  const counts = Object.fromEntries(CASE_LIST_FILTERS.map((filter) => [filter, 0])) as Record<
    CaseListFilter,
    number
  >;
  for (const { group, count, checkingout } of await run(viewer.userId)) {
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
