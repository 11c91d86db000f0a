import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminProductSchema, type AdminProduct } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { productKeys } from './product-keys';

export const fetchProduct = async (id: number): Promise<AdminProduct> =>
  adminProductSchema.parse(await api.get<unknown>(`/products/get/${id}`));

/** One product, read fresh before editing (the list may be older than another admin's save). */
export const productQueryOptions = (id: number) =>
  queryOptions({ queryKey: productKeys.detail(id), queryFn: () => fetchProduct(id) });

export const useProduct = (id: number | null) =>
  useQuery({ ...productQueryOptions(id ?? 0), enabled: id !== null && id > 0 });
