import { useQuery } from '@tanstack/react-query';
import { userPickSchema, type UserPick } from '@dentflow/domain';
import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { partnerKeys } from './partner-keys';

/** Users whose name contains `q` (the server answers at most 10), for the link pickers. */
export async function searchUsersByName(q: string): Promise<UserPick[]> {
  return z
    .array(userPickSchema)
    .parse(await api.get<unknown>(`/users/query_user/name/${encodeURIComponent(q)}`));
}

/** Searches once at least two characters are typed. */
export const useUserSearch = (q: string) =>
  useQuery({
    queryKey: partnerKeys.userSearch(q.trim()),
    queryFn: () => searchUsersByName(q.trim()),
    enabled: q.trim().length >= 2,
    staleTime: 30_000,
  });
