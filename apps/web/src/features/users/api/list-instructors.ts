import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { userKeys } from './user-keys';

/** `GET /users/instructor/list`: verified instructors a student may be linked to. */
const instructorOptionSchema = z.object({
  id: z.number().int(),
  displayName: z.string(),
  instructorDiscount: z.number().optional(),
});
export type InstructorOption = z.infer<typeof instructorOptionSchema>;

export const fetchInstructors = async (): Promise<InstructorOption[]> =>
  z.array(instructorOptionSchema).parse(await api.get<unknown>('/users/instructor/list'));

export const useInstructors = (enabled = true) =>
  useQuery({ queryKey: userKeys.instructors(), queryFn: fetchInstructors, enabled });
