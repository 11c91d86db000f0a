import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { refreshCase } from './case-cache';

export const removeService = (caseId: number, serviceId: number) =>
  api.delete<unknown>(`/case/${caseId}/services/${serviceId}`);

export function useRemoveService(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (serviceId: number) => removeService(caseId, serviceId),
    onSettled: () => refreshCase(queryClient, caseId),
  });
}
