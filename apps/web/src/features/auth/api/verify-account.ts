import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const verifyAccount = (token: string) =>
  api.post<{ verified: boolean }>('/auth/verifyAccount', { token });

/** A query (not a mutation) so a remount or StrictMode runs the one-time token only once. */
export const verifyAccountQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'verifyAccount', token],
    queryFn: () => verifyAccount(token),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });

export const useVerifyAccount = (token: string | undefined) =>
  useQuery({ ...verifyAccountQueryOptions(token ?? ''), enabled: !!token });
