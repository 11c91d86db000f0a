import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { languageTag, transactionViewSchema, type TransactionView } from '@dentflow/domain';
import {
  API_BASE,
  ApiError,
  getAccessToken,
  readEnvelope,
  refreshSession,
} from '../../../lib/api-client';
import { currentLanguage, i18n } from '../../../lib/i18n';
import { refreshAfterTransactionChange } from './transaction-keys';

export interface ReceiptSubmission {
  justification: string;
  file: File | null;
}

/**
 * One multipart POST with upload progress. XMLHttpRequest rather than the api client's fetch:
 * only it reports upload progress. Same headers as the client (bearer token, language).
 */
function postMultipart(
  path: string,
  form: FormData,
  token: string | null,
  onProgress: (percent: number) => void,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress(Math.min(100, Math.floor((event.loaded / event.total) * 100)));
      }
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new ApiError(i18n.t('feedback.networkError'), 'NETWORK_ERROR', 0));
    xhr.open('POST', `${API_BASE}${path}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', languageTag(currentLanguage()));
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.send(form);
  });
}

/**
 * `POST /case/transaction/{id}/submitReceipt`: multipart `justification` and, when chosen, the
 * `receipt` file. On a 401 the session is refreshed once (through the api client) and the form
 * sent again, as the client does for JSON calls.
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
  const path = `/case/transaction/${transactionId}/submitReceipt`;

  let answer = await postMultipart(path, form, getAccessToken(), onProgress);
  if (answer.status === 401) {
    const session = await refreshSession();
    onProgress(0);
    answer = await postMultipart(path, form, session.accessToken, onProgress);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(answer.text);
  } catch {
    payload = undefined;
  }
  return transactionViewSchema.parse(readEnvelope(answer.status, payload));
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
