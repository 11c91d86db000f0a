import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { usersPageSchema, type UsersListQuery, type UsersPage } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { userKeys } from './user-keys';

/** The query string of the list: only the filters that are set. */
export function usersListSearch(filters: UsersListQuery): string {
  const params = new URLSearchParams();
  if (filters.role) params.set('role', filters.role);
  if (filters.verified !== undefined) params.set('verified', String(filters.verified));
  if (filters.internal !== undefined) params.set('internal', String(filters.internal));
  if (filters.q?.trim()) params.set('q', filters.q.trim());
  const search = params.toString();
  return search ? `?${search}` : '';
}

export async function fetchUsersPage(page: number, filters: UsersListQuery): Promise<UsersPage> {
  return usersPageSchema.parse(
    await api.get<unknown>(`/users/list/${page}${usersListSearch(filters)}`),
  );
}

export const usersListQueryOptions = (page: number, filters: UsersListQuery) =>
  queryOptions({
    queryKey: userKeys.list(page, filters),
    queryFn: () => fetchUsersPage(page, filters),
    // Paging and filtering keep the last page on screen until the next arrives.
    placeholderData: keepPreviousData,
  });

export const useUsersList = (page: number, filters: UsersListQuery) =>
  useQuery(usersListQueryOptions(page, filters));
