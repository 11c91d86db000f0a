import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamSchema,
  adminAnnouncementListSchema,
  adminAnnouncementSchema,
  announcementSaveSchema,
  userProfileSchema,
} from '@dentflow/domain';
import type { Config } from '../../config';
import { responses } from '../../http/envelope';
import { caller, callerId, requestMeta } from '../../http/request-meta';
import {
  announcementResult,
  instructorResult,
  profileSetBody,
  updatePasswordBody,
  verifyNicknameBody,
} from './profile.schemas';
import type { ProfileService } from './profile.service';

const tags = ['profile'];

export function registerProfileRoutes(
  app: FastifyInstance,
  profile: ProfileService,
  config: Config,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/v1/profile/get', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "The caller's profile",
      response: responses(userProfileSchema),
    },
    handler: async (req) => ({ obj: await profile.get(callerId(req)) }),
  });

  r.post('/api/v1/profile/set', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "Change the caller's general data, info or address (never roles, flags or email)",
      body: profileSetBody,
      response: responses(userProfileSchema),
    },
    handler: async (req) => ({ obj: await profile.set(callerId(req), req.body, requestMeta(req)) }),
  });

  r.post('/api/v1/profile/verifyNickname', {
    config: {
      permission: 'public',
      rateLimit: { max: config.rateLimit.nickname, timeWindow: config.rateLimit.windowMs },
    },
    schema: {
      tags,
      summary: 'Whether a nickname is free (the caller’s own counts as free)',
      body: verifyNicknameBody,
      response: responses(z.object({ available: z.boolean() })),
    },
    handler: async (req) => ({
      obj: await profile.verifyNickname(req.body.nickname, req.auth?.userId),
    }),
  });

  r.post('/api/v1/profile/updatePassword', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "Change the caller's password (ends the caller's other sessions)",
      body: updatePasswordBody,
      response: responses(z.object({ updated: z.literal(true) })),
    },
    handler: async (req) => ({
      obj: await profile.updatePassword(caller(req), req.body, requestMeta(req)),
    }),
  });

  r.get('/api/v1/profile/announcement', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "The active announcement in the caller's language (else en, ptBR, es)",
      response: responses(announcementResult),
    },
    handler: async (req) => ({
      obj: await profile.announcement(callerId(req), requestMeta(req).language),
    }),
  });

  r.post('/api/v1/profile/announcement/:id/dismiss', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'The caller closed the active announcement: it is not shown to them again',
      params: z.object({ id: idParamSchema }),
      response: responses(z.object({ dismissed: z.literal(true) })),
    },
    handler: async (req) => ({
      obj: await profile.dismissAnnouncement(callerId(req), req.params.id),
    }),
  });

  r.get('/api/v1/profile/list/announcement', {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Every announcement with its texts in each language, newest first',
      response: responses(adminAnnouncementListSchema),
    },
    handler: async () => ({ obj: await profile.listAnnouncements() }),
  });

  r.post('/api/v1/profile/announcement', {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Create (no id) or edit an announcement; activating one deactivates the others',
      body: announcementSaveSchema,
      response: responses(adminAnnouncementSchema),
    },
    handler: async (req) => ({
      obj: await profile.saveAnnouncement(req.body, callerId(req), requestMeta(req)),
    }),
  });

  r.get('/api/v1/profile/getInstructor', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "The caller's instructor and discount",
      response: responses(instructorResult),
    },
    handler: async (req) => ({ obj: await profile.instructor(callerId(req)) }),
  });
}
