import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { responses } from '../../http/envelope';
import type { AuditService } from './audit.service';

const dayOrInstant = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);
const optionalText = (max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.string().trim().max(max).optional(),
  );
const optionalDay = z.preprocess(
  (value) => (value === '' ? undefined : value),
  dayOrInstant.optional(),
);

const auditQuerySchema = z.object({
  actor: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().int().positive().max(2_147_483_647).optional(),
  ),
  entity: optionalText(100),
  entityId: optionalText(100),
  from: optionalDay,
  to: optionalDay,
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const auditPageSchema = z.object({
  items: z.array(
    z.object({
      id: z.number().int(),
      at: z.string(),
      actorUserId: z.number().int().nullable(),
      actorName: z.string().nullable(),
      action: z.string(),
      entity: z.string(),
      entityId: z.string().nullable(),
      details: z.record(z.string(), z.unknown()),
      ip: z.string().nullable(),
    }),
  ),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

/** The audit log search: admins only. */
export function registerAuditRoutes(app: FastifyInstance, audit: AuditService) {
  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/audit', {
    config: { permission: 'admin' },
    schema: {
      tags: ['audit'],
      security: [{ bearer: [] }],
      summary: 'Audit rows, newest first, by actor, entity, record and date range (paged)',
      querystring: auditQuerySchema,
      response: responses(auditPageSchema),
    },
    handler: async (req) => ({ obj: await audit.search(req.query) }),
  });
}
