import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminSetPasswordBodySchema,
  adminUserSchema,
  adminUserSetBodySchema,
  queryUserParamsSchema,
  userPickSchema,
  usersListQuerySchema,
  usersPageSchema,
  idParamSchema,
  pageSchema,
} from '@dentflow/domain';
import { responses } from '../../http/envelope';
import { caller, requestMeta } from '../../http/request-meta';
import type { UsersService } from './users.service';

const tags = ['users'];
const admin = { permission: 'admin' as const };
/** Admins and supervisors: supervisors read users, never change them. */
const supervisor = { permission: 'supervisor' as const };
const id = idParamSchema;
const idParams = z.object({ id });
const pageParams = z.object({ page: pageSchema });

/** Users administration: admins change, supervisors read. */
export function registerUsersRoutes(app: FastifyInstance, users: UsersService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/v1/users/planners', {
    config: supervisor,
    schema: {
      tags,
      summary: 'Planners a supervisor may assign to a case',
      response: responses(z.array(z.object({ id: z.number().int(), displayName: z.string() }))),
    },
    handler: async () => ({ obj: await users.planners() }),
  });

  r.get('/api/v1/users/list/:page', {
    config: supervisor,
    schema: {
      tags,
      summary: 'One page of non-deleted users, newest first; filters and accent-insensitive q',
      params: pageParams,
      querystring: usersListQuerySchema,
      response: responses(usersPageSchema),
    },
    handler: async (req) => ({ obj: await users.list(req.params.page, req.query) }),
  });

  r.get('/api/v1/users/get/:id', {
    config: supervisor,
    schema: {
      tags,
      summary: 'A user with every profile section (404 when unknown or deleted)',
      params: idParams,
      response: responses(adminUserSchema),
    },
    handler: async (req) => ({ obj: await users.get(req.params.id, caller(req)) }),
  });

  r.post('/api/v1/users/:id/set', {
    config: admin,
    schema: {
      tags,
      summary: "Change a user's profile sections, roles, internal flag or capabilities",
      description: 'An admin never removes their own admin role (409 SELF_LOCKOUT).',
      params: idParams,
      body: adminUserSetBodySchema,
      response: responses(adminUserSchema),
    },
    handler: async (req) => ({
      obj: await users.set(req.params.id, req.body, caller(req), requestMeta(req)),
    }),
  });

  r.delete('/api/v1/users/delete/:id', {
    config: admin,
    schema: {
      tags,
      summary: 'Anonymize a user and end their sessions; their cases stay (not oneself: 409)',
      params: idParams,
      response: responses(z.object({ deleted: z.literal(true) })),
    },
    handler: async (req) => ({
      obj: await users.remove(req.params.id, caller(req), requestMeta(req)),
    }),
  });

  r.post('/api/v1/users/setPassword/:id', {
    config: admin,
    schema: {
      tags,
      summary: "Set a user's password; ends all their sessions",
      params: idParams,
      body: adminSetPasswordBodySchema,
      response: responses(z.object({ updated: z.literal(true) })),
    },
    handler: async (req) => ({
      obj: await users.setPassword(req.params.id, req.body.password, caller(req), requestMeta(req)),
    }),
  });

  r.get('/api/v1/users/resendEmail/:id', {
    config: admin,
    schema: {
      tags,
      summary: 'Mail the verification link again (409 ALREADY_VERIFIED)',
      params: idParams,
      response: responses(z.object({ sent: z.literal(true) })),
    },
    handler: async (req) => ({
      obj: await users.resendEmail(req.params.id, caller(req), requestMeta(req)),
    }),
  });

  r.get('/api/v1/users/query_user/:field/:value', {
    config: supervisor,
    schema: {
      tags,
      summary: 'At most 10 non-deleted users whose email, nickname or name contains the value',
      params: queryUserParamsSchema,
      response: responses(z.array(userPickSchema)),
    },
    handler: async (req) => ({ obj: await users.pick(req.params.field, req.params.value) }),
  });

  r.get('/api/v1/users/instructor/list', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'Verified instructors, with the discount each gives their students',
      response: responses(
        z.array(
          z.object({
            id: z.number().int(),
            displayName: z.string(),
            instructorDiscount: z.number(),
          }),
        ),
      ),
    },
    handler: async () => ({ obj: await users.instructors() }),
  });
}
