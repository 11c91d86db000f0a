import type { QueryClient } from '@tanstack/react-query';
import { shouldReplaceCase, type CaseDetail } from '@dentflow/domain';

/** Query keys of the cases feature, in one place so mutations invalidate the right entries. */
export const caseKeys = {
  all: ['cases'] as const,
  lists: () => ['cases', 'list'] as const,
  counts: () => ['cases', 'counts'] as const,
  detail: (id: number) => ['cases', 'detail', id] as const,
  history: (id: number) => ['cases', 'history', id] as const,
  archive: () => ['cases', 'archive'] as const,
};

/**
 * Client cache: a cached case is replaced only when its `modifiedAt` differs. Used as the
 * detail query's `structuralSharing`, so a refetch of an unchanged case keeps the same object (and
 * nothing re-renders or loses its form state).
 */
export function keepUnchangedCase(cached: unknown, incoming: unknown): unknown {
  if (!isCaseLike(incoming)) return incoming;
  return isCaseLike(cached) && !shouldReplaceCase(cached, incoming) ? cached : incoming;
}

const isCaseLike = (value: unknown): value is CaseDetail =>
  !!value && typeof value === 'object' && 'modifiedAt' in value && 'id' in value;

/** Puts a case a mutation answered with into the cache, by the same rule; lists are refreshed. */
export function storeCase(queryClient: QueryClient, detail: CaseDetail): void {
  queryClient.setQueryData<CaseDetail>(
    caseKeys.detail(detail.id),
    (cached) => keepUnchangedCase(cached, detail) as CaseDetail,
  );
  void queryClient.invalidateQueries({ queryKey: caseKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: caseKeys.counts() });
  void queryClient.invalidateQueries({ queryKey: caseKeys.history(detail.id) });
}

/** After a mutation whose answer is not the case: everything about the case is read again. */
export function refreshCase(queryClient: QueryClient, id: number): Promise<void> {
  void queryClient.invalidateQueries({ queryKey: caseKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: caseKeys.counts() });
  void queryClient.invalidateQueries({ queryKey: caseKeys.history(id) });
  return queryClient.invalidateQueries({ queryKey: caseKeys.detail(id) });
}
