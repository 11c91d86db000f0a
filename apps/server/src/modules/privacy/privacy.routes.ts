import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { responses } from '../../http/envelope';
import { callerId, requestMeta } from '../../http/request-meta';
import type { PrivacyService } from './privacy.service';

const tags = ['profile'];
const authenticated = { permission: 'authenticated' as const };

/** The caller's own personal data: export and account deletion. */
export function registerPrivacyRoutes(app: FastifyInstance, privacy: PrivacyService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/v1/profile/export', {
    config: authenticated,
    schema: {
      tags,
      summary: 'Everything the platform holds about the caller, as a JSON file',
      description: 'Only the caller’s own data: other people appear neither by id nor by name.',
    },
    handler: async (req, reply) => {
      const userId = callerId(req);
      const data = await privacy.exportData(userId);
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="dentflow-data-${userId}.json"`)
        .header('cache-control', 'no-store')
        .send(JSON.stringify(data, null, 2));
    },
  });

  r.post('/api/v1/profile/delete', {
    config: authenticated,
    schema: {
      tags,
      summary: "Delete (anonymize) the caller's account after confirming their password",
      description: 'Wrong password: 400 WRONG_PASSWORD. Cases and money records stay.',
      body: z.object({ password: z.string().min(1).max(200) }),
      response: responses(z.object({ deleted: z.literal(true) })),
    },
    handler: async (req) => ({
      obj: await privacy.deleteSelf(callerId(req), req.body.password, requestMeta(req)),
    }),
  });
}
