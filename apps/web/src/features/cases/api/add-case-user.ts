import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { refreshCase } from './case-cache';

export interface CaseUserBody {
  userId: number;
  triggerNotification: boolean;
}

export const addCaseUser = (caseId: number, body: CaseUserBody) =>
  api.post<unknown>(`/case/${caseId}/users`, body);

export function useAddCaseUser(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CaseUserBody) => addCaseUser(caseId, body),
    onSettled: () => refreshCase(queryClient, caseId),
  });
}
