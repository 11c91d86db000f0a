import { queryOptions, useQuery } from '@tanstack/react-query';
import { caseTransactionsSchema, type CaseTransactions } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { URL_STALE_MS } from '../../attachments/api/use-attachment-url';
import { transactionKeys } from './transaction-keys';

export const fetchCaseTransactions = async (caseId: number): Promise<CaseTransactions> =>
  caseTransactionsSchema.parse(await api.get<unknown>(`/case/${caseId}/transactions`));

export const caseTransactionsQueryOptions = (caseId: number) =>
  queryOptions({
    queryKey: transactionKeys.forCase(caseId),
    queryFn: () => fetchCaseTransactions(caseId),
    // Receipts carry signed links that expire after 5 minutes.
    refetchInterval: URL_STALE_MS,
  });

/** The case's transactions (newest first), its unpaid services and the methods to pay them. */
export const useCaseTransactions = (caseId: number) =>
  useQuery({ ...caseTransactionsQueryOptions(caseId), enabled: caseId > 0 });
