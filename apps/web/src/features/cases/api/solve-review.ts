import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { refreshCase } from './case-cache';

export const solveReview = (caseId: number, reviewId: number) =>
  api.post<unknown>(`/case/${caseId}/review/${reviewId}/solve`, {});

/** 'Problem solved': every open review of the case is solved, one call each. */
export function useSolveReviews(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (reviewIds: number[]) => {
      for (const reviewId of reviewIds) await solveReview(caseId, reviewId);
    },
    onSettled: () => refreshCase(queryClient, caseId),
  });
}
