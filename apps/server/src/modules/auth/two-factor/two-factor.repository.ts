import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client';
import { trustedDevices, twoFactorCredentials, twoFactorRecoveryCodes } from '../../../db/schema';

export type TwoFactorCredentialRow = typeof twoFactorCredentials.$inferSelect;

export async function findCredential(
  db: DbOrTx,
  userId: number,
): Promise<TwoFactorCredentialRow | undefined> {
  const [row] = await db
    .select()
    .from(twoFactorCredentials)
    .where(eq(twoFactorCredentials.userId, userId))
    .limit(1);
  return row;
}

/** The credential locked until the transaction ends (checking a code and using its step). */
export async function findCredentialForUpdate(
  tx: DbOrTx,
  userId: number,
): Promise<TwoFactorCredentialRow | undefined> {
  const [row] = await tx
    .select()
    .from(twoFactorCredentials)
    .where(eq(twoFactorCredentials.userId, userId))
    .for('update')
    .limit(1);
  return row;
}

/** A new, not yet confirmed secret; replaces an unconfirmed one, never an enabled one. */
export async function upsertPendingCredential(
  db: DbOrTx,
  userId: number,
  secretSealed: string,
): Promise<boolean> {
  const rows = await db
    .insert(twoFactorCredentials)
    .values({ userId, secretSealed })
    .onConflictDoUpdate({
      target: twoFactorCredentials.userId,
      set: { secretSealed, lastUsedStep: null, createdAt: sql`now()` },
      setWhere: isNull(twoFactorCredentials.enabledAt),
    })
    .returning({ userId: twoFactorCredentials.userId });
  return rows.length > 0;
}

export async function enableCredential(tx: DbOrTx, userId: number, step: number): Promise<void> {
  await tx
    .update(twoFactorCredentials)
    .set({ enabledAt: sql`now()`, lastUsedStep: step })
    .where(eq(twoFactorCredentials.userId, userId));
}

export async function setLastUsedStep(tx: DbOrTx, userId: number, step: number): Promise<void> {
  await tx
    .update(twoFactorCredentials)
    .set({ lastUsedStep: step })
    .where(eq(twoFactorCredentials.userId, userId));
}

export async function deleteCredential(tx: DbOrTx, userId: number): Promise<void> {
  await tx.delete(twoFactorCredentials).where(eq(twoFactorCredentials.userId, userId));
  await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
}

export async function replaceRecoveryCodes(
  tx: DbOrTx,
  userId: number,
  codeHashes: readonly string[],
): Promise<void> {
  await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await tx
    .insert(twoFactorRecoveryCodes)
    .values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

/** Uses an unused recovery code of the user, atomically; false when unknown or already used. */
export async function consumeRecoveryCode(
  tx: DbOrTx,
  userId: number,
  codeHash: string,
): Promise<boolean> {
  const rows = await tx
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, userId),
        eq(twoFactorRecoveryCodes.codeHash, codeHash),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return rows.length > 0;
}

export async function countUnusedRecoveryCodes(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
  return row?.count ?? 0;
}

export async function insertTrustedDevice(
  tx: DbOrTx,
  values: { userId: number; tokenHash: string; platform: string; expiresAt: Date },
): Promise<void> {
  await tx.insert(trustedDevices).values(values);
}

/** Whether one of these device tokens is a live remembered device of the user. */
export async function hasTrustedDevice(
  db: DbOrTx,
  userId: number,
  tokenHashes: readonly string[],
): Promise<boolean> {
  if (tokenHashes.length === 0) return false;
  const [row] = await db
    .select({ id: trustedDevices.id })
    .from(trustedDevices)
    .where(
      and(
        eq(trustedDevices.userId, userId),
        inArray(trustedDevices.tokenHash, [...tokenHashes]),
        isNull(trustedDevices.revokedAt),
        gt(trustedDevices.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function countTrustedDevices(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(trustedDevices)
    .where(
      and(
        eq(trustedDevices.userId, userId),
        isNull(trustedDevices.revokedAt),
        gt(trustedDevices.expiresAt, sql`now()`),
      ),
    );
  return row?.count ?? 0;
}

export async function revokeTrustedDevices(tx: DbOrTx, userId: number): Promise<void> {
  await tx
    .update(trustedDevices)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(trustedDevices.userId, userId), isNull(trustedDevices.revokedAt)));
}
