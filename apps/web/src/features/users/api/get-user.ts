import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminUserSchema, type AdminUser } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { userKeys } from './user-keys';

export const fetchAdminUser = async (id: number): Promise<AdminUser> =>
  adminUserSchema.parse(await api.get<unknown>(`/users/get/${id}`));

export const adminUserQueryOptions = (id: number) =>
  queryOptions({ queryKey: userKeys.detail(id), queryFn: () => fetchAdminUser(id) });

export const useAdminUser = (id: number) =>
  useQuery({ ...adminUserQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
