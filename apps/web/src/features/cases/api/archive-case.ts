import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { caseKeys, refreshCase } from './case-cache';

export const archiveCase = (caseId: number) => api.post<unknown>(`/case/${caseId}/archive`, {});

export function useArchiveCase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: archiveCase,
    onSettled: (_data, _error, caseId) => {
      void queryClient.invalidateQueries({ queryKey: caseKeys.archive() });
      return refreshCase(queryClient, caseId);
    },
  });
}
