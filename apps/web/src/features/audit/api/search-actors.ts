import { useQuery } from '@tanstack/react-query';
import { userPickSchema, type UserPick } from '@dentflow/domain';
import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { auditKeys } from './audit-keys';

/** Users whose name contains `q` (at most 10), for the actor filter. */
export async function searchActors(q: string): Promise<UserPick[]> {
  return z
    .array(userPickSchema)
    .parse(await api.get<unknown>(`/users/query_user/name/${encodeURIComponent(q)}`));
}

/** Searches once at least two characters that are not a plain id are typed. */
export const useActorSearch = (q: string) =>
  useQuery({
    queryKey: auditKeys.actors(q.trim()),
    queryFn: () => searchActors(q.trim()),
    enabled: q.trim().length >= 2 && !/^\d+$/.test(q.trim()),
    staleTime: 30_000,
  });
