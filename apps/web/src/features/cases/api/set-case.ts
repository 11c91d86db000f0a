import { useMutation, useQueryClient } from '@tanstack/react-query';
import { caseDetailSchema, type CaseDetail, type CaseSetBody } from '@dentflow/domain';
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
