import { and, eq, exists, gt, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import {
  accountTokens,
  coupons,
  refreshTokens,
  users,
  type AccountTokenPurpose,
} from '../../db/schema';
import { prepareSelect } from '../../db/prepared-statement';

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
 * The caller of an authenticated request, read by every one of them: a verified, not deleted user
 * whose session (token family) is still open — its newest refresh token neither rotated away,
 * revoked nor expired, so logout, reset and reuse detection close it at once. One prepared
 * statement: drizzle builds it once and each connection plans it once (docs/performance.md).
 */
export function prepareSessionLookup(db: Db) {
  const query = prepareSelect(
    db
      .select({
        id: users.id,
        roles: users.roles,
        language: sql<string | null>`${users.dataInfo}->>'language'`,
      })
      .from(users)
      .where(
        and(
          eq(users.id, sql.placeholder('userId')),
          isNotNull(users.verifiedAt),
          isNull(users.deletedAt),
          exists(
            db
              .select({ one: sql`1` })
              .from(refreshTokens)
              .where(
                and(
                  eq(refreshTokens.familyId, sql.placeholder('familyId')),
                  eq(refreshTokens.userId, users.id),
                  isNull(refreshTokens.rotatedAt),
                  isNull(refreshTokens.revokedAt),
                  gt(refreshTokens.expiresAt, sql`now()`),
                ),
              ),
          ),
        ),
      )
      .limit(1),
    'session_lookup',
  );
  return async (userId: number, familyId: string) => {
    const [row] = await query.execute({ userId, familyId });
    return row;
  };
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
