import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  caseNotificationStatusSchema,
  emailNotificationsSchema,
  lastNotificationsSchema,
  notificationPageSchema,
  notificationViewSchema,
  idParamSchema,
  pageSchema,
} from '@dentflow/domain';
import { responses } from '../../http/envelope';
import { caller } from '../../http/request-meta';
import type { NotificationsService } from './notifications.service';

const tags = ['notifications'];
const auth = { permission: 'authenticated' as const };
const caseParams = z.object({ caseId: idParamSchema });
// Deep enough for any real list; keeps the offset a safe integer.
const pageParams = z.object({ page: pageSchema });
/** The answer side of the email preferences (the body schema sorts and de-duplicates). */
const emailNotificationsAnswer = z.object({ eventTypes: z.array(z.number().int()) });

/**
 * Notifications (`/api/v1/notification/…`, the caller's own only) and the email
 * preferences of profile settings. The payment returns under `/notification/paypal|pagseguro`
 * belong to the payments module.
 */
export function registerNotificationsRoutes(
  app: FastifyInstance,
  notifications: NotificationsService,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/v1/notification';

  r.get(`${base}/last5`, {
    config: auth,
    schema: {
      tags,
      summary: 'The newest five notifications and the unseen count (the bell)',
      response: responses(lastNotificationsSchema),
    },
    handler: async (req) => ({ obj: await notifications.last(caller(req)) }),
  });

  const pageRouteSchema = {
    tags,
    summary: 'A page of the caller’s notifications, newest first (page from 0)',
    response: responses(notificationPageSchema),
  };
  r.get(`${base}/list`, {
    config: auth,
    schema: pageRouteSchema,
    handler: async (req) => ({ obj: await notifications.page(caller(req), 0) }),
  });
  r.get(`${base}/list/:page`, {
    config: auth,
    schema: { ...pageRouteSchema, params: pageParams },
    handler: async (req) => ({ obj: await notifications.page(caller(req), req.params.page) }),
  });

  r.get(`${base}/getStatus/:caseId`, {
    config: auth,
    schema: {
      tags,
      summary: 'The case notification status: unseen, trigger, counters event_1 … event_13',
      params: caseParams,
      response: responses(caseNotificationStatusSchema),
    },
    handler: async (req) => ({
      obj: await notifications.caseStatus(caller(req), req.params.caseId),
    }),
  });

  r.get(`${base}/case/:caseId`, {
    config: auth,
    schema: {
      tags,
      summary: 'The caller’s notifications of the case, newest first; marks them seen',
      params: caseParams,
      response: responses(z.array(notificationViewSchema)),
    },
    handler: async (req) => ({ obj: await notifications.forCase(caller(req), req.params.caseId) }),
  });

  r.get(`${base}/markAllRead`, {
    config: auth,
    schema: {
      tags,
      summary: 'Marks every notification of the caller seen',
      response: responses(z.object({ updated: z.number().int().min(0) })),
    },
    handler: async (req) => ({ obj: await notifications.markAllRead(caller(req)) }),
  });

  r.get('/api/v1/profile/notifications', {
    config: auth,
    schema: {
      tags,
      summary: 'The notification types that also come by email',
      response: responses(emailNotificationsAnswer),
    },
    handler: async (req) => ({ obj: await notifications.emailPreferences(caller(req)) }),
  });

  r.post('/api/v1/profile/notifications', {
    config: auth,
    schema: {
      tags,
      summary: 'Chooses the notification types that also come by email',
      body: emailNotificationsSchema,
      response: responses(emailNotificationsAnswer),
    },
    handler: async (req) => ({
      obj: await notifications.setEmailPreferences(caller(req), req.body),
    }),
  });
}
