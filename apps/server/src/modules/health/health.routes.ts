import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema } from '../../http/envelope';

/** Reports the database state: 200 when it answers, 503 otherwise. */
export function registerHealthRoutes(app: FastifyInstance, ping: () => Promise<boolean>) {
  app.withTypeProvider<ZodTypeProvider>().get('/api/health', {
    config: { permission: 'public' },
    schema: {
      tags: ['health'],
      summary: 'Liveness and database state',
      response: {
        200: z.object({ obj: z.object({ status: z.literal('ok'), database: z.literal('up') }) }),
        503: z.object({
          error: z.string(),
          code: z.string(),
          obj: z.object({ status: z.literal('degraded'), database: z.literal('down') }),
        }),
        '4xx': errorEnvelopeSchema,
      },
    },
    handler: async (_req, reply) => {
      if (await ping()) return { obj: { status: 'ok' as const, database: 'up' as const } };
      return reply.status(503).send({
        error: 'database unavailable',
        code: 'DATABASE_DOWN',
        obj: { status: 'degraded' as const, database: 'down' as const },
      });
    },
  });
}
