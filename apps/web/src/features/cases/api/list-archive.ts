import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  casePageSchema,
  type ArchivableStatus,
  type CasePage,
  type Currency,
} from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { caseKeys } from './case-cache';

export interface ArchiveSearchQuery {
  patient?: string;
  /** YYYY-MM-DD */
  from?: string;
  to?: string;
  category?: number;
  product?: number;
  currency?: Currency;
  status?: ArchivableStatus;
}

export async function fetchArchive(page: number, search: ArchiveSearchQuery): Promise<CasePage> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value !== undefined && value !== '' && value !== null) params.set(key, String(value));
  }
  const query = params.size ? `?${params}` : '';
  return casePageSchema.parse(await api.get<unknown>(`/case/archive/${page}${query}`));
}

export const archiveQueryOptions = (page: number, search: ArchiveSearchQuery) =>
  queryOptions({
    queryKey: [...caseKeys.archive(), page, search],
    queryFn: () => fetchArchive(page, search),
    placeholderData: keepPreviousData,
  });

export const useArchive = (page: number, search: ArchiveSearchQuery) =>
  useQuery(archiveQueryOptions(page, search));
