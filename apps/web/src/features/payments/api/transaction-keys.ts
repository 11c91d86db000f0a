import type { QueryClient } from '@tanstack/react-query';
import { refreshCase } from '../../cases/api/case-cache';

/** Query keys of the payments feature, in one place so mutations invalidate the right entries. */
export const transactionKeys = {
  forCase: (caseId: number) => ['case', caseId, 'transactions'] as const,
  pending: () => ['transactions', 'pending'] as const,
  deferred: () => ['transactions', 'deferred'] as const,
  paymentLink: (transactionId: number) => ['transactions', transactionId, 'paymentLink'] as const,
  providerReturn: (provider: string, transactionId: number, token: string) =>
    ['transactions', transactionId, 'return', provider, token] as const,
};

/**
 * After any change to a transaction: its case's list and the supervisors' queues (pending, billed
 * later) are read again, and so is the case itself (payments move its status, checks and reviews).
 */
export function refreshAfterTransactionChange(
  queryClient: QueryClient,
  caseId: number,
): Promise<void> {
  void queryClient.invalidateQueries({ queryKey: transactionKeys.forCase(caseId) });
  void queryClient.invalidateQueries({ queryKey: transactionKeys.pending() });
  void queryClient.invalidateQueries({ queryKey: transactionKeys.deferred() });
  return refreshCase(queryClient, caseId);
}
