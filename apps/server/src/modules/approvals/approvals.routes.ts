import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { approvalRecordSchema, certificateCheckSchema, idParamSchema } from '@dentflow/domain';
import type { Config } from '../../config';
import { responses } from '../../http/envelope';
import { caller } from '../../http/request-meta';
import type { ApprovalsService } from './approvals.service';

const tags = ['approvals'];

/** Approval records, their certificates and the public check of a certificate code. */
export function registerApprovalsRoutes(
  app: FastifyInstance,
  approvals: ApprovalsService,
  config: Config,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/v1/case/:caseId/approvals', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary:
        "The case's approval records: the planning versions approved with their SHA-256, the " +
        'text, who, when and from which address',
      params: z.object({ caseId: idParamSchema }),
      response: responses(z.object({ items: z.array(approvalRecordSchema) })),
    },
    handler: async (req) => ({ obj: await approvals.list(caller(req), req.params.caseId) }),
  });

  r.get('/api/v1/approval/:id/certificate', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "The approval certificate (PDF, in the record's language)",
      params: z.object({ id: idParamSchema }),
    },
    handler: async (req, reply) => {
      const { pdf, fileName } = await approvals.certificate(caller(req), req.params.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(Buffer.from(pdf));
    },
  });

  r.get('/api/v1/certificate/:code', {
    // A probe for codes, like the nickname and coupon checks: limited per client address.
    config: {
      permission: 'public',
      rateLimit: { max: config.rateLimit.nickname, timeWindow: config.rateLimit.windowMs },
    },
    schema: {
      tags,
      summary:
        'Whether a certificate code matches a stored approval: its time and the files’ SHA-256 ' +
        'only (404 CERTIFICATE_NOT_FOUND otherwise)',
      params: z.object({ code: z.string().trim().min(1).max(64) }),
      response: responses(certificateCheckSchema),
    },
    handler: async (req) => ({ obj: await approvals.check(req.params.code) }),
  });
}
