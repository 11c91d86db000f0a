import { useMutation, useQueryClient } from '@tanstack/react-query';
import { caseDetailSchema, type CaseDetail, type NewCaseBody } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { storeCase } from './case-cache';

export const createCase = async (body: NewCaseBody): Promise<CaseDetail> =>
  caseDetailSchema.parse(await api.post<unknown>('/case/new', body));

export function useCreateCase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCase,
    onSuccess: (detail) => storeCase(queryClient, detail),
  });
}
