import { eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import {
  MEMBERSHIP_ROLES,
  PRINTER_VISIBLE_STATUSES,
  isCaseStaff,
  isInstructor,
  isPlanner,
  isPrinter,
  type CaseMembership,
  type CaseViewer,
  type CaseVisibilityFacts,
  type Language,
} from '@dentflow/domain';
import { preparedStatement } from '../../db/prepared-statement';
import type { DbOrTx } from '../../db/client';
import { tableRowFromJson } from '../../db/json-rows';
import { caseServices, cases } from '../../db/schema';
import type { CaseServiceWithProduct } from './case-detail.repository';
import { productNameSql } from './cases.repository';

/**
 * Who sees a case, in SQL: the twin of the domain's `caseRelation` for lists and searches, and the
 * facts `caseRelation` reads for one case (with the row lock every change of a case takes).
 */

/** A case printers see: a printable service, in finishing, print or finished (the printer's branch). */
export const printableForPrintersSql = sql`(${cases.hasPrintable} and ${cases.caseStatus} in (${sql.join(
  PRINTER_VISIBLE_STATUSES.map((status) => sql`${status}`),
  sql`, `,
)}))`;

/** The case's owner is a student of this instructor (the instructor's branch of visibility). */
export const ownedByStudentOf = (instructorId: number | Placeholder) =>
  sql`${cases.ownerId} in (select u2.id from users u2 where (u2.data_capabilities ->> 'instructorId')::int = ${instructorId})`;

/** The instructor of the case's owner, in a select from `cases` (a visibility fact). */
export const ownerInstructorIdSql = sql<
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

/**
 * The visibility facts as sub-selects of a select from `cases` (raw names with aliases: drizzle
 * leaves columns unqualified inside a select list).
 */
const visibilityColumns = {
  members: sql<
    CaseMembership[] | null
  >`(select json_agg(json_build_object('userId', cu.user_id, 'viaRole', cu.via_role)) from case_users cu where cu.case_id = "cases"."id")`,
  plannerIds: sql<
    number[]
  >`array(select distinct cs.planner_id from case_services cs where cs.case_id = "cases"."id" and cs.planner_id is not null)`,
  ownerInstructorId: ownerInstructorIdSql,
};

type VisibilityColumns = {
  ownerId: number;
  caseStatus: string;
  hasPrintable: boolean;
  members: CaseMembership[] | null;
  plannerIds: number[] | null;
  ownerInstructorId: number | string | null;
};

const factsOf = (row: VisibilityColumns): CaseVisibilityFacts => ({
  ownerId: row.ownerId,
  caseStatus: row.caseStatus,
  hasPrintable: row.hasPrintable,
  members: row.members ?? [],
  plannerIds: (row.plannerIds ?? []).map(Number),
  ownerInstructorId: row.ownerInstructorId === null ? null : Number(row.ownerInstructorId),
});

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
      ...visibilityColumns,
    })
    .from(cases)
    .where(eq(cases.id, caseId))
    .limit(1);
  // The row lock serializes every change of one case (moves, saves): the second waits, then
  // reads the first one's result and is refused if its premise no longer holds.
  const [row] = options.lock ? await query.for('update', { of: cases }) : await query;
  if (!row) return undefined;
  return { ...factsOf(row), caseArchived: row.caseArchived, modifiedAt: row.modifiedAt };
}

/**
 * The start of every change of a case, in one statement: the row, locked until the transaction
 * ends (see `findCaseVisibilityFacts`), with the facts `caseRelation` needs and the case's
 * services with their products (product names in the `language` placeholder). Built once per
 * connection and named: every change of a case starts here.
 */
const lockCaseStatement = preparedStatement('lock_case_for_change', (tx) =>
  tx
    .select({
      row: cases,
      ...visibilityColumns,
      // The case's transactions change only under this row lock (payments lock the case first),
      // so what is read here holds for the whole change (`advancePaidCase` reads it).
      transactionStatuses: sql<
        string[]
      >`array(select t.payment_status from transactions t where t.case_id = "cases"."id")`,
      services: sql<LockedServiceJson[]>`coalesce((
        select json_agg(json_build_object(
                 'service', to_json(s), 'productName', ${productNameSql(sql.placeholder('language'))},
                 'productKind', products.product_kind, 'qtdOption', products.qtd_option,
                 'qtdMax', products.qtd_max, 'manufactureTime', products.manufacture_time,
                 'transactionStatus', t.payment_status)
               order by s.id)
          from case_services s join products on products.id = s.product_id
          left join transactions t on t.id = s.transaction_id
         where s.case_id = "cases"."id"), '[]'::json)`,
    })
    .from(cases)
    .where(eq(cases.id, sql.placeholder('caseId')))
    .limit(1)
    .for('update', { of: cases }),
);

/** A service as the lock's JSON carries it: the row as `to_json` gives it, with its product. */
type LockedServiceJson = Omit<CaseServiceWithProduct, keyof typeof caseServices.$inferSelect> & {
  service: Record<string, unknown>;
};

/** `lockCaseStatement`'s answer; undefined when the case does not exist. */
export async function lockCaseForChange(
  tx: DbOrTx,
  caseId: number,
  language: Language,
): Promise<
  | {
      row: typeof cases.$inferSelect;
      facts: CaseVisibilityFacts;
      transactionStatuses: string[];
      services: CaseServiceWithProduct[];
    }
  | undefined
> {
  const [found] = await lockCaseStatement(tx, { caseId, language });
  if (!found) return undefined;
  return {
    row: found.row,
    facts: factsOf({ ...found.row, ...found }),
    transactionStatuses: found.transactionStatuses ?? [],
    services: found.services.map(({ service, ...product }) => ({
      ...tableRowFromJson(caseServices, service),
      ...product,
    })),
  };
}
