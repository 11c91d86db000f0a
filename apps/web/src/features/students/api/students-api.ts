import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { myInstructorAnswerSchema, studentCasesPageSchema, type Language } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { profileQueryKey } from '../../profile/api/get-profile';

/** The answers of the students routes (apps/server/src/modules/students/students.schemas.ts). */
const pendingInvitationSchema = z.object({
  id: z.number(),
  email: z.string(),
  language: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>;

const studentsOverviewSchema = z.object({
  students: z.array(
    z.object({
      id: z.number(),
      displayName: z.string(),
      email: z.string(),
      casesCount: z.number(),
    }),
  ),
  invitations: z.array(pendingInvitationSchema),
});
export type StudentsOverview = z.infer<typeof studentsOverviewSchema>;
export type Student = StudentsOverview['students'][number];

const invitationPreviewSchema = z.object({ instructorName: z.string(), discount: z.number() });

const receivedInvitationsSchema = z.array(
  z.object({
    id: z.number(),
    instructorName: z.string(),
    discount: z.number(),
    expiresAt: z.string(),
  }),
);
export type ReceivedInvitation = z.infer<typeof receivedInvitationsSchema>[number];

export interface InviteInput {
  email: string;
  language: Language;
}

/** Every change refreshes the one overview query. */
export const studentsKeys = {
  overview: ['students', 'overview'] as const,
  invitation: (token: string) => ['students', 'invitation', token] as const,
  received: ['students', 'received'] as const,
  cases: (studentId: number, page: number) => ['students', 'cases', studentId, page] as const,
};

export const useStudentsOverview = () =>
  useQuery({
    queryKey: studentsKeys.overview,
    queryFn: async () => studentsOverviewSchema.parse(await api.get<unknown>('/students')),
  });

/** One page (from 0) of a student's cases, read only; the previous page stays while the next loads. */
export const useStudentCases = (studentId: number, page: number) =>
  useQuery({
    queryKey: studentsKeys.cases(studentId, page),
    queryFn: async () =>
      studentCasesPageSchema.parse(
        await api.get<unknown>(`/students/${studentId}/cases?page=${page}`),
      ),
    placeholderData: keepPreviousData,
  });

function useOverviewMutation<T>(mutationFn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studentsKeys.overview }),
  });
}

export const useInviteDoctor = () =>
  useOverviewMutation((input: InviteInput) => api.post<unknown>('/users/invite_doctor', input));

export const useResendInvitation = () =>
  useOverviewMutation((id: number) => api.post<unknown>(`/students/invitations/${id}/resend`, {}));

export const useRevokeInvitation = () =>
  useOverviewMutation((id: number) => api.delete<unknown>(`/students/invitations/${id}`));

/** The register page's look at an invitation link; an unusable one answers 404 (no retry). */
export const useInvitationPreview = (token: string | null) =>
  useQuery({
    queryKey: studentsKeys.invitation(token ?? ''),
    queryFn: async () =>
      invitationPreviewSchema.parse(
        await api.get<unknown>(`/students/invitations/${encodeURIComponent(token ?? '')}`),
      ),
    enabled: Boolean(token),
    retry: false,
  });

/** A signed-in account becomes the invitation's instructor's student (everything cached refreshes). */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.post<unknown>('/profile/acceptInvitation', { token }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** The invitations addressed to the signed-in user's email that they could accept now. */
export const useReceivedInvitations = () =>
  useQuery({
    queryKey: studentsKeys.received,
    queryFn: async () =>
      receivedInvitationsSchema.parse(await api.get<unknown>('/profile/invitations')),
  });

/**
 * Accepts one of the received invitations. The list refreshes either way (a refused one was
 * revoked or expired meanwhile); on success the profile queries too, the instructor's included
 * (its key starts with the profile's).
 */
export function useAcceptReceivedInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<unknown>(`/profile/invitations/${id}/accept`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: profileQueryKey });
      await queryClient.invalidateQueries({ queryKey: myInstructorKey });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: studentsKeys.received }),
  });
}

export const myInstructorKey = ['students', 'my-instructor'] as const;

/** The signed-in user's instructor and the discount they get now (null without one). */
export const useMyInstructor = () =>
  useQuery({
    queryKey: myInstructorKey,
    queryFn: async () =>
      myInstructorAnswerSchema.parse(await api.get<unknown>('/profile/instructor')),
  });

/**
 * Stop being the instructor's student, naming the instructor shown (a changed link is a 404, not
 * the end of another one); the profile queries (instructor info included) refresh.
 */
export function useLeaveInstructor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (instructorId: number) =>
      api.post<unknown>('/profile/leaveInstructor', { instructorId }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: myInstructorKey });
      await queryClient.invalidateQueries({ queryKey: profileQueryKey });
    },
  });
}
