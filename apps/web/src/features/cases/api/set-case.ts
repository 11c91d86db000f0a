import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  caseDetailSchema,
  type CaseDetail,
  type CaseSetBody,
  type Currency,
} from '@dentflow/domain';
import { ApiError, api } from '../../../lib/api-client';
import { refreshCase, storeCase } from './case-cache';

export const setCase = async (id: number, body: CaseSetBody): Promise<CaseDetail> =>
  caseDetailSchema.parse(await api.post<unknown>(`/case/${id}/set`, body));

export const isCaseChanged = (error: unknown) =>
  error instanceof ApiError && error.code === 'CASE_CHANGED';

/**
 * Saves patient, observation or address with the `modifiedAt` last read. A stale save (409
 * CASE_CHANGED) saves nothing; the case is read again so the form shows what changed.
 */
export function useSetCase(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CaseSetBody) => setCase(id, body),
    onSuccess: (detail) => storeCase(queryClient, detail),
    onError: (error) => {
      if (isCaseChanged(error)) void refreshCase(queryClient, id);
    },
  });
}

/**
 * Changes a case's currency (`POST /case/{id}/set` with `caseCurrency`): allowed while the case has
 * no live transaction, else 409 CASE_CURRENCY_LOCKED. For screens that hold a case preview rather
 * than the case (the checkout), so the case comes as an argument.
 */
export function useChangeCaseCurrency() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      caseCurrency,
      modifiedAt,
    }: {
      id: number;
      caseCurrency: Currency;
      modifiedAt: string;
    }) => setCase(id, { caseCurrency, modifiedAt }),
    onSuccess: (detail) => storeCase(queryClient, detail),
    onError: (_error, { id }) => void refreshCase(queryClient, id),
  });
}
