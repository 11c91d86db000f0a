import { and, asc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { caseServices, cases, productCategories, products, users } from '../../db/schema';

export type ProductRow = typeof products.$inferSelect;
export type ProductValues = Omit<typeof products.$inferInsert, 'id' | 'createdAt'>;
export type CategoryRow = typeof productCategories.$inferSelect;

/** Every product not deleted with its category's names, in a stable order. */
export async function listLiveProducts(db: DbOrTx) {
  return db
    .select({ product: products, categoryNames: productCategories.names })
    .from(products)
    .innerJoin(productCategories, eq(productCategories.id, products.productCategoryId))
    .where(isNull(products.deletedAt))
    .orderBy(asc(products.productCategoryId), asc(products.id));
}

/** Every product, deleted ones included, with its category (the catalogue is small). */
export async function listProductsWithCategory(db: DbOrTx) {
  return db
    .select({ product: products, category: productCategories })
    .from(products)
    .innerJoin(productCategories, eq(productCategories.id, products.productCategoryId))
    .orderBy(asc(products.id));
}

export async function findProduct(db: DbOrTx, id: number): Promise<ProductRow | undefined> {
  const [row] = await db.select().from(products).where(eq(products.id, id)).limit(1);
  return row;
}

/** The products of these ids that exist, deleted ones included, in no particular order. */
export async function findProductsByIds(db: DbOrTx, ids: readonly number[]): Promise<ProductRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(products)
    .where(inArray(products.id, [...new Set(ids)]));
}

/** The row locked until the transaction ends, so two saves of one product never interleave. */
export async function findProductForUpdate(
  tx: DbOrTx,
  id: number,
): Promise<ProductRow | undefined> {
  const [row] = await tx.select().from(products).where(eq(products.id, id)).limit(1).for('update');
  return row;
}

/** Another product (not `exceptId`) with this code, if any. */
export async function findOtherProductWithCode(
  db: DbOrTx,
  code: string,
  exceptId: number,
): Promise<{ id: number } | undefined> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.code, code), ne(products.id, exceptId)))
    .limit(1);
  return row;
}

export async function insertProduct(tx: DbOrTx, values: ProductValues): Promise<ProductRow> {
  const [row] = await tx.insert(products).values(values).returning();
  return row!;
}

export async function updateProduct(
  tx: DbOrTx,
  id: number,
  patch: Partial<ProductValues>,
): Promise<ProductRow> {
  const [row] = await tx.update(products).set(patch).where(eq(products.id, id)).returning();
  return row!;
}

/** A concurrent save took the code first (the unique index decides). */
export function isProductCodeViolation(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === '23505' && constraint === 'products_code_unique') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The profile currency of a user (`dataInfo.currency`), if set. */
export async function findUserCurrency(db: DbOrTx, userId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ currency: sql<string | null>`${users.dataInfo} ->> 'currency'` })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.currency ?? undefined;
}

export interface ProductOrderCount {
  productId: number;
  /** Uses in the given user's cases. */
  mine: number;
  /** Uses in everyone's cases. */
  everyone: number;
}

/**
 * How many case services use each product: directly (`product_id`), and for a combo once per
 * addition of it (its inner services share `service_id` = the combo and the moment they were
 * added).
 */
export async function productOrderCounts(db: DbOrTx, userId: number): Promise<ProductOrderCount[]> {
  const direct = await db
    .select({
      productId: caseServices.productId,
      mine: sql<number>`(count(*) filter (where ${cases.ownerId} = ${userId}))::int`,
      everyone: sql<number>`count(*)::int`,
    })
    .from(caseServices)
    .innerJoin(cases, eq(cases.id, caseServices.caseId))
    .groupBy(caseServices.productId);
  const additions = sql`(${caseServices.caseId}, ${caseServices.createdAt})`;
  const viaCombo = await db
    .select({
      productId: sql<number>`${caseServices.serviceId}`,
      mine: sql<number>`(count(distinct ${additions}) filter (where ${cases.ownerId} = ${userId}))::int`,
      everyone: sql<number>`(count(distinct ${additions}))::int`,
    })
    .from(caseServices)
    .innerJoin(cases, eq(cases.id, caseServices.caseId))
    .where(isNotNull(caseServices.serviceId))
    .groupBy(caseServices.serviceId);
  const counts = new Map<number, ProductOrderCount>();
  for (const row of [...direct, ...viaCombo]) {
    const entry = counts.get(row.productId) ?? { productId: row.productId, mine: 0, everyone: 0 };
    entry.mine += Number(row.mine);
    entry.everyone += Number(row.everyone);
    counts.set(row.productId, entry);
  }
  return [...counts.values()];
}

// ─────────────────────────────── categories ───────────────────────────────

export async function listCategories(db: DbOrTx, includeInactive: boolean): Promise<CategoryRow[]> {
  return db
    .select()
    .from(productCategories)
    .where(includeInactive ? undefined : eq(productCategories.active, true))
    .orderBy(asc(productCategories.id));
}

export async function findCategory(db: DbOrTx, id: number): Promise<CategoryRow | undefined> {
  const [row] = await db
    .select()
    .from(productCategories)
    .where(eq(productCategories.id, id))
    .limit(1);
  return row;
}

/**
 * Inserts a category with the next id. The table lock makes concurrent creations wait for each
 * other instead of picking the same id (categories are rarely written).
 */
export async function insertCategoryWithNextId(
  tx: DbOrTx,
  values: Omit<typeof productCategories.$inferInsert, 'id'>,
): Promise<CategoryRow> {
  await tx.execute(sql`lock table ${productCategories} in exclusive mode`);
  const [next] = await tx
    .select({ id: sql<number>`(coalesce(max(${productCategories.id}), 0) + 1)::int` })
    .from(productCategories);
  const [row] = await tx
    .insert(productCategories)
    .values({ ...values, id: Number(next!.id) })
    .returning();
  return row!;
}

export async function updateCategory(
  tx: DbOrTx,
  id: number,
  patch: Partial<Omit<typeof productCategories.$inferInsert, 'id'>>,
): Promise<CategoryRow | undefined> {
  const [row] = await tx
    .update(productCategories)
    .set(patch)
    .where(eq(productCategories.id, id))
    .returning();
  return row;
}
