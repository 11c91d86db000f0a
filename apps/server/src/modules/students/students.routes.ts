import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema, myInstructorAnswerSchema, studentCasesPageSchema } from '@dentflow/domain';
import { responses } from '../../http/envelope';
import { requestLanguage } from '../../http/language';
import { callerId, requestMeta } from '../../http/request-meta';
import {
  acceptInvitationBody,
  acceptedInvitationSchema,
  invitationIdParams,
  invitationPreviewSchema,
  inviteBody,
  pendingInvitationSchema,
  receivedInvitationSchema,
  studentCasesQuery,
  studentIdParams,
  studentsOverviewSchema,
  tokenParams,
} from './students.schemas';
import type { StudentsService } from './students.service';

const tags = ['students'];
const instructor = { permission: 'instructor' as const };

/** An instructor's invitations and students; the invitee's side of a link. */
export function registerStudentsRoutes(app: FastifyInstance, students: StudentsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/v1/users/invite_doctor', {
    config: instructor,
    schema: {
      tags,
      summary: 'Invite a doctor by email (mail in their language; 409 when already a student)',
      body: inviteBody,
      response: responses(pendingInvitationSchema),
    },
    handler: async (req) => ({
      obj: await students.invite(callerId(req), req.body, requestMeta(req)),
    }),
  });

  r.get('/api/v1/students', {
    config: instructor,
    schema: {
      tags,
      summary: "The caller's students with their cases count, and pending invitations",
      response: responses(studentsOverviewSchema),
    },
    handler: async (req) => ({ obj: await students.overview(callerId(req)) }),
  });

  r.get('/api/v1/students/:studentId/cases', {
    config: instructor,
    schema: {
      tags,
      summary:
        "One page of a student's cases, archived included (404 when not the caller's student)",
      params: studentIdParams,
      querystring: studentCasesQuery,
      response: responses(studentCasesPageSchema),
    },
    handler: async (req) => ({
      obj: await students.studentCases(
        callerId(req),
        req.params.studentId,
        req.query.page,
        requestLanguage(req),
      ),
    }),
  });

  r.post('/api/v1/students/invitations/:id/resend', {
    config: instructor,
    schema: {
      tags,
      summary: 'Mail a pending invitation again with a new link (own invitations only)',
      params: invitationIdParams,
      response: responses(pendingInvitationSchema),
    },
    handler: async (req) => ({
      obj: await students.resend(callerId(req), req.params.id, requestMeta(req)),
    }),
  });

  r.delete('/api/v1/students/invitations/:id', {
    config: instructor,
    schema: {
      tags,
      summary: 'Revoke a pending invitation (own invitations only)',
      params: invitationIdParams,
      response: responses(z.object({ id: z.number().int() })),
    },
    handler: async (req) => ({
      obj: await students.revoke(callerId(req), req.params.id, requestMeta(req)),
    }),
  });

  r.get('/api/v1/students/invitations/:token', {
    config: { permission: 'public' },
    schema: {
      tags,
      summary: "An invitation link's instructor and discount (404 when unusable)",
      params: tokenParams,
      response: responses(invitationPreviewSchema),
    },
    handler: async (req) => ({ obj: await students.preview(req.params.token) }),
  });

  r.post('/api/v1/profile/acceptInvitation', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "Become the invitation's instructor's student, with their discount",
      body: acceptInvitationBody,
      response: responses(acceptedInvitationSchema),
    },
    handler: async (req) => ({
      obj: await students.accept(callerId(req), req.body.token, requestMeta(req)),
    }),
  });

  r.get('/api/v1/profile/instructor', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "The caller's instructor and the discount the caller gets now (null without one)",
      response: responses(myInstructorAnswerSchema),
    },
    handler: async (req) => ({ obj: await students.myInstructor(callerId(req)) }),
  });

  r.post('/api/v1/profile/leaveInstructor', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "Stop being the named instructor's student (404 unless they are the caller's)",
      body: z.object({ instructorId: idSchema }).strict(),
      response: responses(z.object({ left: z.literal(true) })),
    },
    handler: async (req) => ({
      obj: await students.leaveInstructor(callerId(req), req.body.instructorId, requestMeta(req)),
    }),
  });

  r.get('/api/v1/profile/invitations', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "Usable invitations addressed to the caller's email, with instructor and discount",
      response: responses(z.array(receivedInvitationSchema)),
    },
    handler: async (req) => ({ obj: await students.received(callerId(req)) }),
  });

  r.post('/api/v1/profile/invitations/:id/accept', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "Accept one of the caller's invitations (404 when not theirs or unusable)",
      params: invitationIdParams,
      response: responses(acceptedInvitationSchema),
    },
    handler: async (req) => ({
      obj: await students.acceptReceived(callerId(req), req.params.id, requestMeta(req)),
    }),
  });
}
