import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * Runs `work` while this connection holds the transaction-level advisory lock `key`, or answers
 * 'contended' at once when another session (another instance) holds it. The lock's transaction
 * only holds the lock: `work` queries through the pool on other connections, and the lock goes
 * with the transaction — also when the instance dies, since PostgreSQL ends its session.
 */
export async function withJobLock<T>(
  db: Db,
  key: number,
  work: () => Promise<T>,
): Promise<{ locked: true; result: T } | { locked: false }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ locked: sql<boolean>`pg_try_advisory_xact_lock(${key})` })
      .from(sql`(select 1) as one`);
    if (row?.locked !== true) return { locked: false as const };
    return { locked: true as const, result: await work() };
  });
}
