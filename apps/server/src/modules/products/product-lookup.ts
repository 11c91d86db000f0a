import type { DbOrTx } from '../../db/client';
import {
  findProduct as findById,
  findProductsByIds as findByIds,
  type ProductRow,
} from './products.repository';

// The products table read by id for the other modules (cases, shop): the products module owns
// the table, so their lookups go through these functions rather than their own queries.

export type { ProductRow };

/** The product of this id, deleted or not. */
export function findProduct(db: DbOrTx, id: number): Promise<ProductRow | undefined> {
  return findById(db, id);
}

/** The products of these ids that exist, deleted ones included, in no particular order. */
export function findProductsByIds(db: DbOrTx, ids: readonly number[]): Promise<ProductRow[]> {
  return findByIds(db, ids);
}
