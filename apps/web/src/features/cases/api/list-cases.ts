import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import {
  casePageSchema,
  isCaseListFilter,
  type CaseListFilter,
  type CasePage,
} from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { caseKeys } from './case-cache';

export interface CaseListQuery {
  filter: CaseListFilter;
  page: number;
  q?: string;
  pageSize?: number;
  /** Search every list, not only the filter's (with a search text). */
  all?: boolean;
}

/** The list a /cases/:filter address shows: its page, search text and scope. */
export function caseListQueryOfUrl(
  filter: CaseListFilter,
  params: URLSearchParams,
): CaseListQuery & { q: string; all: boolean } {
  return {
    filter,
    page: Math.max(0, Number(params.get('page')) || 0),
    q: params.get('q') ?? '',
    all: params.get('all') === '1',
  };
}

export async function fetchCaseList({
  filter,
  page,
  q,
  pageSize,
  all,
}: CaseListQuery): Promise<CasePage> {
  const params = new URLSearchParams();
  if (q?.trim()) params.set('q', q.trim());
  if (all && q?.trim()) params.set('scope', 'all');
  if (pageSize) params.set('pageSize', String(pageSize));
  const query = params.size ? `?${params}` : '';
  return casePageSchema.parse(await api.get<unknown>(`/case/list/${filter}/${page}${query}`));
}

export const caseListQueryOptions = (query: CaseListQuery) =>
  queryOptions({
    queryKey: [
      ...caseKeys.lists(),
      query.filter,
      query.page,
      query.q?.trim() ?? '',
      query.pageSize ?? 0,
      query.all ? 'all' : 'filter',
    ],
    queryFn: () => fetchCaseList(query),
    // Paging and searching keep the last page on screen until the next arrives.
    placeholderData: keepPreviousData,
  });

export const useCaseList = (query: CaseListQuery) => useQuery(caseListQueryOptions(query));

/** Fetches the list a /cases/:filter address will show (nothing for an unknown filter). */
export async function prefetchCaseList(
  queryClient: QueryClient,
  filter: string | undefined,
  params: URLSearchParams,
): Promise<void> {
  if (!isCaseListFilter(filter)) return;
  await queryClient.prefetchQuery(caseListQueryOptions(caseListQueryOfUrl(filter, params)));
}
