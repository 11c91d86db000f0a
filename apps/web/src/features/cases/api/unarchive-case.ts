import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { caseKeys, refreshCase } from './case-cache';

export const unarchiveCase = (caseId: number) => api.post<unknown>(`/case/${caseId}/unarchive`, {});

export function useUnarchiveCase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unarchiveCase,
    onSettled: (_data, _error, caseId) => {
      void queryClient.invalidateQueries({ queryKey: caseKeys.archive() });
      return refreshCase(queryClient, caseId);
    },
  });
}
