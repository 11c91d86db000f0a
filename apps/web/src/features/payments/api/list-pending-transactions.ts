import { useQuery } from '@tanstack/react-query';
import { pendingTransactionSchema, type PendingTransaction } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { URL_STALE_MS } from '../../attachments/api/use-attachment-url';
import { transactionKeys } from './transaction-keys';

const pendingListSchema = pendingTransactionSchema.array();

export const fetchPendingTransactions = async (): Promise<PendingTransaction[]> =>
  pendingListSchema.parse(await api.get<unknown>('/transactions/pending'));

/** Transactions waiting for staff (supervisors and admins), oldest first. */
export const usePendingTransactions = () =>
  useQuery({
    queryKey: transactionKeys.pending(),
    queryFn: fetchPendingTransactions,
    // Receipts carry signed links that expire after 5 minutes.
    refetchInterval: URL_STALE_MS,
  });
