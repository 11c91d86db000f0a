import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Spec §3 surgical kit: a manufacturer with its systems. */
export interface SurgicalKit {
  manufactureName: string;
  systems: string[];
}

export const fetchKits = () => api.get<SurgicalKit[]>('/metadata/list/serviceData/subsystem');

/** Loaded once at start-up and kept for the session (it changes only by admin action). */
export const kitsQueryOptions = () =>
  queryOptions({
    queryKey: ['metadata', 'kits'],
    queryFn: fetchKits,
    staleTime: Infinity,
  });

export const useKits = () => useQuery(kitsQueryOptions());
