import {
  queryOptions,
  useQueries,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import {
  adminProductSchema,
  comboDiscountPercent,
  isCombo,
  priceLanguageFor,
  productName,
  productPrice,
  type Currency,
  type ShopInnerProduct,
  type ShopProduct,
} from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { createProductCache, type ProductCache } from './product-cache';
import { scopeKey, useShopScope, type ShopScope } from './shop-scope';
import { shopKeys } from './shop-keys';

/** One product cache per query client (an app session, a test) and language/currency. */
const cachesByClient = new WeakMap<QueryClient, Map<string, ProductCache>>();

export function productCacheFor(client: QueryClient, scope: ShopScope): ProductCache {
  let caches = cachesByClient.get(client);
  if (!caches) {
    caches = new Map();
    cachesByClient.set(client, caches);
  }
  const key = scopeKey(scope);
  let cache = caches.get(key);
  if (!cache) {
    const created: ProductCache = createProductCache((id) => fetchShopProduct(id, scope, created));
    cache = created;
    caches.set(key, cache);
  }
  return cache;
}

const asInner = (product: ShopProduct): ShopInnerProduct => ({
  id: product.id,
  name: product.name,
  productKind: product.productKind,
  productCategoryId: product.productCategoryId,
  qtdOption: product.qtdOption,
  qtdMax: product.qtdMax,
  manufactureTime: product.manufactureTime,
  enableKit: product.enableKit,
  enableSleeve: product.enableSleeve,
  shipping: product.shipping,
  price: product.price,
});

/**
 * `GET /products/get/{id}` mapped to what the shop shows: texts of the language, prices of the
 * currency (ptBR texts carry BRL, en/es USD). A combo's parts come through the same cache; a part
 * the caller may not read is left out (the server prices the order from the database anyway).
 */
async function fetchShopProduct(
  id: number,
  { language, currency }: ShopScope,
  cache: ProductCache,
): Promise<ShopProduct> {
  const product = adminProductSchema.parse(await api.get<unknown>(`/products/get/${id}`));
  const priceLanguage = priceLanguageFor(currency);
  const parts = await Promise.all(
    product.innerProducts
      .filter((innerId) => innerId !== id)
      .map((innerId) => cache.get(innerId).catch(() => null)),
  );
  const innerProducts = parts.filter((part) => part !== null).map(asInner);
  const ownPrice = productPrice(product, priceLanguage);
  return {
    id: product.id,
    code: product.code,
    productType: product.productType,
    productCategoryId: product.productCategory,
    categoryName: '',
    productKind: product.productKind,
    qtdOption: product.qtdOption,
    qtdMax: product.qtdMax,
    manufactureTime: product.manufactureTime,
    favorite: product.favorite,
    enableKit: product.enableKit,
    enableSleeve: product.enableSleeve,
    shipping: product.shipping,
    name: productName(product, language),
    description: product.texts[language]?.description ?? '',
    imageUrl: product.imageUrl,
    currency,
    // Like the shop list: a combo costs the sum of its parts before the combo discount.
    price:
      isCombo(product) && innerProducts.length > 0
        ? innerProducts.reduce((sum, part) => sum + part.price, 0)
        : ownPrice,
    discount: comboDiscountPercent(product, priceLanguage),
    innerProducts,
    modifiedAt: product.modifiedAt,
  };
}

export const shopProductQueryOptions = (client: QueryClient, scope: ShopScope, id: number) => {
  const cache = productCacheFor(client, scope);
  return queryOptions({
    queryKey: shopKeys.product(scopeKey(scope), id),
    // The cache decides whether the network is needed; a cached copy answers at once.
    queryFn: () => cache.get(id),
    initialData: () => cache.peek(id),
    retry: false,
  });
};

export function useShopProduct(id: number) {
  const scope = useShopScope();
  const client = useQueryClient();
  return useQuery({
    ...shopProductQueryOptions(client, scope, id),
    enabled: Number.isInteger(id) && id > 0,
  });
}

/**
 * The products of the cart's items (cached, or fetched once each), priced in `currency` when given
 * (the checkout's: the case's), else in the profile's.
 */
export function useShopProducts(ids: readonly number[], currency?: Currency) {
  const profileScope = useShopScope();
  const scope = currency ? { ...profileScope, currency } : profileScope;
  const client = useQueryClient();
  return useQueries({
    queries: ids.map((id) => shopProductQueryOptions(client, scope, id)),
  });
}
