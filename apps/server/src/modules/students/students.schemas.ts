import { z } from 'zod';
import { LANGUAGES, MESSAGE, emailSchema, idParamSchema, pageSchema } from '@dentflow/domain';

export const inviteBody = z.object({
  email: emailSchema,
  language: z.enum(LANGUAGES, { error: 'validation.invalid' }),
});
export type InviteInput = z.infer<typeof inviteBody>;

export const invitationIdParams = z.object({ id: idParamSchema });

const token = z
  .string({ error: MESSAGE.required })
  .trim()
  .min(1, MESSAGE.required)
  .max(200, MESSAGE.max);
export const tokenParams = z.object({ token });
export const acceptInvitationBody = z.object({ token });

export const pendingInvitationSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  language: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>;

export const studentSchema = z.object({
  id: z.number().int(),
  displayName: z.string(),
  email: z.string(),
  casesCount: z.number().int(),
});

export const studentsOverviewSchema = z.object({
  students: z.array(studentSchema),
  invitations: z.array(pendingInvitationSchema),
});
export type StudentsOverview = z.infer<typeof studentsOverviewSchema>;

export const studentIdParams = z.object({ studentId: idParamSchema });
export const studentCasesQuery = z.object({ page: pageSchema.default(0) });

/** What the register page may show about an invitation: who invites and their discount. */
export const invitationPreviewSchema = z.object({
  instructorName: z.string(),
  discount: z.number().int(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

export const acceptedInvitationSchema = z.object({
  instructorId: z.number().int(),
  instructorDiscount: z.number().int(),
});
export type AcceptedInvitation = z.infer<typeof acceptedInvitationSchema>;

/** An invitation addressed to the caller's email, as their profile lists it (never its token). */
export const receivedInvitationSchema = z.object({
  id: z.number().int(),
  instructorName: z.string(),
  discount: z.number().int(),
  expiresAt: z.string(),
});
export type ReceivedInvitation = z.infer<typeof receivedInvitationSchema>;
