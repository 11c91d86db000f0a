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
 * Spec §4 client cache: a cached case is replaced only when its `modifiedAt` differs. Used as the
 * detail query's `structuralSharing`, so a refetch of an unchanged case keeps the same object (and
 * nothing re-renders or loses its form state).
 */
export function keepUnchangedCase(cached: unknown, incoming: unknown): unknown {
  if (!isCaseLike(incoming)) return incoming;
  if (forcedReloads.delete(incoming.id)) return incoming;
  return isCaseLike(cached) && !shouldReplaceCase(cached, incoming) ? cached : incoming;
}

/**
 * Cases whose next read must replace the cached copy even with the same `modifiedAt`: the
 * caller's own change elsewhere (an uploaded file) alters what the case shows (its checks and
 * allowed moves) without touching the case record itself.
 */
const forcedReloads = new Set<number>();

/** Reads a case again and replaces the cached copy whatever its `modifiedAt`. */
export function reloadCase(queryClient: QueryClient, id: number): Promise<void> {
  forcedReloads.add(id);
  void refreshCase(queryClient, id);
  // Read now even when no screen shows it, so the mark is spent on this read.
  return queryClient.refetchQueries({ queryKey: caseKeys.detail(id) });
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
