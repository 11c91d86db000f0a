import {
  CASE_PAGE_SIZE_DEFAULT,
  isInstructor,
  sessionRoles,
  studentDiscountPercent,
  type CaseStatus,
  type DataCapabilities,
  type InstructorFacts,
  type MyInstructor,
  type Language,
  type StudentCasesPage,
} from '@dentflow/domain';
import type { AppContext, RequestMeta } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../http/app-error';
import { hashToken, randomToken } from '../../security/tokens';
import { writeAudit } from '../audit';
import { enqueueMail } from '../mail';
import { findUserById, type UserRow } from '../users';
import {
  findPendingInvitationForUpdate,
  findUsableInvitation,
  insertInvitation,
  listUsableInvitationsTo,
  isStudentEmail,
  linkStudent,
  listPendingInvitations,
  listStudentCasePage,
  listStudents,
  markInvitationAccepted,
  unlinkStudent,
  updateInvitation,
  type InvitationLookup,
  type InvitationRow,
} from './students.repository';
import type {
  AcceptedInvitation,
  InvitationPreview,
  InviteInput,
  PendingInvitation,
  ReceivedInvitation,
  StudentsOverview,
} from './students.schemas';

/** An invitation link stays valid for 14 days. */
export const INVITATION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

const toPending = (row: InvitationRow, now = Date.now()): PendingInvitation => ({
  id: row.id,
  email: row.email,
  language: row.language,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  expired: row.expiresAt.getTime() <= now,
});

/** An invitation only counts while its instructor is still an instructor with a live account. */
const isActiveInstructor = (user: UserRow | undefined): user is UserRow =>
  Boolean(user?.verifiedAt && !user.deletedAt && isInstructor(sessionRoles(user.roles)));

const factsOf = (user: UserRow): InstructorFacts => ({
  roles: user.roles,
  verified: user.verifiedAt !== null,
  deleted: user.deletedAt !== null,
  dataCapabilities: user.dataCapabilities,
});

/** What the instructor's students save now (0 once they stop being a live instructor). */
const discountOf = (instructor: UserRow) => studentDiscountPercent(factsOf(instructor));

/**
 * The percent a user saves as a student at checkout: their instructor's discount as it is now,
 * not the copy made when they joined (an admin may set or change it afterwards).
 */
export async function currentStudentDiscount(
  db: DbOrTx,
  capabilities: Pick<DataCapabilities, 'instructorId'> | undefined,
): Promise<number> {
  const instructorId = capabilities?.instructorId;
  if (instructorId == null) return 0;
  const instructor = await findUserById(db, instructorId);
  return instructor ? discountOf(instructor) : 0;
}

/**
 * How the invitee names an invitation: the token of the mailed link, or its id among the
 * invitations addressed to their own email (profile).
 */
export type InvitationKey = string | { id: number; email: string };

const lookupOf = (key: InvitationKey): InvitationLookup =>
  typeof key === 'string' ? { tokenHash: hashToken(key) } : key;

async function resolveInvitation(db: DbOrTx, key: InvitationKey, lock: boolean) {
  const invitation = await findUsableInvitation(db, lookupOf(key), { lock });
  if (!invitation) return undefined;
  const instructor = await findUserById(db, invitation.instructorId);
  if (!isActiveInstructor(instructor)) return undefined;
  return { invitation, instructor };
}

/**
 * Links `userId` as the student of the invitation's instructor with the instructor's discount and
 * marks the invitation accepted, in the caller's transaction (registration or acceptance by link
 * or from the profile). An unusable invitation (unknown, not addressed to that email, expired,
 * revoked, accepted, its instructor no longer one, or the user themselves) links nothing and
 * answers null. `asNewDoctor` (registration): the instructor invited a doctor, so the new account
 * gets the doctor role and can use the shop at once; an existing account keeps its roles.
 */
export async function claimInvitation(
  tx: DbOrTx,
  key: InvitationKey,
  userId: number,
  meta: RequestMeta,
  options: { asNewDoctor?: boolean } = {},
): Promise<AcceptedInvitation | null> {
  const resolved = await resolveInvitation(tx, key, true);
  if (!resolved || resolved.instructor.id === userId) return null;
  const { invitation, instructor } = resolved;
  const accepted = { instructorId: instructor.id, instructorDiscount: discountOf(instructor) };
  const before = (await findUserById(tx, userId))?.dataCapabilities;
  const addDoctorRole = options.asNewDoctor ?? false;
  await linkStudent(tx, userId, { ...accepted, addDoctorRole });
  await markInvitationAccepted(tx, invitation.id, userId);
  await writeAudit(tx, {
    actorUserId: userId,
    action: 'students.accept_invitation',
    entity: 'user',
    entityId: userId,
    details: {
      invitationId: invitation.id,
      before: {
        instructorId: before?.instructorId ?? null,
        instructorDiscount: before?.instructorDiscount ?? 0,
      },
      after: { ...accepted, ...(addDoctorRole ? { addedRole: 'doctor' } : {}) },
    },
    ip: meta.ip,
  });
  return accepted;
}

export function createStudentsService(ctx: Pick<AppContext, 'db'>) {
  const { db } = ctx;

  async function issueToken(
    tx: DbOrTx,
    instructor: UserRow,
    invitation: { email: string; language: string },
  ) {
    const token = randomToken();
    await enqueueMail(tx, {
      recipient: invitation.email,
      template: 'instructorInvite',
      language: invitation.language,
      params: {
        token,
        instructorName: instructor.displayName,
        discount: discountOf(instructor),
      },
    });
    return {
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
    };
  }

  /** The email invitations to the user are addressed to: only a verified one counts. */
  async function verifiedEmailOf(tx: DbOrTx, userId: number): Promise<string | undefined> {
    const user = await findUserById(tx, userId);
    return user?.verifiedAt && !user.deletedAt ? user.email : undefined;
  }

  async function instructorOf(instructorId: number): Promise<UserRow> {
    const instructor = await findUserById(db, instructorId);
    if (!instructor) throw new AppError(401, 'NOT_AUTHORIZED');
    return instructor;
  }

  return {
    async invite(
      instructorId: number,
      input: InviteInput,
      meta: RequestMeta,
    ): Promise<PendingInvitation> {
      const instructor = await instructorOf(instructorId);
      if (
        input.email === instructor.email ||
        (await isStudentEmail(db, instructorId, input.email))
      ) {
        // Already linked: a new invitation could not change anything.
        throw new AppError(409, 'EMAIL_TAKEN');
      }
      const row = await db.transaction(async (tx) => {
        const created = await insertInvitation(tx, {
          instructorId,
          email: input.email,
          language: input.language,
          ...(await issueToken(tx, instructor, input)),
        });
        await writeAudit(tx, {
          actorUserId: instructorId,
          action: 'students.invite',
          entity: 'invitation',
          entityId: created.id,
          details: { after: { email: created.email, language: created.language } },
          ip: meta.ip,
        });
        return created;
      });
      return toPending(row);
    },

    async overview(instructorId: number): Promise<StudentsOverview> {
      const [students, pending] = await Promise.all([
        listStudents(db, instructorId),
        listPendingInvitations(db, instructorId),
      ]);
      const now = Date.now();
      return { students, invitations: pending.map((row) => toPending(row, now)) };
    },

    /**
     * One page of a student's cases, archived included (read only: the case view and its
     * instructor chat channel do the rest); a user who is not the caller's student is a 404.
     */
    async studentCases(
      instructorId: number,
      studentId: number,
      page: number,
      language: Language,
    ): Promise<StudentCasesPage> {
      const pageSize = CASE_PAGE_SIZE_DEFAULT;
      const found = await listStudentCasePage(db, instructorId, studentId, {
        page,
        pageSize,
        language,
      });
      if (!found) throw new AppError(404, 'NOT_FOUND');
      return {
        items: found.rows.map((row) => ({
          id: row.id,
          patient: { fname: row.fname, lname: row.lname },
          caseStatus: row.caseStatus as CaseStatus,
          caseArchived: row.caseArchived,
          modifiedAt: row.modifiedAt.toISOString(),
          services: row.services,
        })),
        total: found.total,
        page,
        pageSize,
      };
    },

    /** A new link (the old one stops working) and 14 more days. */
    async resend(instructorId: number, id: number, meta: RequestMeta): Promise<PendingInvitation> {
      const instructor = await instructorOf(instructorId);
      const row = await db.transaction(async (tx) => {
        const invitation = await findPendingInvitationForUpdate(tx, id, instructorId);
        if (!invitation) throw new AppError(404, 'NOT_FOUND');
        const updated = await updateInvitation(
          tx,
          id,
          await issueToken(tx, instructor, invitation),
        );
        await writeAudit(tx, {
          actorUserId: instructorId,
          action: 'students.resend_invitation',
          entity: 'invitation',
          entityId: id,
          details: {
            before: { expiresAt: invitation.expiresAt.toISOString() },
            after: { expiresAt: updated.expiresAt.toISOString() },
          },
          ip: meta.ip,
        });
        return updated;
      });
      return toPending(row);
    },

    async revoke(instructorId: number, id: number, meta: RequestMeta): Promise<{ id: number }> {
      await db.transaction(async (tx) => {
        const invitation = await findPendingInvitationForUpdate(tx, id, instructorId);
        if (!invitation) throw new AppError(404, 'NOT_FOUND');
        const revokedAt = new Date();
        await updateInvitation(tx, id, { revokedAt });
        await writeAudit(tx, {
          actorUserId: instructorId,
          action: 'students.revoke_invitation',
          entity: 'invitation',
          entityId: id,
          details: { before: { revokedAt: null }, after: { revokedAt: revokedAt.toISOString() } },
          ip: meta.ip,
        });
      });
      return { id };
    },

    /** Public: what the register page shows for a link; any unusable token is a 404. */
    async preview(token: string): Promise<InvitationPreview> {
      const resolved = await resolveInvitation(db, token, false);
      if (!resolved) throw new AppError(404, 'NOT_FOUND');
      return {
        instructorName: resolved.instructor.displayName,
        discount: discountOf(resolved.instructor),
      };
    },

    /** A signed-in account accepts the invitation of a link (the register page). */
    async accept(userId: number, token: string, meta: RequestMeta): Promise<AcceptedInvitation> {
      const accepted = await db.transaction((tx) => claimInvitation(tx, token, userId, meta));
      if (!accepted) throw new AppError(404, 'NOT_FOUND');
      return accepted;
    },

    /**
     * The caller's instructor with the discount the caller gets now; null without one (or when
     * that account is gone).
     */
    async myInstructor(userId: number): Promise<MyInstructor | null> {
      const user = await findUserById(db, userId);
      const instructorId = user?.dataCapabilities.instructorId;
      if (instructorId == null) return null;
      const instructor = await findUserById(db, instructorId);
      if (!instructor || instructor.deletedAt) return null;
      return {
        id: instructor.id,
        displayName: instructor.displayName,
        email: instructor.email,
        discount: discountOf(instructor),
      };
    },

    /**
     * The caller stops being the student of the instructor they name (the one their screen
     * showed): no discount, and the instructor no longer sees their cases. 404 when that is not
     * their instructor (none, or another since), and nothing changes.
     */
    async leaveInstructor(
      userId: number,
      named: number,
      meta: RequestMeta,
    ): Promise<{ left: true }> {
      await db.transaction(async (tx) => {
        const instructorId = await unlinkStudent(tx, userId);
        // Throwing rolls the unlink back.
        if (instructorId !== named) throw new AppError(404, 'NOT_FOUND');
        await writeAudit(tx, {
          actorUserId: userId,
          action: 'students.leave_instructor',
          entity: 'user',
          entityId: userId,
          details: { before: { instructorId }, after: { instructorId: null } },
          ip: meta.ip,
        });
      });
      return { left: true };
    },

    /** The invitations the caller's own email received that they could accept now. */
    async received(userId: number): Promise<ReceivedInvitation[]> {
      const email = await verifiedEmailOf(db, userId);
      if (!email) return [];
      const rows = await listUsableInvitationsTo(db, email);
      return rows
        .filter(({ instructor }) => isActiveInstructor(instructor) && instructor.id !== userId)
        .map(({ invitation, instructor }) => ({
          id: invitation.id,
          instructorName: instructor.displayName,
          discount: discountOf(instructor),
          expiresAt: invitation.expiresAt.toISOString(),
        }));
    },

    /** Accepts one of `received` by id; any other id is a 404, like an unknown one. */
    async acceptReceived(
      userId: number,
      id: number,
      meta: RequestMeta,
    ): Promise<AcceptedInvitation> {
      const accepted = await db.transaction(async (tx) => {
        const email = await verifiedEmailOf(tx, userId);
        return email ? claimInvitation(tx, { id, email }, userId, meta) : null;
      });
      if (!accepted) throw new AppError(404, 'NOT_FOUND');
      return accepted;
    },
  };
}
export type StudentsService = ReturnType<typeof createStudentsService>;
