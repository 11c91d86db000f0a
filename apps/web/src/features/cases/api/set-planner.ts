import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { refreshCase } from './case-cache';

export const setPlanner = (caseId: number, body: { plannerId: number; serviceIds?: number[] }) =>
  api.post<unknown>(`/case/${caseId}/planner`, body);

export function useSetPlanner(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { plannerId: number; serviceIds?: number[] }) => setPlanner(caseId, body),
    onSettled: () => refreshCase(queryClient, caseId),
  });
}
