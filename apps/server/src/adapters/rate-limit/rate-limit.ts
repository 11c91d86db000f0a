import rateLimit from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { AppError } from '../../http/app-error';
import { addressKey } from '../../security/client-address';
import { createMemoryCounters, createRedisCounters, type RateCounters } from './rate-counters';
import {
  countersWithFallback,
  createRedisFallback,
  routeStoreWithFallback,
  type RedisFallback,
} from './redis-fallback';

/** Where every limit counts: in process memory, or in Redis shared by all instances. */
export interface RateLimitStore {
  redis: Redis | undefined;
  /** With Redis: whether it is reachable now (else every limit counts per instance). */
  fallback: RedisFallback | undefined;
  /** The counters services use themselves (password checks). */
  counters: RateCounters;
}

const NAME_SPACE = 'dentflow-rate-limit-';

export function createRateLimitStore(
  redisUrl: string | undefined,
  log: FastifyBaseLogger,
): RateLimitStore {
  if (!redisUrl) return { redis: undefined, fallback: undefined, counters: createMemoryCounters() };
  const redis = new Redis(redisUrl, {
    connectTimeout: 2000,
    // A Redis that stops answering must not hold requests: the command fails, memory counts.
    commandTimeout: 1000,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
  });
  const fallback = createRedisFallback(redis, log);
  return {
    redis,
    fallback,
    counters: countersWithFallback(
      createRedisCounters(redis, NAME_SPACE),
      createMemoryCounters(),
      fallback,
    ),
  };
}

/**
 * Rate limits apply only to routes that set `config.rateLimit` (login, register, forgot
 * password, nickname check, case moves...), by default per client address (a route may key on
 * the signed-in user instead). Counters live in the store's Redis when there is one, and in
 * this instance's memory while that Redis is unreachable (redis-fallback.ts).
 */
export async function registerRateLimit(app: FastifyInstance, store: RateLimitStore) {
  const { redis, fallback } = store;
  if (redis) {
    app.addHook('onClose', async () => {
      // quit() would wait for a connection that may not come back.
      if (redis.status === 'ready') await redis.quit().catch(() => undefined);
      else redis.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => addressKey(request.ip),
    ...(redis && fallback ? { store: routeStoreWithFallback(redis, NAME_SPACE, fallback) } : {}),
    errorResponseBuilder: () => new AppError(429, 'RATE_LIMITED'),
  });
}
