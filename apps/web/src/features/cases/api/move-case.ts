import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CaseMoveBody } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { refreshCase } from './case-cache';

export const moveCase = (caseId: number, body: CaseMoveBody) =>
  api.post<unknown>(`/case/${caseId}/move`, body);

/** A status move; 409 INVALID_TRANSITION (someone moved it first) reloads the case too. */
export function useMoveCase(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CaseMoveBody) => moveCase(caseId, body),
    onSettled: () => refreshCase(queryClient, caseId),
  });
}
