import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../http/error-handler';
import { errorEnvelopeSchema } from '../../http/envelope';
import { requestLanguage } from '../../http/language';

/** How long readiness waits for the database's `select 1` before it counts as down. */
export const READINESS_PING_TIMEOUT_MS = 1000;

export interface HealthChecks {
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /** True once a shutdown has begun: the instance finishes its work but takes no more. */
  draining(): boolean;
}

/**
 * `/api/health`: liveness and the database state (the process answers at all).
 * `/api/ready`: whether a load balancer should send traffic here — the database answers within
 * READINESS_PING_TIMEOUT_MS and the instance is not draining for a shutdown.
 */
export function registerHealthRoutes(app: FastifyInstance, checks: HealthChecks) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/api/health', {
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
      if (await checks.ping()) return { obj: { status: 'ok' as const, database: 'up' as const } };
      return reply.status(503).send({
        error: 'database unavailable',
        code: 'DATABASE_DOWN',
        obj: { status: 'degraded' as const, database: 'down' as const },
      });
    },
  });

  typed.get('/api/ready', {
    config: { permission: 'public' },
    schema: {
      tags: ['health'],
      summary: 'Readiness: the database answers and the instance is not shutting down',
      response: {
        200: z.object({ obj: z.object({ ready: z.literal(true) }) }),
        503: z.object({
          error: z.string(),
          code: z.string(),
          obj: z.object({
            ready: z.literal(false),
            draining: z.boolean(),
            database: z.enum(['up', 'down']),
          }),
        }),
        '4xx': errorEnvelopeSchema,
      },
    },
    handler: async (request, reply) => {
      const databaseUp = await within(checks.ping(), READINESS_PING_TIMEOUT_MS);
      const draining = checks.draining();
      if (!draining && databaseUp) return { obj: { ready: true as const } };
      return reply.status(503).send({
        ...errorBody(requestLanguage(request), 'SERVICE_UNAVAILABLE'),
        obj: {
          ready: false as const,
          draining,
          database: databaseUp ? ('up' as const) : ('down' as const),
        },
      });
    },
  });
}

/** The check's answer, or false when it takes longer than `ms`. */
function within(check: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([check, late]).finally(() => clearTimeout(timer));
}
