import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminProductSchema, type AdminProduct } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { productKeys } from './product-keys';

/** Every product for admins (`all`: unpublished and deleted ones too); searched on the client. */
export const fetchAdminProducts = async (): Promise<AdminProduct[]> =>
  adminProductSchema.array().parse(await api.get<unknown>('/products/query/all'));

export const adminProductsQueryOptions = () =>
  queryOptions({ queryKey: productKeys.adminList(), queryFn: fetchAdminProducts });

export const useAdminProducts = (enabled = true) =>
  useQuery({ ...adminProductsQueryOptions(), enabled });
