import { randomBytes } from 'node:crypto';
import {
  EMPTY_ADDRESS,
  EMPTY_DATA_CAPABILITIES,
  USERS_PAGE_SIZE,
  deletedEmailOf,
  deletedNickNameOf,
  emptyDataInfo,
  isAdmin,
  isInstructor,
  sessionRoles,
  type AdminUser,
  type AdminUserSetBody,
  type UserPick,
  type UsersListQuery,
  type UsersPage,
} from '@dentflow/domain';
import { logFor, type AppContext, type RequestMeta } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, validationError } from '../../http/app-error';
import type { AuthContext } from '../../http/permissions';
import { hashPassword } from '../../security/passwords';
import { writeAudit } from '../audit';
import { avatarKeyOf } from './avatar-key';
import { eraseOutlivingRecords } from './erasure';
import { profilePatchOf, toUserProfile } from './user-profile';
import {
  findUserById,
  findUserByIdForUpdate,
  findUsersBy,
  listInstructorUsers,
  listPlannerUsers,
  listUsersPage,
  uniqueViolationOf,
  updateUserAsAdmin,
  type AdminUserPatch,
  type UserPickField,
  type UserRow,
} from './users.repository';

/** Pickers answer at most this many users. */
export const USER_PICK_LIMIT = 10;
/** What replaces a deleted user's names. */
const ANONYMOUS_NAME = '—';

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields of the patch that really change, with their stored and new values (for audit). */
function changesOf(user: UserRow, patch: AdminUserPatch) {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(patch) as [keyof AdminUserPatch, unknown][]) {
    if (sameValue(user[field], value)) continue;
    before[field] = user[field];
    after[field] = value;
  }
  return { before, after, changed: Object.keys(after) };
}

/**
 * What the admin's user actions need from the auth module, which owns sessions and mailed links.
 * Auth builds on users (sign-up, login), so users does not import it: whoever creates this
 * service (app.ts) passes these in from the auth module.
 */
export interface AccountAccess {
  /** Ends every session and voids every mailed link of a deleted account (same transaction). */
  endAllAccountAccess(tx: DbOrTx, userId: number): Promise<void>;
  /** Ends every session and voids the reset links after a password was set (same transaction). */
  endSessionsAndResetLinks(tx: DbOrTx, userId: number): Promise<void>;
  /** Mails a new verification link, as the public resend does. */
  resendVerification(email: string): Promise<unknown>;
}

export function createUsersService(ctx: AppContext, accountAccess: AccountAccess) {
  const { db, storage, live } = ctx;

  const toAdminUser = (user: UserRow, caller: AuthContext): AdminUser => {
    const admin = isAdmin(sessionRoles(caller.roles));
    return {
      ...toUserProfile(user),
      canEdit: admin,
      canDelete: admin && user.id !== caller.userId,
    };
  };

  /** A user that exists and is not deleted; anything else is 404. */
  async function requireLiveUser(tx: DbOrTx, id: number, lock = false): Promise<UserRow> {
    const user = lock ? await findUserByIdForUpdate(tx, id) : await findUserById(tx, id);
    if (!user || user.deletedAt) throw new AppError(404, 'NOT_FOUND');
    return user;
  }

  /** The patch of an admin's save, merged into the locked row; checks what the schema cannot. */
  async function patchOf(
    tx: DbOrTx,
    user: UserRow,
    body: AdminUserSetBody,
    caller: AuthContext,
  ): Promise<AdminUserPatch> {
    const patch: AdminUserPatch = await profilePatchOf(tx, user, body);
    if (body.roles) {
      const roles = [...new Set(body.roles)];
      // No lock-out: the last door an admin could close behind themselves.
      if (user.id === caller.userId && !roles.includes('admin')) {
        throw new AppError(409, 'SELF_LOCKOUT');
      }
      patch.roles = roles;
    }
    if (body.internal !== undefined) patch.internal = body.internal;
    if (body.dataCapabilities) {
      const capabilities = { ...user.dataCapabilities, ...body.dataCapabilities };
      const instructorId = body.dataCapabilities.instructorId;
      if (
        instructorId !== undefined &&
        instructorId !== null &&
        instructorId !== user.dataCapabilities.instructorId
      ) {
        const instructor =
          instructorId === user.id ? undefined : await findUserById(tx, instructorId);
        if (!instructor || instructor.deletedAt || !isInstructor(instructor.roles)) {
          throw validationError({ 'dataCapabilities.instructorId': 'validation.invalid' });
        }
      }
      patch.dataCapabilities = capabilities;
    }
    return patch;
  }

  /** The anonymization of `remove` without its lock-out check: also a user's own deletion. */
  async function anonymize(
    id: number,
    actorUserId: number,
    meta: RequestMeta,
    action = 'user.delete',
  ): Promise<{ deleted: true }> {
    const avatar = await db.transaction(async (tx) => {
      const user = await requireLiveUser(tx, id, true);
      const now = new Date();
      // From the row as it was: what identifies the person in the records that stay.
      await eraseOutlivingRecords(tx, user, now);
      const anonymous: AdminUserPatch = {
        email: deletedEmailOf(id),
        nickName: deletedNickNameOf(id),
        fname: ANONYMOUS_NAME,
        lname: ANONYMOUS_NAME,
        displayName: ANONYMOUS_NAME,
        avatar: null,
        passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
        roles: [],
        internal: false,
        dataInfo: emptyDataInfo(user.dataInfo.language),
        dataAddress: { ...EMPTY_ADDRESS },
        dataCapabilities: { ...EMPTY_DATA_CAPABILITIES },
        emailNotifications: null,
        deletedAt: now,
      };
      await updateUserAsAdmin(tx, id, anonymous);
      await accountAccess.endAllAccountAccess(tx, id);
      await writeAudit(tx, {
        actorUserId,
        action,
        entity: 'user',
        entityId: id,
        details: {
          anonymized: Object.keys(anonymous).filter((field) => field !== 'deletedAt'),
          before: { roles: user.roles, internal: user.internal, deletedAt: null },
          after: { roles: [], internal: false, deletedAt: anonymous.deletedAt },
        },
        ip: meta.ip,
      });
      return user.avatar;
    });
    // Its sessions are closed: its open sockets are disconnected now, not at their token's expiry.
    await live.recheckAccess(id, null);
    const key = avatarKeyOf(avatar);
    if (key) {
      await storage.delete(key).catch((error: unknown) => {
        logFor(ctx, meta).warn({ err: error, key }, 'avatar of a deleted user not removed');
      });
    }
    return { deleted: true };
  }

  return {
    /** Verified users with the planner role, for a supervisor assigning a case's planner. */
    planners: () => listPlannerUsers(db),

    /** Verified instructors a student may be linked to, with the discount they give. */
    instructors: () => listInstructorUsers(db),

    async list(page: number, query: UsersListQuery): Promise<UsersPage> {
      const { rows, total } = await listUsersPage(db, query, page, USERS_PAGE_SIZE);
      return {
        items: rows.map((user) => ({
          id: user.id,
          displayName: user.displayName,
          email: user.email,
          nickName: user.nickName,
          roles: user.roles,
          internal: user.internal,
          verified: user.verifiedAt !== null,
          avatar: user.avatar,
          createdAt: user.createdAt.toISOString(),
        })),
        total,
        page,
        pageSize: USERS_PAGE_SIZE,
      };
    },

    async get(id: number, caller: AuthContext): Promise<AdminUser> {
      return toAdminUser(await requireLiveUser(db, id), caller);
    },

    /** Pickers: at most USER_PICK_LIMIT non-deleted users whose field contains the value. */
    async pick(field: UserPickField, value: string): Promise<UserPick[]> {
      const rows = await findUsersBy(db, field, value, USER_PICK_LIMIT);
      return rows.map((user) => ({
        id: user.id,
        displayName: user.displayName,
        nickName: user.nickName,
        email: user.email,
        roles: user.roles,
      }));
    },

    /**
     * An admin's save of any sections of a user. The row is locked and merged, so concurrent
     * saves never drop each other's fields; roles take effect on the user's next request, since
     * every request reloads them.
     */
    async set(
      id: number,
      body: AdminUserSetBody,
      caller: AuthContext,
      meta: RequestMeta,
    ): Promise<AdminUser> {
      try {
        const updated = await db.transaction(async (tx) => {
          const user = await requireLiveUser(tx, id, true);
          const { before, after, changed } = changesOf(user, await patchOf(tx, user, body, caller));
          if (changed.length === 0) return user;
          const row = await updateUserAsAdmin(tx, id, after as AdminUserPatch);
          await writeAudit(tx, {
            actorUserId: caller.userId,
            action: 'user.set',
            entity: 'user',
            entityId: id,
            details: { changed, before, after },
            ip: meta.ip,
          });
          return row;
        });
        // Roles (and the internal flag) decide rooms: the user's sockets leave the ones lost.
        await live.recheckAccess(id, null);
        return toAdminUser(updated, caller);
      } catch (error) {
        if (uniqueViolationOf(error) === 'nickName') throw new AppError(409, 'NICKNAME_TAKEN');
        throw error;
      }
    },

    /**
     * Anonymizes the account and closes its sessions and mailed links; its cases, transactions
     * and audit rows stay for the business's records. The audit row names the erased fields but
     * not their values, which would defeat the erasure.
     */
    async remove(id: number, caller: AuthContext, meta: RequestMeta): Promise<{ deleted: true }> {
      if (id === caller.userId) throw new AppError(409, 'SELF_LOCKOUT');
      return anonymize(id, caller.userId, meta);
    },

    anonymize,

    /** Sets a user's password and ends every session of theirs. */
    async setPassword(
      id: number,
      password: string,
      caller: AuthContext,
      meta: RequestMeta,
    ): Promise<{ updated: true }> {
      const passwordHash = await hashPassword(password);
      await db.transaction(async (tx) => {
        await requireLiveUser(tx, id, true);
        await updateUserAsAdmin(tx, id, { passwordHash });
        await accountAccess.endSessionsAndResetLinks(tx, id);
        await writeAudit(tx, {
          actorUserId: caller.userId,
          action: 'user.set_password',
          entity: 'user',
          entityId: id,
          details: { sessionsRevoked: true },
          ip: meta.ip,
        });
      });
      await live.recheckAccess(id, null);
      return { updated: true };
    },

    /** The verification mail again, through the same path as the public resend. */
    async resendEmail(id: number, caller: AuthContext, meta: RequestMeta): Promise<{ sent: true }> {
      const user = await requireLiveUser(db, id);
      if (user.verifiedAt) throw new AppError(409, 'ALREADY_VERIFIED');
      await accountAccess.resendVerification(user.email);
      await writeAudit(db, {
        actorUserId: caller.userId,
        action: 'user.resend_email',
        entity: 'user',
        entityId: id,
        ip: meta.ip,
      });
      return { sent: true };
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
