import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { shopProductPageSchema, type ShopFilter, type ShopProductPage } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { productCacheFor } from './get-shop-product';
import { scopeKey, useShopScope, type ShopScope } from './shop-scope';
import { shopKeys } from './shop-keys';

export interface ShopProductsQuery {
  filter: ShopFilter;
  page: number;
}

export function shopProductsPath({ filter, page }: ShopProductsQuery): string {
  const params = new URLSearchParams();
  if (filter.categories.length > 0) params.set('category', filter.categories.join(','));
  if (filter.mostOrdered) params.set('mostOrdered', 'true');
  if (filter.text.trim()) params.set('q', filter.text.trim());
  params.set('page', String(page));
  return `/api/v2/shop/products?${params}`;
}

export const fetchShopProducts = async (query: ShopProductsQuery): Promise<ShopProductPage> =>
  shopProductPageSchema.parse(await api.get<unknown>(shopProductsPath(query)));

export function useShopProductList(query: ShopProductsQuery) {
  const scope: ShopScope = useShopScope();
  const client = useQueryClient();
  return useQuery(
    queryOptions({
      // The texts follow the language; the prices the profile currency.
      queryKey: [...shopKeys.products(), scopeKey(scope), query],
      queryFn: async () => {
        const page = await fetchShopProducts(query);
        // A listed product opens without another request.
        for (const item of page.items)
          productCacheFor(client, { language: scope.language, currency: item.currency }).seed([
            item,
          ]);
        return page;
      },
      placeholderData: keepPreviousData,
    }),
  );
}
