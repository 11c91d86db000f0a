import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ServiceDataMetadata } from '@dentflow/domain';
import { api } from '../../../lib/api-client';

/** What the service data form offers: the surgical kits and the treatment purposes' names. */
export const fetchKits = () => api.get<ServiceDataMetadata>('/metadata/list/serviceData/subsystem');

/** Loaded once at start-up and kept for the session (it changes only by admin action). */
export const kitsQueryOptions = () =>
  queryOptions({
    queryKey: ['metadata', 'kits'],
    queryFn: fetchKits,
    staleTime: Infinity,
  });

export const useKits = () => useQuery(kitsQueryOptions());
