import { queryOptions, useQuery } from '@tanstack/react-query';
import { caseDetailSchema, type CaseDetail } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { caseKeys, keepUnchangedCase } from './case-cache';

export const fetchCase = async (id: number): Promise<CaseDetail> =>
  caseDetailSchema.parse(await api.get<unknown>(`/case/${id}/get`));

export const caseQueryOptions = (id: number) =>
  queryOptions({
    queryKey: caseKeys.detail(id),
    queryFn: () => fetchCase(id),
    // Replaced only when modifiedAt differs.
    structuralSharing: keepUnchangedCase,
  });

export const useCase = (id: number) => useQuery({ ...caseQueryOptions(id), enabled: id > 0 });
