import { randomUUID } from 'node:crypto';
import type { AppContext, RequestMeta } from '../../context';
import { hashToken, randomToken } from '../../security/tokens';
import { writeAudit } from '../audit';
import { recordSignInPlatform, toUserProfile, type UserRow } from '../users';
import { insertRefreshToken } from './auth.repository';
import type { SessionResult } from './auth.schemas';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a session lasts: 30 days with "remember me", else one day. */
export const refreshTokenTtlMs = (remember: boolean) => (remember ? 30 : 1) * DAY_MS;

/** Where a sign-in comes from, recorded with it. */
export interface SignInMeta extends RequestMeta {
  /** `platformOf` the request (client, browser, system), kept in the user's `dataInfo.platform`. */
  platform: string;
}

/**
 * Opens a session (a new refresh-token family) once every factor the account needs was given,
 * records the platform the user signed in from and audits the login.
 */
export function createSessionStarter(ctx: AppContext) {
  return async function startSession(
    user: UserRow,
    remember: boolean,
    meta: SignInMeta,
    details: Record<string, unknown> = {},
  ): Promise<SessionResult> {
    const refreshToken = randomToken();
    const familyId = randomUUID();
    const signedIn = await ctx.db.transaction(async (tx) => {
      await insertRefreshToken(tx, {
        userId: user.id,
        familyId,
        tokenHash: hashToken(refreshToken),
        remember,
        expiresAt: new Date(Date.now() + refreshTokenTtlMs(remember)),
      });
      const updated = await recordSignInPlatform(tx, user.id, meta.platform);
      await writeAudit(tx, {
        actorUserId: user.id,
        action: 'auth.login',
        entity: 'user',
        entityId: user.id,
        details: { remember, platform: meta.platform, ...details },
        ip: meta.ip,
      });
      return updated ?? user;
    });
    return {
      accessToken: await ctx.accessTokens.sign({ userId: user.id, sessionId: familyId }),
      refreshToken,
      profile: toUserProfile(signedIn),
    };
  };
}
export type StartSession = ReturnType<typeof createSessionStarter>;
