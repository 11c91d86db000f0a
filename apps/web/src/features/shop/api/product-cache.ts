import {
  createPendingRequests,
  mergeById,
  shouldFetchProduct,
  shouldReplaceProduct,
  type ShopProduct,
} from '@dentflow/domain';

/**
 * Client cache for products: a product is fetched only if it is not cached, a copy
 * replaces the cached one only if it is newer (`modifiedAt`), and repeat requests for one product
 * share one pending request. Shop list pages seed it, so opening a listed product costs nothing.
 */
export interface ProductCache {
  peek(id: number): ShopProduct | undefined;
  /** Offers copies to the cache (a list page, a fetched product); older ones are ignored. */
  seed(products: readonly ShopProduct[]): void;
  /** The cached copy, or the product fetched once (concurrent callers share the request). */
  get(id: number): Promise<ShopProduct>;
}

export function createProductCache(
  fetchProduct: (id: number) => Promise<ShopProduct>,
): ProductCache {
  let entries: ReadonlyMap<number, ShopProduct> = new Map();
  const pending = createPendingRequests<number, ShopProduct>();

  const seed = (products: readonly ShopProduct[]) => {
    entries = mergeById(entries, products, shouldReplaceProduct);
  };

  return {
    peek: (id) => entries.get(id),
    seed,
    get(id) {
      const cached = entries.get(id);
      if (!shouldFetchProduct(cached)) return Promise.resolve(cached as ShopProduct);
      return pending.run(id, async () => {
        const fetched = await fetchProduct(id);
        seed([fetched]);
        return entries.get(id) ?? fetched;
      });
    },
  };
}
