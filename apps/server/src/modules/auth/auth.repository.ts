import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accountTokens, coupons, refreshTokens, type AccountTokenPurpose } from '../../db/schema';

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
export type CouponRow = typeof coupons.$inferSelect;

export async function insertRefreshToken(
  db: DbOrTx,
  values: {
    userId: number;
    familyId: string;
    tokenHash: string;
    remember: boolean;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(refreshTokens).values(values);
}

/**
 * Marks a live token rotated, atomically: the WHERE clause re-checks under the row lock, so of
 * concurrent refreshes of one token exactly one gets the row back.
 */
export async function claimRefreshToken(
  db: DbOrTx,
  tokenHash: string,
): Promise<RefreshTokenRow | undefined> {
  const [row] = await db
    .update(refreshTokens)
    .set({ rotatedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.rotatedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return row;
}

export async function findRefreshToken(
  db: DbOrTx,
  tokenHash: string,
): Promise<RefreshTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/**
 * Whether the session (token family) of `userId` is still open: its newest refresh token is neither
 * rotated away, revoked nor expired. Logout, reset and reuse detection close it at once.
 */
export async function isSessionOpen(
  db: DbOrTx,
  userId: number,
  familyId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.familyId, familyId),
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.rotatedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function revokeFamily(db: DbOrTx, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Revokes every session of the user, or every one but `exceptFamilyId` (the caller's own). */
export async function revokeAllSessions(
  db: DbOrTx,
  userId: number,
  exceptFamilyId?: string,
): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        exceptFamilyId === undefined ? undefined : ne(refreshTokens.familyId, exceptFamilyId),
      ),
    );
}

export async function insertAccountToken(
  db: DbOrTx,
  values: { userId: number; purpose: AccountTokenPurpose; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(accountTokens).values(values);
}

/** Uses a live single-use token; returns its user id, or undefined when unknown, used or expired. */
export async function consumeAccountToken(
  db: DbOrTx,
  purpose: AccountTokenPurpose,
  tokenHash: string,
): Promise<number | undefined> {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.tokenHash, tokenHash),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: accountTokens.userId });
  return row?.userId;
}

/** After a successful use, the user's other links of that purpose stop working too. */
export async function expireAccountTokens(
  db: DbOrTx,
  userId: number,
  purpose: AccountTokenPurpose,
): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.userId, userId),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
      ),
    );
}

export async function findCouponByCode(db: DbOrTx, code: string): Promise<CouponRow | undefined> {
  const [row] = await db
    .select()
    .from(coupons)
    .where(eq(sql`lower(${coupons.code})`, code.trim().toLowerCase()))
    .limit(1);
  return row;
}
