import { and, asc, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Language } from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { cases, invitations, patients, users } from '../../db/schema';
import { caseServicesPreviewColumn } from '../cases';
import type { UserRow } from '../users';

export type InvitationRow = typeof invitations.$inferSelect;

export async function insertInvitation(
  tx: DbOrTx,
  values: typeof invitations.$inferInsert,
): Promise<InvitationRow> {
  const [row] = await tx.insert(invitations).values(values).returning();
  return row!;
}

/** One of the instructor's invitations still waiting (neither accepted nor revoked), locked. */
export async function findPendingInvitationForUpdate(
  tx: DbOrTx,
  id: number,
  instructorId: number,
): Promise<InvitationRow | undefined> {
  const [row] = await tx
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.id, id),
        eq(invitations.instructorId, instructorId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    )
    .limit(1)
    .for('update');
  return row;
}

/**
 * How a usable invitation is found: by the token of its link, or by id among those addressed to
 * an email (the invitee's profile).
 */
export type InvitationLookup = { tokenHash: string } | { id: number; email: string };

/** Neither accepted nor revoked, and not expired. */
const isUsable = () =>
  and(
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
    gt(invitations.expiresAt, new Date()),
  );

/** The usable invitation matching the lookup (locked when asked). */
export async function findUsableInvitation(
  db: DbOrTx,
  lookup: InvitationLookup,
  options: { lock?: boolean } = {},
): Promise<InvitationRow | undefined> {
  const matches =
    'tokenHash' in lookup
      ? eq(invitations.tokenHash, lookup.tokenHash)
      : and(eq(invitations.id, lookup.id), eq(invitations.email, lookup.email.toLowerCase()));
  const query = db.select().from(invitations).where(and(matches, isUsable())).limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** The usable invitations addressed to an email, newest first, each with its instructor's row. */
export async function listUsableInvitationsTo(
  db: DbOrTx,
  email: string,
): Promise<{ invitation: InvitationRow; instructor: UserRow }[]> {
  return db
    .select({ invitation: invitations, instructor: users })
    .from(invitations)
    .innerJoin(users, eq(users.id, invitations.instructorId))
    .where(and(eq(invitations.email, email.toLowerCase()), isUsable()))
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
}

export async function updateInvitation(
  tx: DbOrTx,
  id: number,
  patch: Partial<Pick<InvitationRow, 'tokenHash' | 'expiresAt' | 'revokedAt' | 'language'>>,
): Promise<InvitationRow> {
  const [row] = await tx.update(invitations).set(patch).where(eq(invitations.id, id)).returning();
  return row!;
}

export async function markInvitationAccepted(
  tx: DbOrTx,
  id: number,
  userId: number,
): Promise<void> {
  await tx
    .update(invitations)
    .set({ acceptedAt: new Date(), acceptedBy: userId })
    .where(eq(invitations.id, id));
}

export async function listPendingInvitations(
  db: DbOrTx,
  instructorId: number,
): Promise<InvitationRow[]> {
  return db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.instructorId, instructorId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    )
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
}

const instructorIdOf = sql`(${users.dataCapabilities} ->> 'instructorId')`;

/** The instructor's current students (not deleted), with how many cases each owns. */
export async function listStudents(db: DbOrTx, instructorId: number) {
  const caseCounts = db
    .select({ ownerId: cases.ownerId, total: count().as('total') })
    .from(cases)
    .groupBy(cases.ownerId)
    .as('case_counts');
  const rows = await db
    .select({
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      casesCount: sql<number>`coalesce(${caseCounts.total}, 0)::int`,
    })
    .from(users)
    .leftJoin(caseCounts, eq(caseCounts.ownerId, users.id))
    .where(and(sql`${instructorIdOf} = ${String(instructorId)}`, isNull(users.deletedAt)))
    .orderBy(asc(users.displayName), asc(users.id));
  return rows;
}

export interface StudentCaseRow {
  id: number;
  fname: string;
  lname: string;
  caseStatus: string;
  caseArchived: boolean;
  modifiedAt: Date;
  services: { id: number; productName: string }[];
}

/**
 * One page of a student's cases, archived ones included, newest `modifiedAt` first (ties by id),
 * with their total; undefined when `studentId` is not one of the instructor's current students
 * (as `listStudents` counts them). One round trip: the student's row, left-joined to the page,
 * carries the total as a scalar sub-select, so an empty page still answers it.
 */
export async function listStudentCasePage(
  db: DbOrTx,
  instructorId: number,
  studentId: number,
  query: { page: number; pageSize: number; language: Language },
): Promise<{ rows: StudentCaseRow[]; total: number } | undefined> {
  const pageRows = db
    .select({
      id: cases.id,
      fname: patients.fname,
      lname: patients.lname,
      caseStatus: cases.caseStatus,
      caseArchived: cases.caseArchived,
      modifiedAt: cases.modifiedAt,
      services: caseServicesPreviewColumn(query.language).as('services'),
    })
    .from(cases)
    .innerJoin(patients, eq(patients.id, cases.patientId))
    .where(eq(cases.ownerId, studentId))
    .orderBy(desc(cases.modifiedAt), desc(cases.id))
    .limit(query.pageSize)
    .offset(query.page * query.pageSize)
    .as('page_rows');
  const rows = await db
    .select({
      total: sql<number>`(select count(*)::int from cases c where c.owner_id = ${studentId})`,
      // Null on the student's one row when the page is empty.
      item: {
        id: pageRows.id,
        fname: pageRows.fname,
        lname: pageRows.lname,
        caseStatus: pageRows.caseStatus,
        caseArchived: pageRows.caseArchived,
        modifiedAt: pageRows.modifiedAt,
        services: pageRows.services,
      },
    })
    .from(users)
    .leftJoin(pageRows, sql`true`)
    .where(
      and(
        eq(users.id, studentId),
        sql`${instructorIdOf} = ${String(instructorId)}`,
        isNull(users.deletedAt),
      ),
    )
    .orderBy(desc(pageRows.modifiedAt), desc(pageRows.id));
  const [first] = rows;
  if (!first) return undefined;
  return {
    rows: rows.flatMap(({ item }) =>
      item
        ? [
            {
              ...item,
              services: (item.services ?? []).map(({ id, productName }) => ({ id, productName })),
            },
          ]
        : [],
    ),
    total: Number(first.total),
  };
}

/** Whether a live account with this email is already the instructor's student. */
export async function isStudentEmail(
  db: DbOrTx,
  instructorId: number,
  email: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.email, email),
        sql`${instructorIdOf} = ${String(instructorId)}`,
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Makes the user the instructor's student with this discount (other capabilities stay), adding
 * the doctor role when asked.
 */
export async function linkStudent(
  tx: DbOrTx,
  userId: number,
  link: { instructorId: number; instructorDiscount: number; addDoctorRole: boolean },
): Promise<void> {
  const { instructorId, instructorDiscount } = link;
  await tx
    .update(users)
    .set({
      ...(link.addDoctorRole
        ? {
            roles: sql`case when ${users.roles} ? 'doctor' then ${users.roles} else ${users.roles} || '["doctor"]'::jsonb end`,
          }
        : {}),
      dataCapabilities: sql`${users.dataCapabilities} || ${JSON.stringify({ instructorId, instructorDiscount })}::jsonb`,
      modifiedAt: new Date(),
    })
    .where(eq(users.id, userId));
}

/**
 * Ends the user's link to their instructor (the discount goes with it); false when they had none.
 * The row is locked so a concurrent acceptance cannot interleave.
 */
export async function unlinkStudent(tx: DbOrTx, userId: number): Promise<number | null> {
  const [row] = await tx
    .select({ instructorId: sql<number | null>`(${instructorIdOf})::int` })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .for('update');
  const instructorId = row?.instructorId ?? null;
  if (instructorId === null) return null;
  await tx
    .update(users)
    .set({
      dataCapabilities: sql`${users.dataCapabilities} || ${JSON.stringify({ instructorId: null, instructorDiscount: 0 })}::jsonb`,
      modifiedAt: new Date(),
    })
    .where(eq(users.id, userId));
  return instructorId;
}
