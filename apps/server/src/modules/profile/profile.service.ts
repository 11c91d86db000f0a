import { isValidDocument, nickNameSchema, type UserProfile } from '@dentflow/domain';
import type { AppContext, RequestMeta } from '../../context';
import { AppError, validationError } from '../../http/app-error';
import { hashPassword, verifyPassword } from '../../security/passwords';
import { writeAudit } from '../audit/audit.repository';
import { revokeAllSessions } from '../auth/auth.repository';
import { toUserProfile } from '../users/user-profile';
import {
  findUserById,
  findUserByIdForUpdate,
  isNicknameTaken,
  uniqueViolationOf,
  updateUser,
  type UserPatch,
  type UserRow,
} from '../users/users.repository';
import { findActiveAnnouncement } from './profile.repository';
import type { ProfileSetInput } from './profile.schemas';

export function createProfileService(ctx: AppContext) {
  const { db } = ctx;

  async function requireUser(userId: number): Promise<UserRow> {
    const user = await findUserById(db, userId);
    if (!user) throw new AppError(401, 'NOT_AUTHORIZED');
    return user;
  }

  return {
    async get(userId: number): Promise<UserProfile> {
      return toUserProfile(await requireUser(userId));
    },

    /**
     * Only the caller's own record; roles, internal flag, capabilities and email are never touched.
     * The partial dataInfo/dataAddress are merged into the row locked in the same transaction, so
     * two saves at once (say the language switcher and the Info tab) never drop each other's fields.
     */
    async set(userId: number, input: ProfileSetInput, meta: RequestMeta): Promise<UserProfile> {
      const general = input.dataGeneral ?? {};
      try {
        const updated = await db.transaction(async (tx) => {
          const user = await findUserByIdForUpdate(tx, userId);
          if (!user) throw new AppError(401, 'NOT_AUTHORIZED');
          const patch: UserPatch = {};
          if (general.nickName !== undefined && general.nickName !== user.nickName) {
            if (await isNicknameTaken(tx, general.nickName, userId)) {
              throw new AppError(409, 'NICKNAME_TAKEN');
            }
            patch.nickName = general.nickName;
          }
          if (general.fname !== undefined) patch.fname = general.fname;
          if (general.lname !== undefined) patch.lname = general.lname;
          if (general.displayName !== undefined) patch.displayName = general.displayName;
          if (input.dataInfo) {
            const info = { ...user.dataInfo, ...input.dataInfo };
            // The body schema checks a document against a type sent with it; this checks the
            // merged record, so changing only the type cannot leave a stored document invalid.
            const documentTouched =
              input.dataInfo.document !== undefined || input.dataInfo.typeOfDocument !== undefined;
            if (
              documentTouched &&
              info.document.trim() !== '' &&
              !isValidDocument(info.typeOfDocument, info.document)
            ) {
              throw validationError({ 'dataInfo.document': 'validation.invalidDocument' });
            }
            patch.dataInfo = info;
          }
          if (input.dataAddress) patch.dataAddress = { ...user.dataAddress, ...input.dataAddress };

          const row = await updateUser(tx, userId, patch);
          await writeAudit(tx, {
            actorUserId: userId,
            action: 'profile.set',
            entity: 'user',
            entityId: userId,
            details: { changed: Object.keys(patch) },
            ip: meta.ip,
          });
          return row;
        });
        return toUserProfile(updated);
      } catch (error) {
        if (uniqueViolationOf(error) === 'nickName') throw new AppError(409, 'NICKNAME_TAKEN');
        throw error;
      }
    },

    /** Malformed → INVALID_NICKNAME; the caller's own nickname counts as available. */
    async verifyNickname(
      nickname: string,
      callerUserId: number | undefined,
    ): Promise<{ available: boolean }> {
      const parsed = nickNameSchema.safeParse(nickname);
      if (!parsed.success) throw new AppError(400, 'INVALID_NICKNAME');
      return { available: !(await isNicknameTaken(db, parsed.data, callerUserId)) };
    },

    /** Changes the password and ends every other session of the user; the caller's stays. */
    async updatePassword(
      { userId, sessionId }: { userId: number; sessionId: string },
      input: { currentPassword: string; newPassword: string },
      meta: RequestMeta,
    ): Promise<{ updated: true }> {
      const user = await requireUser(userId);
      if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
        throw new AppError(400, 'WRONG_PASSWORD');
      }
      const passwordHash = await hashPassword(input.newPassword);
      await db.transaction(async (tx) => {
        await updateUser(tx, userId, { passwordHash });
        await revokeAllSessions(tx, userId, sessionId);
        await writeAudit(tx, {
          actorUserId: userId,
          action: 'profile.update_password',
          entity: 'user',
          entityId: userId,
          ip: meta.ip,
        });
      });
      return { updated: true };
    },

    async announcement(): Promise<{ active: boolean; title: string; body: string }> {
      const found = await findActiveAnnouncement(db);
      return found
        ? { active: true, title: found.title, body: found.body }
        : { active: false, title: '', body: '' };
    },

    async instructor(
      userId: number,
    ): Promise<{ instructor_id: number | null; instructor_discount: number }> {
      const { dataCapabilities } = await requireUser(userId);
      return {
        instructor_id: dataCapabilities.instructorId,
        instructor_discount: dataCapabilities.instructorDiscount,
      };
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
