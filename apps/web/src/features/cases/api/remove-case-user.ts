import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { refreshCase } from './case-cache';

export const removeCaseUser = (caseId: number, userId: number) =>
  api.delete<unknown>(`/case/${caseId}/users/${userId}`);

export function useRemoveCaseUser(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => removeCaseUser(caseId, userId),
    onSettled: () => refreshCase(queryClient, caseId),
  });
}
