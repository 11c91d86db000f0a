import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { announcementDismissals, announcements, couponUses, coupons } from '../../db/schema';

export type AnnouncementRow = typeof announcements.$inferSelect;

/** A coupon a user registered with, and how many of their checkouts used it. */
export async function findRegistrationCoupon(
  db: DbOrTx,
  couponId: number,
  userId: number,
): Promise<{ coupon: typeof coupons.$inferSelect; uses: number } | undefined> {
  const [coupon] = await db.select().from(coupons).where(eq(coupons.id, couponId)).limit(1);
  if (!coupon) return undefined;
  const [counted] = await db
    .select({ uses: sql<number>`count(*)::int` })
    .from(couponUses)
    .where(and(eq(couponUses.couponId, couponId), eq(couponUses.userId, userId)));
  return { coupon, uses: counted?.uses ?? 0 };
}

/** The newest active announcement, if any. */
export async function findActiveAnnouncement(db: DbOrTx): Promise<AnnouncementRow | undefined> {
  const [row] = await db
    .select()
    .from(announcements)
    .where(eq(announcements.active, true))
    .orderBy(desc(announcements.modifiedAt), desc(announcements.id))
    .limit(1);
  return row;
}

/** Whether the user has dismissed the announcement. */
export async function hasDismissedAnnouncement(
  db: DbOrTx,
  userId: number,
  announcementId: number,
): Promise<boolean> {
  const [row] = await db
    .select({ userId: announcementDismissals.userId })
    .from(announcementDismissals)
    .where(
      and(
        eq(announcementDismissals.userId, userId),
        eq(announcementDismissals.announcementId, announcementId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Remembers that the user closed the announcement (a second dismissal changes nothing). */
export async function insertAnnouncementDismissal(
  db: DbOrTx,
  userId: number,
  announcementId: number,
): Promise<void> {
  await db.insert(announcementDismissals).values({ userId, announcementId }).onConflictDoNothing();
}

/** Every announcement, newest first. */
export async function listAnnouncements(db: DbOrTx): Promise<AnnouncementRow[]> {
  return db
    .select()
    .from(announcements)
    .orderBy(desc(announcements.createdAt), desc(announcements.id));
}

/** The lock (per transaction) that makes saves of announcements take turns. */
const ANNOUNCEMENTS_LOCK = 4_711_020_611;

/**
 * Makes announcement saves take turns until the transaction ends, so two activations at once
 * cannot both leave theirs active.
 */
export async function lockAnnouncements(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${ANNOUNCEMENTS_LOCK})`);
}

export async function findAnnouncement(
  tx: DbOrTx,
  id: number,
): Promise<AnnouncementRow | undefined> {
  const [row] = await tx.select().from(announcements).where(eq(announcements.id, id)).limit(1);
  return row;
}

export type AnnouncementValues = Pick<AnnouncementRow, 'active' | 'title' | 'body' | 'texts'>;

export async function insertAnnouncement(
  tx: DbOrTx,
  values: AnnouncementValues,
): Promise<AnnouncementRow> {
  const [row] = await tx.insert(announcements).values(values).returning();
  return row!;
}

export async function updateAnnouncement(
  tx: DbOrTx,
  id: number,
  values: AnnouncementValues,
): Promise<AnnouncementRow> {
  const [row] = await tx
    .update(announcements)
    .set({ ...values, modifiedAt: new Date() })
    .where(eq(announcements.id, id))
    .returning();
  return row!;
}

/** Deactivates every active announcement but `keepId`; answers the ids it deactivated. */
export async function deactivateOtherAnnouncements(tx: DbOrTx, keepId: number): Promise<number[]> {
  const rows = await tx
    .update(announcements)
    .set({ active: false, modifiedAt: new Date() })
    .where(and(eq(announcements.active, true), ne(announcements.id, keepId)))
    .returning({ id: announcements.id });
  return rows.map((row) => row.id);
}
