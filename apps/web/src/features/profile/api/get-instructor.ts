import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface InstructorInfo {
  instructor_id: number | null;
  instructor_discount: number;
}

export const fetchInstructor = () => api.get<InstructorInfo>('/profile/getInstructor');

export const instructorQueryOptions = () =>
  queryOptions({ queryKey: ['profile', 'instructor'], queryFn: fetchInstructor });
