import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddServiceBody } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { refreshCase } from './case-cache';

export const addService = (caseId: number, body: AddServiceBody) =>
  api.post<unknown>(`/case/${caseId}/services/add`, body);

export function useAddService(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AddServiceBody) => addService(caseId, body),
    onSettled: () => refreshCase(queryClient, caseId),
  });
}
