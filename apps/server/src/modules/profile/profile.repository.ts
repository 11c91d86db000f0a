import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { announcements } from '../../db/schema';

/** The newest active announcement, if any. */
export async function findActiveAnnouncement(db: DbOrTx) {
  const [row] = await db
    .select({ title: announcements.title, body: announcements.body })
    .from(announcements)
    .where(eq(announcements.active, true))
    .orderBy(desc(announcements.modifiedAt), desc(announcements.id))
    .limit(1);
  return row;
}
