import { useMutation, useQueryClient } from '@tanstack/react-query';
import { transactionViewSchema, type PaymentMethod, type TransactionView } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { refreshAfterTransactionChange } from './transaction-keys';

/** `POST /case/transaction/{caseId}/new`: the id is the CASE's; pays its unpaid services. */
export const createTransaction = async (
  caseId: number,
  paymentMethod: PaymentMethod,
): Promise<TransactionView> =>
  transactionViewSchema.parse(
    await api.post<unknown>(`/case/transaction/${caseId}/new`, { paymentMethod }),
  );

export function useCreateTransaction(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paymentMethod: PaymentMethod) => createTransaction(caseId, paymentMethod),
    // 409 NOTHING_TO_PAY means someone else already created it: the list is read again too.
    onSettled: () => refreshAfterTransactionChange(queryClient, caseId),
  });
}
