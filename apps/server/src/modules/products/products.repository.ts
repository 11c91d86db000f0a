import { asc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { productCategories, products } from '../../db/schema';

/** Every product not deleted with its category's names, in a stable order. */
export async function listLiveProducts(db: DbOrTx) {
  return db
    .select({ product: products, categoryNames: productCategories.names })
    .from(products)
    .innerJoin(productCategories, eq(productCategories.id, products.productCategoryId))
    .where(isNull(products.deletedAt))
    .orderBy(asc(products.productCategoryId), asc(products.id));
}
