import { randomBytes } from 'node:crypto';
import {
  TWO_FACTOR,
  isRecoveryCode,
  isTotpCode,
  normalizeRecoveryCode,
  otpauthUri,
  requiresTwoFactor,
} from '@dentflow/domain';
import type { AppContext, RequestMeta } from '../../../context';
import type { DbOrTx } from '../../../db/client';
import { AppError } from '../../../http/app-error';
import { accountOfUser } from '../../../security/password-checks';
import { hashToken, randomToken } from '../../../security/tokens';
import { base32Encode, createSecretBox, matchTotp, newTotpSecret } from '../../../security/totp';
import { writeAudit } from '../../audit';
import { findUserById, type UserRow } from '../../users';
import type { SessionResult } from '../auth.schemas';
import type { SignInMeta, StartSession } from '../session-start';
import { createChallengeTokens, passwordMarkOf, type ChallengeKind } from './challenge-tokens';
import {
  consumeRecoveryCode,
  countTrustedDevices,
  countUnusedRecoveryCodes,
  deleteCredential,
  enableCredential,
  findCredential,
  findCredentialForUpdate,
  hasTrustedDevice,
  insertTrustedDevice,
  replaceRecoveryCodes,
  revokeTrustedDevices,
  setLastUsedStep,
  upsertPendingCredential,
} from './two-factor.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** A recovery code: 50 random bits as `xxxxx-xxxxx` (base32 letters and digits 2-7). */
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((byte) => RECOVERY_ALPHABET[byte & 31]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export interface TwoFactorChallenge {
  twoFactor: { challenge: string; step: ChallengeKind };
}

export interface SecondFactorSession extends SessionResult {
  /** Set when the user asked to remember this device: send it with later logins. */
  deviceToken?: string | undefined;
  /** Set after an enrolment: shown once, never again. */
  recoveryCodes?: string[] | undefined;
}

export interface TwoFactorStatus {
  enabled: boolean;
  required: boolean;
  recoveryCodesLeft: number;
  rememberedDevices: number;
}

type CodeCheck = 'right' | 'wrong' | 'replayed';

export function createTwoFactorService(ctx: AppContext, startSession: StartSession) {
  const { db } = ctx;
  const box = createSecretBox(ctx.config.jwtSecret);
  const challenges = createChallengeTokens(ctx.config.jwtSecret);

  /** Checks a code inside the transaction that records its use (the credential row locked). */
  async function checkCode(
    tx: DbOrTx,
    userId: number,
    code: string,
    options: { allowRecovery: boolean; pending?: boolean },
  ): Promise<CodeCheck> {
    const credential = await findCredentialForUpdate(tx, userId);
    if (!credential || Boolean(credential.enabledAt) === Boolean(options.pending)) return 'wrong';
    if (isTotpCode(code)) {
      const secret = box.open(credential.secretSealed);
      const match = matchTotp(secret, code, Date.now(), credential.lastUsedStep);
      if (!match) return 'wrong';
      if ('replayed' in match) return 'replayed';
      if (options.pending) await enableCredential(tx, userId, match.step);
      else await setLastUsedStep(tx, userId, match.step);
      return 'right';
    }
    if (options.allowRecovery && isRecoveryCode(code)) {
      const used = await consumeRecoveryCode(tx, userId, hashToken(normalizeRecoveryCode(code)));
      return used ? 'right' : 'wrong';
    }
    return 'wrong';
  }

  /**
   * A code checked under the password's rate limits (account and address); the work `then` does
   * commits with the code's use, or not at all.
   */
  async function withCode<T>(
    userId: number,
    code: string,
    meta: RequestMeta,
    options: { allowRecovery: boolean; pending?: boolean },
    then: (tx: DbOrTx) => Promise<T>,
  ): Promise<T> {
    const checked: { outcome: CodeCheck; result?: T } = { outcome: 'wrong' };
    await ctx.passwordChecks.check({ account: accountOfUser(userId), address: meta.ip }, () =>
      db.transaction(async (tx) => {
        checked.outcome = await checkCode(tx, userId, code, options);
        if (checked.outcome === 'right') checked.result = await then(tx);
        return checked.outcome === 'right';
      }),
    );
    if (checked.outcome === 'replayed') throw new AppError(400, 'TWO_FACTOR_CODE_USED');
    if (checked.outcome !== 'right') throw new AppError(400, 'TWO_FACTOR_CODE_INVALID');
    return checked.result as T;
  }

  async function issueRecoveryCodes(tx: DbOrTx, userId: number): Promise<string[]> {
    const codes = Array.from({ length: TWO_FACTOR.recoveryCodeCount }, newRecoveryCode);
    await replaceRecoveryCodes(
      tx,
      userId,
      codes.map((code) => hashToken(normalizeRecoveryCode(code))),
    );
    return codes;
  }

  async function rememberDevice(tx: DbOrTx, userId: number, platform: string): Promise<string> {
    const token = randomToken();
    await insertTrustedDevice(tx, {
      userId,
      tokenHash: hashToken(token),
      platform,
      expiresAt: new Date(Date.now() + TWO_FACTOR.trustedDeviceDays * DAY_MS),
    });
    return token;
  }

  /** The user a challenge token speaks for, if it is still good for this step. */
  async function challengedUser(
    token: string,
    kind: ChallengeKind,
  ): Promise<{
    user: UserRow;
    remember: boolean;
  }> {
    const challenge = await challenges.verify(token);
    const user = challenge ? await findUserById(db, challenge.userId) : undefined;
    if (
      !challenge ||
      challenge.kind !== kind ||
      !user?.verifiedAt ||
      user.deletedAt ||
      passwordMarkOf(user.passwordHash) !== challenge.passwordMark
    ) {
      throw new AppError(401, 'TWO_FACTOR_CHALLENGE_EXPIRED');
    }
    return { user, remember: challenge.remember };
  }

  async function newSecret(user: UserRow) {
    const secret = newTotpSecret();
    const stored = await upsertPendingCredential(db, user.id, box.seal(secret));
    if (!stored) throw new AppError(409, 'TWO_FACTOR_ALREADY_ENABLED');
    const secretBase32 = base32Encode(secret);
    return { secret: secretBase32, otpauthUri: otpauthUri(user.email, secretBase32) };
  }

  const audit = (tx: DbOrTx, userId: number, action: string, meta: RequestMeta) =>
    writeAudit(tx, { actorUserId: userId, action, entity: 'user', entityId: userId, ip: meta.ip });

  return {
    /**
     * After a right password: a session, unless the account has two-factor on and this device is
     * not remembered (a code is asked), or its role requires two-factor and it has none yet (an
     * enrolment is asked; the account cannot be used before).
     */
    async afterPassword(
      user: UserRow,
      input: { remember: boolean; devices: readonly string[] },
      meta: SignInMeta,
    ): Promise<SessionResult | TwoFactorChallenge> {
      const credential = await findCredential(db, user.id);
      let kind: ChallengeKind | null = null;
      if (credential?.enabledAt) {
        const remembered = await hasTrustedDevice(db, user.id, input.devices.map(hashToken));
        if (!remembered) kind = 'code';
      } else if (requiresTwoFactor(user.roles)) {
        kind = 'enrol';
      }
      if (!kind) return startSession(user, input.remember, meta);
      const challenge = await challenges.sign({
        userId: user.id,
        kind,
        remember: input.remember,
        passwordMark: passwordMarkOf(user.passwordHash),
      });
      return { twoFactor: { challenge, step: kind } };
    },

    /** The code step of a login: an authenticator code or a recovery code opens the session. */
    async completeLogin(
      input: { challenge: string; code: string; rememberDevice: boolean },
      meta: SignInMeta,
    ): Promise<SecondFactorSession> {
      const { user, remember } = await challengedUser(input.challenge, 'code');
      const method = isTotpCode(input.code) ? 'totp' : 'recovery';
      const deviceToken = await withCode(
        user.id,
        input.code,
        meta,
        { allowRecovery: true },
        async (tx) => {
          await audit(tx, user.id, `auth.two_factor_${method}`, meta);
          return input.rememberDevice ? rememberDevice(tx, user.id, meta.platform) : undefined;
        },
      );
      const session = await startSession(user, remember, meta, { secondFactor: method });
      return { ...session, deviceToken };
    },

    /** A new secret for the enrolment a login asked for (replaces an unconfirmed one). */
    async loginSetup(challenge: string) {
      const { user } = await challengedUser(challenge, 'enrol');
      return newSecret(user);
    },

    /** The enrolment a login asked for, confirmed with a first code: recovery codes and a session. */
    async loginEnrol(
      input: { challenge: string; code: string; rememberDevice: boolean },
      meta: SignInMeta,
    ): Promise<SecondFactorSession> {
      const { user, remember } = await challengedUser(input.challenge, 'enrol');
      const { recoveryCodes, deviceToken } = await withCode(
        user.id,
        input.code,
        meta,
        { allowRecovery: false, pending: true },
        async (tx) => {
          await audit(tx, user.id, 'auth.two_factor_enable', meta);
          return {
            recoveryCodes: await issueRecoveryCodes(tx, user.id),
            deviceToken: input.rememberDevice
              ? await rememberDevice(tx, user.id, meta.platform)
              : undefined,
          };
        },
      );
      const session = await startSession(user, remember, meta, { secondFactor: 'enrol' });
      return { ...session, recoveryCodes, deviceToken };
    },

    async status(userId: number, roles: readonly string[]): Promise<TwoFactorStatus> {
      const credential = await findCredential(db, userId);
      const enabled = Boolean(credential?.enabledAt);
      return {
        enabled,
        required: requiresTwoFactor(roles),
        recoveryCodesLeft: enabled ? await countUnusedRecoveryCodes(db, userId) : 0,
        rememberedDevices: enabled ? await countTrustedDevices(db, userId) : 0,
      };
    },

    /** A new secret for the signed-in user's own enrolment (profile → Security). */
    async setup(userId: number) {
      const user = await findUserById(db, userId);
      if (!user) throw new AppError(404, 'NOT_FOUND');
      return newSecret(user);
    },

    async enable(userId: number, code: string, meta: RequestMeta) {
      if ((await findCredential(db, userId))?.enabledAt) {
        throw new AppError(409, 'TWO_FACTOR_ALREADY_ENABLED');
      }
      const recoveryCodes = await withCode(
        userId,
        code,
        meta,
        { allowRecovery: false, pending: true },
        async (tx) => {
          await audit(tx, userId, 'auth.two_factor_enable', meta);
          return issueRecoveryCodes(tx, userId);
        },
      );
      return { recoveryCodes };
    },

    /**
     * Turns two-factor off with the password and a current code; remembered devices are
     * forgotten. Not for a role that requires it.
     */
    async disable(
      userId: number,
      input: { password: string; code: string },
      meta: RequestMeta,
    ): Promise<{ disabled: true }> {
      const user = await findUserById(db, userId);
      if (!user) throw new AppError(404, 'NOT_FOUND');
      if (requiresTwoFactor(user.roles)) throw new AppError(409, 'TWO_FACTOR_REQUIRED_FOR_ROLE');
      if (!(await findCredential(db, userId))?.enabledAt) {
        throw new AppError(409, 'TWO_FACTOR_NOT_ENABLED');
      }
      const right = await ctx.passwordChecks.verify(
        { account: accountOfUser(userId), address: meta.ip },
        user.passwordHash,
        input.password,
      );
      if (!right) throw new AppError(400, 'WRONG_PASSWORD');
      await withCode(userId, input.code, meta, { allowRecovery: true }, async (tx) => {
        await deleteCredential(tx, userId);
        await revokeTrustedDevices(tx, userId);
        await audit(tx, userId, 'auth.two_factor_disable', meta);
      });
      return { disabled: true };
    },

    /** A new set of recovery codes (the old ones stop working), confirmed with a current code. */
    async regenerateRecoveryCodes(userId: number, code: string, meta: RequestMeta) {
      if (!(await findCredential(db, userId))?.enabledAt) {
        throw new AppError(409, 'TWO_FACTOR_NOT_ENABLED');
      }
      const recoveryCodes = await withCode(
        userId,
        code,
        meta,
        { allowRecovery: false },
        async (tx) => {
          await audit(tx, userId, 'auth.two_factor_recovery_codes', meta);
          return issueRecoveryCodes(tx, userId);
        },
      );
      return { recoveryCodes };
    },
  };
}
export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
