import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  transactionViewSchema,
  type CancelRequest,
  type InvoiceCustomerForm,
  type TransactionView,
} from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { refreshAfterTransactionChange } from './transaction-keys';

/** The JSON commands on one transaction (the receipt, multipart, is in submit-receipt.ts). */
export type TransactionCommand =
  | { kind: 'authReceipt'; approve: boolean }
  | { kind: 'setInvoiceCustomer'; body: InvoiceCustomerForm }
  | { kind: 'setInvoiceNumber'; invoiceNumber: string }
  | { kind: 'checkPhysicalPayment' }
  | { kind: 'cancel'; body: CancelRequest }
  | { kind: 'authCancel'; authorize: boolean }
  | { kind: 'refresh' };

function send(transactionId: number, command: TransactionCommand): Promise<unknown> {
  const base = `/case/transaction/${transactionId}`;
  switch (command.kind) {
    case 'authReceipt':
      return api.post(`${base}/authReceipt`, { approve: command.approve });
    case 'setInvoiceCustomer':
      return api.post(`${base}/setInvoiceCustomer`, command.body);
    case 'setInvoiceNumber':
      return api.post(`${base}/setInvoiceNumber`, { invoiceNumber: command.invoiceNumber });
    case 'checkPhysicalPayment':
      return api.post(`${base}/checkPhysicalPayment`, { confirm: true });
    case 'cancel':
      return api.post(`${base}/cancel`, command.body);
    case 'authCancel':
      return api.post(`${base}/authCancel`, { authorize: command.authorize });
    case 'refresh':
      return api.get(`${base}/refresh`);
  }
}

export const sendTransactionCommand = async (
  transactionId: number,
  command: TransactionCommand,
): Promise<TransactionView> => transactionViewSchema.parse(await send(transactionId, command));

/**
 * A command on a transaction. Whatever the answer (a 409 TRANSACTION_STATE means someone acted
 * first), the case's transactions, the queue and the case are read again.
 */
export function useTransactionCommand(transaction: Pick<TransactionView, 'id' | 'caseId'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (command: TransactionCommand) => sendTransactionCommand(transaction.id, command),
    onSettled: () => refreshAfterTransactionChange(queryClient, transaction.caseId),
  });
}
