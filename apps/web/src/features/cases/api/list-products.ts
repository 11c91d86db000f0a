import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Currency } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';

/** A catalogue product as `products/list` gives it: texts in the caller's language. */
export interface CatalogueProduct {
  id: number;
  code: string;
  productType: number;
  productCategoryId: number;
  categoryName: string;
  productKind: number;
  qtdOption: number;
  qtdMax: number;
  manufactureTime: number;
  innerProducts: number[];
  favorite: boolean;
  name: string;
  description: string;
  /** Minor units per currency. */
  prices: Record<Currency, number>;
  modifiedAt: string;
}

export const fetchProducts = () => api.get<CatalogueProduct[]>('/products/list');

export const productsQueryOptions = () =>
  queryOptions({
    // The texts follow the language: one entry per language.
    queryKey: ['products', 'list', currentLanguage()],
    queryFn: fetchProducts,
    staleTime: 5 * 60_000,
  });

export const useProducts = () => useQuery(productsQueryOptions());
