import { queryOptions, useQuery } from '@tanstack/react-query';
import { categorySchema, type Category } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { productKeys } from './product-keys';

export const fetchCategories = async (): Promise<Category[]> =>
  categorySchema.array().parse(await api.get<unknown>('/products/category/list'));

/**
 * The product categories (admins also get inactive ones): one cache entry for the admin screens,
 * the shop filters and the coupon bindings, so a saved category shows everywhere.
 */
export const categoriesQueryOptions = () =>
  queryOptions({
    queryKey: productKeys.categories(),
    queryFn: fetchCategories,
    staleTime: 5 * 60_000,
  });

export const useCategories = (enabled = true) => useQuery({ ...categoriesQueryOptions(), enabled });
