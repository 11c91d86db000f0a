import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = 'dentflow';
const AUDIENCE = 'dentflow-api';

/** An opaque 256-bit token for refresh, verification and reset links (base64url, URL-safe). */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** Only hashes of opaque tokens are stored, so a database leak does not leak sessions or links. */
export const hashToken = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex');

export interface AccessTokens {
  sign(userId: number): Promise<string>;
  /** The user id of a valid token, else null. */
  verify(token: string): Promise<number | null>;
}

/** Short-lived HS256 JWT access tokens whose `sub` is the user id. */
export function createAccessTokens(secret: string): AccessTokens {
  const key = new TextEncoder().encode(secret);
  return {
    sign: (userId) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
        .sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
        });
        const id = Number(payload.sub);
        return Number.isSafeInteger(id) && id > 0 ? id : null;
      } catch {
        return null;
      }
    },
  };
}
