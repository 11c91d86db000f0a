import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditPageSchema, auditQuerySchema } from '@dentflow/domain';
import { responses } from '../../http/envelope';
import type { AuditService } from './audit.service';

/** The audit log search: admins only. */
export function registerAuditRoutes(app: FastifyInstance, audit: AuditService) {
  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/audit', {
    config: { permission: 'admin' },
    schema: {
      tags: ['audit'],
      summary: 'Audit rows, newest first, by actor, entity, record and date range (paged)',
      querystring: auditQuerySchema,
      response: responses(auditPageSchema),
    },
    handler: async (req) => ({ obj: await audit.search(req.query) }),
  });
}
