import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CatalogueProduct } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';

export const fetchProducts = () => api.get<CatalogueProduct[]>('/products/list');

export const productsQueryOptions = () =>
  queryOptions({
    // The texts follow the language: one entry per language.
    queryKey: ['products', 'list', currentLanguage()],
    queryFn: fetchProducts,
    staleTime: 5 * 60_000,
  });

export const useProducts = () => useQuery(productsQueryOptions());
