import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { transactionViewSchema, type TransactionView } from '@dentflow/domain';
import { apiUpload } from '../../../lib/api-client';
import { refreshAfterTransactionChange } from './transaction-keys';

export interface ReceiptSubmission {
  justification: string;
  file: File | null;
}

/**
 * `POST /case/transaction/{id}/submitReceipt`: multipart `justification` and, when chosen, the
 * `receipt` file, with upload progress (the api client refreshes the session once on a 401 and
 * sends the form again).
 */
export async function submitReceipt(
  transactionId: number,
  submission: ReceiptSubmission,
  onProgress: (percent: number) => void = () => {},
): Promise<TransactionView> {
  const form = new FormData();
  form.append('justification', submission.justification.trim());
  // The file goes last: the server reads the text field before the file stream.
  if (submission.file) form.append('receipt', submission.file, submission.file.name);
  const answer = await apiUpload<unknown>(
    `/case/transaction/${transactionId}/submitReceipt`,
    form,
    { onProgress },
  );
  return transactionViewSchema.parse(answer);
}

/** The receipt submission with its 0–100 upload progress. */
export function useSubmitReceipt(transaction: Pick<TransactionView, 'id' | 'caseId'>) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState(0);
  const mutation = useMutation({
    mutationFn: (submission: ReceiptSubmission) => {
      setProgress(0);
      return submitReceipt(transaction.id, submission, setProgress);
    },
    onSettled: () => refreshAfterTransactionChange(queryClient, transaction.caseId),
  });
  return { ...mutation, progress };
}
