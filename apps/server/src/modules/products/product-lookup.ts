import type { DbOrTx } from '../../db/client';
import { findProductsByIds as findByIds, type ProductRow } from './products.repository';

// The products table read by id for the other modules (the shop): the products module owns
// the table, so their lookups go through these functions rather than their own queries.

export type { ProductRow };

/** The products of these ids that exist, deleted ones included, in no particular order. */
export function findProductsByIds(db: DbOrTx, ids: readonly number[]): Promise<ProductRow[]> {
  return findByIds(db, ids);
}
