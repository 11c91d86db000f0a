import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  partnerLinkBodySchema,
  partnerLinkSchema,
  partnerListQuerySchema,
  idParamSchema,
} from '@dentflow/domain';
import { responses } from '../../http/envelope';
import { caller, callerId, requestMeta } from '../../http/request-meta';
import type { PartnersService } from './partners.service';

const tags = ['partners'];
const idParams = z.object({ id: idParamSchema });

/** Clinic–partner links: clinics read theirs, admins manage all. */
export function registerPartnersRoutes(app: FastifyInstance, partners: PartnersService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/v1/partners', {
    config: { permission: 'clinic' },
    schema: {
      tags,
      summary: "A clinic's linked partners; for admins every link (clinicId filters)",
      querystring: partnerListQuerySchema,
      response: responses(z.array(partnerLinkSchema)),
    },
    handler: async (req) => ({ obj: await partners.list(caller(req), req.query.clinicId) }),
  });

  r.get('/api/v1/profile/partnerLinks', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "The caller's own clinic–partner links, as the clinic or as the partner",
      response: responses(z.array(partnerLinkSchema)),
    },
    handler: async (req) => ({ obj: await partners.mine(callerId(req)) }),
  });

  r.post('/api/v1/partners/link', {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Link a partner to a clinic (both verified, not deleted); idempotent',
      body: partnerLinkBodySchema,
      response: responses(partnerLinkSchema),
    },
    handler: async (req) => ({
      obj: await partners.link(callerId(req), req.body, requestMeta(req)),
    }),
  });

  r.delete('/api/v1/partners/link/:id', {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Remove a clinic–partner link (cases the partner was added to keep them)',
      params: idParams,
      response: responses(z.object({ id: z.number().int() })),
    },
    handler: async (req) => ({
      obj: await partners.unlink(callerId(req), req.params.id, requestMeta(req)),
    }),
  });
}
