import {
  LANGUAGES,
  announcementTextFor,
  isRegistrationCouponPending,
  nickNameSchema,
  NO_ANNOUNCEMENT,
  type AdminAnnouncement,
  type Announcement,
  type AnnouncementSave,
  type AnnouncementText,
  type Language,
  type UserProfile,
} from '@dentflow/domain';
import type { AppContext, RequestMeta } from '../../context';
import { AppError } from '../../http/app-error';
import { accountOfUser } from '../../security/password-checks';
import { hashPassword } from '../../security/passwords';
import { writeAudit } from '../audit';
import { endOtherSessions } from '../auth';
import { couponOfRow } from '../coupons';
import { currentStudentDiscount } from '../students';
import {
  profilePatchOf,
  toUserProfile,
  findUserById,
  findUserByIdForUpdate,
  isNicknameTaken,
  setUserPassword,
  uniqueViolationOf,
  updateUserProfile,
  type UserRow,
} from '../users';
import {
  deactivateOtherAnnouncements,
  findActiveAnnouncement,
  hasDismissedAnnouncement,
  insertAnnouncementDismissal,
  findAnnouncement,
  findRegistrationCoupon,
  insertAnnouncement,
  listAnnouncements,
  lockAnnouncements,
  updateAnnouncement,
  type AnnouncementRow,
} from './profile.repository';
import type { ProfileSetInput } from './profile.schemas';

/** An announcement's texts in every language; a row from before `texts` has its English ones. */
function announcementTextsOf(row: AnnouncementRow): Record<Language, AnnouncementText> {
  const stored = row.texts ?? { en: { title: row.title, body: row.body } };
  return Object.fromEntries(
    LANGUAGES.map((language) => [
      language,
      { title: stored[language]?.title ?? '', body: stored[language]?.body ?? '' },
    ]),
  ) as Record<Language, AnnouncementText>;
}

const adminAnnouncementOf = (row: AnnouncementRow): AdminAnnouncement => ({
  id: row.id,
  active: row.active,
  texts: announcementTextsOf(row),
  createdAt: row.createdAt.toISOString(),
  modifiedAt: row.modifiedAt.toISOString(),
});

export function createProfileService(ctx: AppContext) {
  const { db } = ctx;

  async function requireUser(userId: number): Promise<UserRow> {
    const user = await findUserById(db, userId);
    if (!user) throw new AppError(401, 'NOT_AUTHORIZED');
    return user;
  }

  /** The code the user registered with while it is still theirs to use, else null. */
  async function pendingRegistrationCoupon(user: UserRow): Promise<string | null> {
    if (user.couponId === null) return null;
    const found = await findRegistrationCoupon(db, user.couponId, user.id);
    if (!found) return null;
    const pending = isRegistrationCouponPending(couponOfRow(found.coupon), {
      userId: user.id,
      now: new Date(),
      usesByUser: found.uses,
    });
    return pending ? found.coupon.code : null;
  }

  /** The user's own profile: the stored one and their pending registration coupon. */
  const ownProfile = async (user: UserRow): Promise<UserProfile> => ({
    ...toUserProfile(user),
    registrationCoupon: await pendingRegistrationCoupon(user),
  });

  return {
    async get(userId: number): Promise<UserProfile> {
      return ownProfile(await requireUser(userId));
    },

    /**
     * Only the caller's own record; roles, internal flag, capabilities and email are never touched.
     * The partial dataInfo/dataAddress are merged into the row locked in the same transaction, so
     * two saves at once (say the language switcher and the Info tab) never drop each other's fields.
     */
    async set(userId: number, input: ProfileSetInput, meta: RequestMeta): Promise<UserProfile> {
      try {
        const updated = await db.transaction(async (tx) => {
          const user = await findUserByIdForUpdate(tx, userId);
          if (!user) throw new AppError(401, 'NOT_AUTHORIZED');
          const patch = await profilePatchOf(tx, user, input);

          const row = await updateUserProfile(tx, userId, patch);
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
        return await ownProfile(updated);
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
      const right = await ctx.passwordChecks.verify(
        { account: accountOfUser(userId), address: meta.ip },
        user.passwordHash,
        input.currentPassword,
      );
      if (!right) throw new AppError(400, 'WRONG_PASSWORD');
      const passwordHash = await hashPassword(input.newPassword);
      await db.transaction(async (tx) => {
        await setUserPassword(tx, userId, passwordHash);
        await endOtherSessions(tx, userId, sessionId);
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

    /**
     * The active announcement in the reader's language (else the first language that has it),
     * unless the reader has dismissed it.
     */
    async announcement(userId: number, language: Language): Promise<Announcement> {
      const found = await findActiveAnnouncement(db);
      if (!found || (await hasDismissedAnnouncement(db, userId, found.id))) return NO_ANNOUNCEMENT;
      return {
        id: found.id,
        active: true,
        ...announcementTextFor(announcementTextsOf(found), language),
      };
    },

    /**
     * The reader closed the announcement: it is not shown to them again. Only the active one can
     * be dismissed (any other id is 404, so ids of drafts are not revealed).
     */
    async dismissAnnouncement(
      userId: number,
      announcementId: number,
    ): Promise<{ dismissed: true }> {
      const found = await findActiveAnnouncement(db);
      if (!found || found.id !== announcementId) throw new AppError(404, 'NOT_FOUND');
      await insertAnnouncementDismissal(db, userId, announcementId);
      return { dismissed: true };
    },

    async listAnnouncements(): Promise<AdminAnnouncement[]> {
      return (await listAnnouncements(db)).map(adminAnnouncementOf);
    },

    /**
     * Creates (no id) or edits an announcement. One is active at a time: saving one active
     * deactivates the others in the same transaction, each with its audit row.
     */
    async saveAnnouncement(
      input: AnnouncementSave,
      actorUserId: number,
      meta: RequestMeta,
    ): Promise<AdminAnnouncement> {
      const saved = await db.transaction(async (tx) => {
        await lockAnnouncements(tx);
        const audit = (action: string, entityId: number, details: Record<string, unknown>) =>
          writeAudit(tx, {
            actorUserId,
            action: `announcement.${action}`,
            entity: 'announcement',
            entityId,
            details,
            ip: meta.ip,
          });
        // `title`/`body` keep the English texts (or the first language that has them).
        const english = announcementTextFor(input.texts, 'en');
        const values = {
          active: input.active,
          texts: input.texts,
          title: english.title,
          body: english.body,
        };
        let row: AnnouncementRow;
        if (input.id === undefined) {
          row = await insertAnnouncement(tx, values);
          await audit('create', row.id, {
            before: null,
            after: { active: row.active, texts: input.texts },
          });
        } else {
          const stored = await findAnnouncement(tx, input.id);
          if (!stored) throw new AppError(404, 'NOT_FOUND');
          const before = { active: stored.active, texts: announcementTextsOf(stored) };
          const after = { active: input.active, texts: input.texts };
          row = await updateAnnouncement(tx, input.id, values);
          const changed = (['active', 'texts'] as const).filter(
            (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
          );
          if (changed.length > 0) {
            await audit('update', row.id, {
              changed,
              before: Object.fromEntries(changed.map((key) => [key, before[key]])),
              after: Object.fromEntries(changed.map((key) => [key, after[key]])),
            });
          }
        }
        if (row.active) {
          for (const id of await deactivateOtherAnnouncements(tx, row.id)) {
            await audit('update', id, {
              changed: ['active'],
              before: { active: true },
              after: { active: false },
            });
          }
        }
        return row;
      });
      return adminAnnouncementOf(saved);
    },

    async instructor(
      userId: number,
    ): Promise<{ instructor_id: number | null; instructor_discount: number }> {
      const { dataCapabilities } = await requireUser(userId);
      return {
        instructor_id: dataCapabilities.instructorId,
        // The instructor's discount as it is now, which is what checkout applies.
        instructor_discount: await currentStudentDiscount(db, dataCapabilities),
      };
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
