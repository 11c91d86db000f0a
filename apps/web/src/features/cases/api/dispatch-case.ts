import { useMutation, useQueryClient } from '@tanstack/react-query';
import { caseDetailSchema, type CaseDetail, type CaseDispatchBody } from '@dentflow/domain';
import { ApiError, api } from '../../../lib/api-client';
import { refreshCase, storeCase } from './case-cache';

export const dispatchCase = async (id: number, body: CaseDispatchBody): Promise<CaseDetail> =>
  caseDetailSchema.parse(await api.post<unknown>(`/case/${id}/dispatch`, body));

/**
 * Records the order's dispatch (a printer or staff, once the case is made). A 409 (someone
 * dispatched it first, or the case moved) reads the case again.
 */
export function useDispatchCase(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CaseDispatchBody) => dispatchCase(id, body),
    onSuccess: (detail) => storeCase(queryClient, detail),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) void refreshCase(queryClient, id);
    },
  });
}
