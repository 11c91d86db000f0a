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

/** Who an access token speaks for: the user and the session (refresh-token family) it belongs to. */
export interface AccessTokenSubject {
  userId: number;
  sessionId: string;
}

export interface AccessTokens {
  sign(subject: AccessTokenSubject): Promise<string>;
  /** The subject of a valid token, else null. */
  verify(token: string): Promise<AccessTokenSubject | null>;
}

/** How many verified tokens are remembered (about 300 bytes each). */
const VERIFIED_TOKENS_MAX = 10_000;

/**
 * Short-lived HS256 JWT access tokens: `sub` is the user id, `sid` the session's family id.
 *
 * A token that verified is remembered until it expires: a client sends the same token with
 * every request for 15 minutes, and WebCrypto's HMAC check was about 15 % of an authenticated
 * read's server CPU (docs/performance.md). The same string verifies the same way until its
 * `exp`; a closed session is refused by the session lookup that every request still makes.
 */
export function createAccessTokens(secret: string): AccessTokens {
  const verified = new Map<string, { subject: AccessTokenSubject; expiresAtMs: number }>();
  // Imported once: handing jose the raw bytes made it import the HMAC key again on every call
  // (half of the token check's CPU, docs/performance.md).
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return {
    sign: async ({ userId, sessionId }) =>
      new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
        .sign(await key),
    async verify(token) {
      const known = verified.get(token);
      if (known && known.expiresAtMs > Date.now()) return known.subject;
      if (known) verified.delete(token);
      try {
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
        });
        const userId = Number(payload.sub);
        const sessionId = payload.sid;
        if (
          !Number.isSafeInteger(userId) ||
          userId <= 0 ||
          typeof sessionId !== 'string' ||
          typeof payload.exp !== 'number'
        ) {
          return null;
        }
        const subject = { userId, sessionId };
        // The oldest remembered token goes first (a Map keeps insertion order).
        if (verified.size >= VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value!);
        verified.set(token, { subject, expiresAtMs: payload.exp * 1000 });
        return subject;
      } catch {
        return null;
      }
    },
  };
}
