import {
  EMPTY_ADDRESS,
  EMPTY_DATA_CAPABILITIES,
  couponRejection,
  displayNameOfNames,
  emptyDataInfo,
  isLanguage,
  type CouponTypeId,
  type Language,
} from '@dentflow/domain';
import type { AccountMailKind } from '../../adapters/mail/account-mails';
import { logFor, type AppContext, type RequestMeta } from '../../context';
import type { DbOrTx } from '../../db/client';
import { couponByCode } from '../coupons';
import { AppError } from '../../http/app-error';
import { accountOfLogin, accountOfUser } from '../../security/password-checks';
import { decoyPasswordHash, hashPassword } from '../../security/passwords';
import { hashToken, randomToken, type AccessTokenSubject } from '../../security/tokens';
import type { AuthContext } from '../../http/permissions';
import { writeAudit } from '../audit';
import { enqueueMail } from '../mail';
import { claimInvitation } from '../students';
import {
  toUserProfile,
  createUser,
  findUserByEmail,
  findUserById,
  findUserByLogin,
  isEmailTaken,
  isNicknameTaken,
  markUserVerified,
  setUserPassword,
  uniqueViolationOf,
  type UserRow,
} from '../users';
import { endSessionsAndResetLinks } from './account-access';
import {
  claimRefreshToken,
  consumeAccountToken,
  expireAccountTokens,
  findRefreshToken,
  insertAccountToken,
  insertRefreshToken,
  prepareSessionLookup,
  revokeFamily,
  type CouponRow,
} from './auth.repository';
import type { RegisterInput, SessionResult } from './auth.schemas';
import { createSessionStarter, refreshTokenTtlMs, type SignInMeta } from './session-start';
import { createTwoFactorService, type TwoFactorChallenge } from './two-factor/two-factor.service';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a verification link and a reset link last. */
export const VERIFICATION_TOKEN_TTL_MS = 7 * DAY_MS;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

const userLanguage = (user: UserRow): Language =>
  isLanguage(user.dataInfo.language) ? user.dataInfo.language : 'en';

export function createAuthService(ctx: AppContext) {
  const { db } = ctx;
  const lookupSession = prepareSessionLookup(db);
  const startSession = createSessionStarter(ctx);
  const twoFactor = createTwoFactorService(ctx, startSession);

  /**
   * Puts the mail in the outbox in the transaction that creates its token (decision 016): it goes
   * only if the token exists, and even across a crash. The reply never waits for the delivery,
   * or its timing would tell whether an account exists (decision 009).
   */
  async function enqueueAccountMail(
    tx: DbOrTx,
    kind: AccountMailKind,
    user: UserRow,
    token: string,
  ): Promise<void> {
    await enqueueMail(tx, {
      recipient: user.email,
      template: kind,
      language: userLanguage(user),
      params: { userId: user.id, name: user.fname, token },
    });
  }

  async function issueVerificationToken(userId: number, tx: DbOrTx): Promise<string> {
    const token = randomToken();
    await insertAccountToken(tx, {
      userId,
      purpose: 'verify_account',
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + VERIFICATION_TOKEN_TTL_MS),
    });
    return token;
  }

  return {
    twoFactor,

    /**
     * The caller behind a valid access token, or null when the account is gone or unverified or
     * the token's session was closed (logout, password reset or change, token reuse): a closed
     * session's access tokens stop working at once, not when they expire.
     */
    async loadSession({ userId, sessionId }: AccessTokenSubject): Promise<AuthContext | null> {
      const user = await lookupSession(userId, sessionId);
      if (!user) return null;
      return {
        userId: user.id,
        sessionId,
        roles: user.roles,
        language: user.language ?? undefined,
      };
    },

    async register(input: RegisterInput, meta: RequestMeta): Promise<{ id: number }> {
      if (await isEmailTaken(db, input.email)) throw new AppError(409, 'EMAIL_TAKEN');
      if (await isNicknameTaken(db, input.nickName)) throw new AppError(409, 'NICKNAME_TAKEN');
      let couponId: number | null = null;
      if (input.coupom) {
        const coupon = await couponByCode(db, input.coupom);
        if (!coupon || !isCouponUsableAtRegistration(coupon)) {
          throw new AppError(400, 'INVALID_COUPON');
        }
        couponId = coupon.id;
      }
      const language = input.language ?? meta.language;
      const passwordHash = await hashPassword(input.password);
      let created: UserRow;
      try {
        created = await db.transaction(async (tx) => {
          const user = await createUser(tx, {
            email: input.email,
            nickName: input.nickName,
            fname: input.fname,
            lname: input.lname,
            displayName: displayNameOfNames(input.fname, input.lname),
            passwordHash,
            roles: [],
            dataInfo: emptyDataInfo(language),
            dataAddress: { ...EMPTY_ADDRESS },
            dataCapabilities: { ...EMPTY_DATA_CAPABILITIES },
            couponId,
          });
          const token = await issueVerificationToken(user.id, tx);
          await enqueueAccountMail(tx, 'verifyAccount', user, token);
          // An unusable invitation (expired, revoked, used) does not stop the registration.
          const invited = input.invite
            ? await claimInvitation(tx, input.invite, user.id, meta, { asNewDoctor: true })
            : null;
          await writeAudit(tx, {
            actorUserId: user.id,
            action: 'auth.register',
            entity: 'user',
            entityId: user.id,
            details: { couponId, instructorId: invited?.instructorId ?? null },
            ip: meta.ip,
          });
          return user;
        });
      } catch (error) {
        // Two registrations racing for the same email or nickname: the unique index decides.
        const violated = uniqueViolationOf(error);
        if (violated === 'email') throw new AppError(409, 'EMAIL_TAKEN');
        if (violated === 'nickName') throw new AppError(409, 'NICKNAME_TAKEN');
        throw error;
      }
      return { id: created.id };
    },

    async verifyAccount(token: string, meta: RequestMeta): Promise<{ verified: true }> {
      const userId = await db.transaction(async (tx) => {
        const id = await consumeAccountToken(tx, 'verify_account', hashToken(token));
        if (id === undefined) return undefined;
        await markUserVerified(tx, id);
        await expireAccountTokens(tx, id, 'verify_account');
        await writeAudit(tx, {
          actorUserId: id,
          action: 'auth.verify',
          entity: 'user',
          entityId: id,
          ip: meta.ip,
        });
        return id;
      });
      if (userId === undefined) throw new AppError(400, 'INVALID_TOKEN');
      return { verified: true };
    },

    /** Same answer whether or not the account exists (no account enumeration). */
    async resendVerification(login: string): Promise<{ sent: true }> {
      const user = await findUserByLogin(db, login);
      if (user && !user.verifiedAt && !user.deletedAt) {
        await db.transaction(async (tx) => {
          const token = await issueVerificationToken(user.id, tx);
          await enqueueAccountMail(tx, 'verifyAccount', user, token);
        });
      }
      return { sent: true };
    },

    /**
     * The password step of a login: a session, or the second-factor step the account needs
     * (`twoFactor.afterPassword`).
     */
    async login(
      input: {
        login: string;
        password: string;
        remember?: boolean | undefined;
        devices?: string[] | undefined;
      },
      meta: SignInMeta,
    ): Promise<SessionResult | TwoFactorChallenge> {
      const found = await findUserByLogin(db, input.login);
      // A deleted account answers like an unknown login.
      const user = found && !found.deletedAt ? found : undefined;
      const right = await ctx.passwordChecks.verify(
        {
          account: user ? accountOfUser(user.id) : accountOfLogin(input.login),
          address: meta.ip,
        },
        user?.passwordHash ?? (await decoyPasswordHash()),
        input.password,
      );
      if (!user || !right) throw new AppError(401, 'INVALID_CREDENTIALS');
      // Only told after the right password, so it reveals nothing to someone guessing logins.
      if (!user.verifiedAt) throw new AppError(403, 'ACCOUNT_NOT_VERIFIED');
      return twoFactor.afterPassword(
        user,
        { remember: input.remember ?? false, devices: input.devices ?? [] },
        meta,
      );
    },

    /**
     * Rotates a refresh token. The claim is one conditional UPDATE, so of concurrent refreshes
     * exactly one succeeds; presenting an already rotated token is treated as theft and revokes
     * the whole family (including the token the legitimate rotation produced).
     */
    async refresh(refreshToken: string, meta: RequestMeta): Promise<SessionResult> {
      if (!refreshToken) throw new AppError(401, 'NOT_AUTHORIZED');
      const tokenHash = hashToken(refreshToken);
      const next = randomToken();
      const rotated = await db.transaction(async (tx) => {
        const claimed = await claimRefreshToken(tx, tokenHash);
        if (!claimed) return undefined;
        const user = await findUserById(tx, claimed.userId);
        if (!user?.verifiedAt || user.deletedAt) return undefined;
        await insertRefreshToken(tx, {
          userId: user.id,
          familyId: claimed.familyId,
          tokenHash: hashToken(next),
          remember: claimed.remember,
          expiresAt: new Date(Date.now() + refreshTokenTtlMs(claimed.remember)),
        });
        return { user, familyId: claimed.familyId };
      });
      if (!rotated) {
        const known = await findRefreshToken(db, tokenHash);
        if (known?.rotatedAt && !known.revokedAt) {
          await db.transaction(async (tx) => {
            await revokeFamily(tx, known.familyId);
            await writeAudit(tx, {
              actorUserId: known.userId,
              action: 'auth.refresh_reuse',
              entity: 'refresh_family',
              entityId: known.familyId,
              ip: meta.ip,
            });
          });
          logFor(ctx, meta).warn(
            { userId: known.userId, familyId: known.familyId },
            'rotated refresh token reused; family revoked',
          );
        }
        throw new AppError(401, 'NOT_AUTHORIZED');
      }
      return {
        accessToken: await ctx.accessTokens.sign({
          userId: rotated.user.id,
          sessionId: rotated.familyId,
        }),
        refreshToken: next,
        profile: toUserProfile(rotated.user),
      };
    },

    /** Revokes the session (token family) of the given refresh token, if it is the caller's. */
    async logout(
      userId: number,
      refreshToken: string,
      meta: RequestMeta,
    ): Promise<{ loggedOut: true }> {
      const known = await findRefreshToken(db, hashToken(refreshToken));
      if (known && known.userId === userId) {
        await db.transaction(async (tx) => {
          await revokeFamily(tx, known.familyId);
          await writeAudit(tx, {
            actorUserId: userId,
            action: 'auth.logout',
            entity: 'refresh_family',
            entityId: known.familyId,
            ip: meta.ip,
          });
        });
      }
      return { loggedOut: true };
    },

    /** Same answer whether or not the account exists. */
    async forgotPassword(email: string): Promise<{ sent: true }> {
      const user = await findUserByEmail(db, email);
      if (user && !user.deletedAt) {
        const token = randomToken();
        await db.transaction(async (tx) => {
          await insertAccountToken(tx, {
            userId: user.id,
            purpose: 'reset_password',
            tokenHash: hashToken(token),
            expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
          });
          await enqueueAccountMail(tx, 'resetPassword', user, token);
        });
      }
      return { sent: true };
    },

    /**
     * Sets the password from a single-use link and revokes every session of the user. Following
     * the mailed link proves the address, so an unverified account becomes verified.
     */
    async resetPassword(
      token: string,
      password: string,
      meta: RequestMeta,
    ): Promise<{ reset: true }> {
      const passwordHash = await hashPassword(password);
      const userId = await db.transaction(async (tx) => {
        const id = await consumeAccountToken(tx, 'reset_password', hashToken(token));
        if (id === undefined) return undefined;
        await setUserPassword(tx, id, passwordHash);
        await markUserVerified(tx, id);
        await endSessionsAndResetLinks(tx, id);
        await writeAudit(tx, {
          actorUserId: id,
          action: 'auth.reset_password',
          entity: 'user',
          entityId: id,
          ip: meta.ip,
        });
        return id;
      });
      if (userId === undefined) throw new AppError(400, 'INVALID_TOKEN');
      return { reset: true };
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;

/**
 * A coupon code kept on a new account must be applicable to a user who has none of its uses yet
 *; a coupon bound to an existing user is not theirs to take.
 */
function isCouponUsableAtRegistration(coupon: CouponRow): boolean {
  const rejection = couponRejection(
    {
      ...coupon,
      coupomType: coupon.coupomType as CouponTypeId,
      deletedAt: coupon.deletedAt?.toISOString() ?? null,
      expireAt: coupon.expireAt?.toISOString() ?? null,
    },
    { userId: 0, usesByUser: 0, now: new Date() },
  );
  return rejection === null;
}
