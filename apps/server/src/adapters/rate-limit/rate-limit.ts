import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { AppError } from '../../http/app-error';
import { addressKey } from '../../security/client-address';
import { createMemoryCounters, createRedisCounters, type RateCounters } from './rate-counters';

/** Where every limit counts: in process memory, or in Redis shared by all instances. */
export interface RateLimitStore {
  redis: Redis | undefined;
  /** The counters services use themselves (password checks). */
  counters: RateCounters;
}

const NAME_SPACE = 'dentflow-rate-limit-';

export function createRateLimitStore(redisUrl: string | undefined): RateLimitStore {
  const redis = redisUrl
    ? new Redis(redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  return {
    redis,
    counters: redis ? createRedisCounters(redis, NAME_SPACE) : createMemoryCounters(),
  };
}

/**
 * Rate limits apply only to routes that set `config.rateLimit` (login, register, forgot
 * password, nickname check, case moves...), by default per client address (a route may key on
 * the signed-in user instead). Counters live in the store's Redis when there is one.
 */
export async function registerRateLimit(app: FastifyInstance, store: RateLimitStore) {
  const { redis } = store;
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => addressKey(request.ip),
    ...(redis ? { redis, nameSpace: NAME_SPACE } : {}),
    errorResponseBuilder: () => new AppError(429, 'RATE_LIMITED'),
  });
}
