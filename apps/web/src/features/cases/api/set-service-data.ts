import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ServiceDataBody } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { refreshCase } from './case-cache';

export const setServiceData = (caseId: number, serviceId: number, body: ServiceDataBody) =>
  api.post<unknown>(`/case/${caseId}/services/${serviceId}/data`, body);

/** 400 answers carry translated `fields` for the form. */
export function useSetServiceData(caseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ serviceId, body }: { serviceId: number; body: ServiceDataBody }) =>
      setServiceData(caseId, serviceId, body),
    onSuccess: () => refreshCase(queryClient, caseId),
  });
}
