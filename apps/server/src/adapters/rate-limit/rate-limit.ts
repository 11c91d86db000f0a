import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { AppError } from '../../http/app-error';

/**
 * Rate limits apply only to routes that set `config.rateLimit` (login, register, forgot
 * password, nickname check...). Counters live in Redis when REDIS_URL is set, so several
 * instances share them; otherwise in process memory.
 */
export async function registerRateLimit(app: FastifyInstance, redisUrl: string | undefined) {
  const redis = redisUrl
    ? new Redis(redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => request.ip ?? 'local',
    ...(redis ? { redis, nameSpace: 'dentflow-rate-limit-' } : {}),
    errorResponseBuilder: () => new AppError(429, 'RATE_LIMITED'),
  });
}
