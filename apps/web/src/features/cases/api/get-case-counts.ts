import { queryOptions, useQuery } from '@tanstack/react-query';
import { caseCountsSchema, type CaseCounts } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { caseKeys } from './case-cache';

export const fetchCaseCounts = async (): Promise<CaseCounts> =>
  caseCountsSchema.parse(await api.get<unknown>('/case/counts'));

export const caseCountsQueryOptions = () =>
  queryOptions({ queryKey: caseKeys.counts(), queryFn: fetchCaseCounts, staleTime: 60_000 });

export const useCaseCounts = () => useQuery(caseCountsQueryOptions());
