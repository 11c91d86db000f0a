import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppMetrics } from '../metrics/app-metrics';
import { AppError } from './app-error';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics` in Prometheus' text format, for a scraper holding `METRICS_TOKEN` as a bearer
 * token (not a user session: the route's permission is public, the token is its own check). Unset
 * token: the endpoint answers 404 like any unknown path; a missing or wrong token: 401.
 * docs/decisions/023-operations.md.
 */
export function registerMetricsRoute(
  app: FastifyInstance,
  metrics: AppMetrics,
  token: string | undefined,
): void {
  // Every request's duration under its route pattern ('unmatched' for a 404), never its URL.
  // A callback hook: an async one costs a promise on every response.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    metrics.request(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  const expected = token ? digest(token) : undefined;
  app.get('/metrics', {
    config: { permission: 'public' },
    schema: { hide: true },
    handler: async (request, reply) => {
      if (!expected) throw new AppError(404, 'NOT_FOUND');
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
      // Compared as digests: equal lengths, and no timing hint about the token.
      if (!given || !timingSafeEqual(digest(given), expected)) {
        throw new AppError(401, 'NOT_AUTHORIZED');
      }
      void reply.header('content-type', metrics.registry.contentType);
      void reply.header('cache-control', 'no-store');
      return metrics.registry.metrics();
    },
  });
}
