import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { caseEventSchema, type CaseEvent } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { caseKeys } from './case-cache';

export const fetchCaseHistory = async (id: number): Promise<CaseEvent[]> =>
  z.array(caseEventSchema).parse(await api.get<unknown>(`/case/${id}/history`));

export const caseHistoryQueryOptions = (id: number) =>
  queryOptions({ queryKey: caseKeys.history(id), queryFn: () => fetchCaseHistory(id) });

export const useCaseHistory = (id: number) => useQuery(caseHistoryQueryOptions(id));
