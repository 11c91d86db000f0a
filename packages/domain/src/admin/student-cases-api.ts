/**
 * An instructor's read-only list of one student's cases: `GET /api/v1/students/{studentId}/cases`;
 * shared by the server's route and the web's students page.
 */
import { z } from 'zod';
import { CASE_STATUSES } from '../cases/case-status';

export const studentCaseSchema = z.object({
  id: z.number().int(),
  patient: z.object({ fname: z.string(), lname: z.string() }),
  caseStatus: z.enum(CASE_STATUSES),
  caseArchived: z.boolean(),
  modifiedAt: z.string(),
  services: z.array(z.object({ id: z.number().int(), productName: z.string() })),
});
export type StudentCase = z.infer<typeof studentCaseSchema>;

export const studentCasesPageSchema = z.object({
  items: z.array(studentCaseSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type StudentCasesPage = z.infer<typeof studentCasesPageSchema>;
