import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';

/** Pending mails and the age of the oldest one, read at each scrape (an indexed status filter). */
export async function readOutboxBacklog(
  db: Db,
): Promise<{ pending: number; oldestAgeSeconds: number }> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*)::int`,
      oldestAgeSeconds: sql<number>`coalesce(extract(epoch from now() - min(${mailOutbox.createdAt})), 0)::float8`,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'pending'));
  return {
    pending: Number(row?.pending ?? 0),
    oldestAgeSeconds: Number(row?.oldestAgeSeconds ?? 0),
  };
}
