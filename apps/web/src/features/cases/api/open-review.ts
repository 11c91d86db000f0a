import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { refreshCase } from './case-cache';

export interface ReviewBody {
  reasonId?: number;
  description: string;
}

export const openReview = (caseId: number, body: ReviewBody) =>
  api.post<unknown>(`/case/${caseId}/review`, body);

export function useOpenReview(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReviewBody) => openReview(caseId, body),
    onSettled: () => refreshCase(queryClient, caseId),
  });
}
