import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface PlannerRef {
  id: number;
  displayName: string;
}

export const fetchPlanners = () => api.get<PlannerRef[]>('/users/planners');

export const plannersQueryOptions = () =>
  queryOptions({ queryKey: ['users', 'planners'], queryFn: fetchPlanners, staleTime: 5 * 60_000 });

export const usePlanners = (enabled: boolean) => useQuery({ ...plannersQueryOptions(), enabled });
