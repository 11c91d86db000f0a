import { queryOptions, useQuery } from '@tanstack/react-query';
import { categorySchema, type Category } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { productKeys } from './product-keys';

export const fetchCategory = async (id: number): Promise<Category> =>
  categorySchema.parse(await api.get<unknown>(`/products/category/${id}/get`));

export const categoryQueryOptions = (id: number) =>
  queryOptions({ queryKey: productKeys.category(id), queryFn: () => fetchCategory(id) });

export const useCategory = (id: number | null) =>
  useQuery({ ...categoryQueryOptions(id ?? 0), enabled: id !== null && id > 0 });
