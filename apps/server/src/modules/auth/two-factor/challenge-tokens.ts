import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { TWO_FACTOR } from '@dentflow/domain';

const ISSUER = 'dentflow';
const AUDIENCE = 'dentflow-two-factor';

/** What the step after a right password asks for: the code, or an enrolment first. */
export type ChallengeKind = 'code' | 'enrol';

export interface Challenge {
  userId: number;
  kind: ChallengeKind;
  /** The login's "remember me", carried to the session the challenge ends in. */
  remember: boolean;
  /** Binds the challenge to the password it followed: a password change ends it. */
  passwordMark: string;
}

export const passwordMarkOf = (passwordHash: string): string =>
  createHash('sha256').update(passwordHash).digest('base64url').slice(0, 16);

/**
 * The short-lived token between the password and the second factor: a signed JWT (its own
 * audience, so it is never an access token) that proves the password was right minutes ago.
 * It grants nothing alone; a code or an enrolment must follow.
 */
export function createChallengeTokens(secret: string) {
  const key = new TextEncoder().encode(secret);
  return {
    sign: (challenge: Challenge): Promise<string> =>
      new SignJWT({ k: challenge.kind, r: challenge.remember, p: challenge.passwordMark })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(challenge.userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${TWO_FACTOR.challengeMinutes}m`)
        .sign(key),
    async verify(token: string): Promise<Challenge | null> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
        });
        const userId = Number(payload.sub);
        const kind = payload.k;
        if (!Number.isSafeInteger(userId) || (kind !== 'code' && kind !== 'enrol')) return null;
        return {
          userId,
          kind,
          remember: payload.r === true,
          passwordMark: String(payload.p),
        };
      } catch {
        return null;
      }
    },
  };
}
