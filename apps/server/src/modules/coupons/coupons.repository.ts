import {
  and,
  count,
  desc,
  eq,
  gt,
  isNotNull,
  isNull,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { CouponListFilter } from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { escapeLike } from '../../db/like-pattern';
import { couponUses, coupons, productCategories, products, users } from '../../db/schema';

export type CouponRow = typeof coupons.$inferSelect;
export type CouponValues = Omit<
  typeof coupons.$inferInsert,
  'id' | 'used' | 'createdAt' | 'deletedAt'
>;
export type CouponWithUsers = CouponRow & { usersCount: number };

/**
 * How many distinct users used the coupon (its rows in coupon_uses). Written with explicit
 * qualifiers: drizzle leaves columns unqualified in a one-table select, which would make the
 * inner `id` the subquery's own.
 */
const usersCount = sql<number>`(
  select count(distinct uses.user_id)::int from ${couponUses} uses
  where uses.coupon_id = ${sql.raw('"coupons"."id"')}
)`;

/**
 * The list filters: `active` is switched on and not expired, `inactive` switched off, `expired`
 * past its expiry (whether switched on or not), `all` everything. Deleted coupons never show.
 */
function filterCondition(filter: CouponListFilter, now: Date): SQL | undefined {
  switch (filter) {
    case 'active':
      return and(eq(coupons.active, true), or(isNull(coupons.expireAt), gt(coupons.expireAt, now)));
    case 'inactive':
      return eq(coupons.active, false);
    case 'expired':
      return and(isNotNull(coupons.expireAt), lte(coupons.expireAt, now));
    case 'all':
      return undefined;
  }
}

export async function listCouponPage(
  db: DbOrTx,
  query: { filter: CouponListFilter; q: string; page: number; pageSize: number; now: Date },
): Promise<{ rows: CouponWithUsers[]; total: number }> {
  const where = and(
    isNull(coupons.deletedAt),
    filterCondition(query.filter, query.now),
    query.q
      ? sql`lower(${coupons.code}) like ${`%${escapeLike(query.q.toLowerCase())}%`}`
      : undefined,
  );
  const [totalRow] = await db.select({ total: count() }).from(coupons).where(where);
  const rows = await db
    .select({ coupon: coupons, usersCount })
    .from(coupons)
    .where(where)
    .orderBy(desc(coupons.createdAt), desc(coupons.id))
    .limit(query.pageSize)
    .offset(query.page * query.pageSize);
  return {
    rows: rows.map((row) => ({ ...row.coupon, usersCount: row.usersCount })),
    total: totalRow?.total ?? 0,
  };
}

/** A coupon that is not deleted, with its users count. */
export async function findLiveCoupon(db: DbOrTx, id: number): Promise<CouponWithUsers | undefined> {
  const [row] = await db
    .select({ coupon: coupons, usersCount })
    .from(coupons)
    .where(and(eq(coupons.id, id), isNull(coupons.deletedAt)))
    .limit(1);
  return row ? { ...row.coupon, usersCount: row.usersCount } : undefined;
}

/** A coupon that is not deleted, locked until the transaction ends. */
export async function findLiveCouponForUpdate(
  tx: DbOrTx,
  id: number,
): Promise<CouponRow | undefined> {
  const [row] = await tx
    .select()
    .from(coupons)
    .where(and(eq(coupons.id, id), isNull(coupons.deletedAt)))
    .limit(1)
    .for('update');
  return row;
}

/** Codes are unique without regard to case, deleted coupons included (the unique index). */
export async function isCouponCodeTaken(
  db: DbOrTx,
  code: string,
  exceptId: number | null,
): Promise<boolean> {
  const sameCode = eq(sql`lower(${coupons.code})`, code.toLowerCase());
  const [row] = await db
    .select({ id: coupons.id })
    .from(coupons)
    .where(exceptId === null ? sameCode : and(sameCode, ne(coupons.id, exceptId)))
    .limit(1);
  return row !== undefined;
}

export async function insertCoupon(db: DbOrTx, values: CouponValues): Promise<CouponRow> {
  const [row] = await db.insert(coupons).values(values).returning();
  if (!row) throw new Error('insert into coupons returned nothing');
  return row;
}

/** Writes the form's fields; `used` is the checkout's and is never written here. */
export async function updateCoupon(db: DbOrTx, id: number, values: CouponValues): Promise<void> {
  await db.update(coupons).set(values).where(eq(coupons.id, id));
}

/** Soft delete: the row stays for old transactions and keeps its code taken. */
export async function softDeleteCoupon(db: DbOrTx, id: number): Promise<boolean> {
  const rows = await db
    .update(coupons)
    .set({ deletedAt: new Date() })
    .where(and(eq(coupons.id, id), isNull(coupons.deletedAt)))
    .returning({ id: coupons.id });
  return rows.length > 0;
}

export async function userExists(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
  return row !== undefined;
}

/** Whether the product exists and is not deleted. */
export async function liveProductExists(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.id, id), isNull(products.deletedAt)))
    .limit(1);
  return row !== undefined;
}

export async function categoryExists(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: productCategories.id })
    .from(productCategories)
    .where(eq(productCategories.id, id))
    .limit(1);
  return row !== undefined;
}

/** A concurrent save of the same code hit the unique index `coupons_code_lower_unique`. */
export function isCouponCodeViolation(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === '23505' && constraint === 'coupons_code_lower_unique') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A coupon by its code, whatever its case (the unique index is on `lower(code)`). With `lock`
 * the row stays locked until the transaction ends, so concurrent checkouts count its uses one
 * after the other.
 */
export async function findCouponByCode(
  db: DbOrTx,
  code: string,
  options: { lock?: boolean } = {},
): Promise<CouponRow | undefined> {
  const query = db
    .select()
    .from(coupons)
    .where(sql`lower(${coupons.code}) = lower(${code.trim()})`)
    .limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** How many of the user's orders used the coupon (rows in coupon_uses). */
export async function countCouponUsesByUser(
  db: DbOrTx,
  couponId: number,
  userId: number,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(couponUses)
    .where(and(eq(couponUses.couponId, couponId), eq(couponUses.userId, userId)));
  return row?.n ?? 0;
}

export async function addCouponUse(
  db: DbOrTx,
  use: { couponId: number; userId: number; transactionId: number; units: number },
): Promise<void> {
  await db
    .update(coupons)
    .set({ used: sql`${coupons.used} + ${use.units}` })
    .where(eq(coupons.id, use.couponId));
  await db.insert(couponUses).values(use);
}
