import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { RateCounters } from './rate-counters';

/**
 * Whether the limits can count in Redis now. While Redis is unreachable every limit counts in
 * this instance's memory instead (each instance lets through up to the limit on its own) rather
 * than refusing or stalling requests; the switch is logged once each way.
 */
export interface RedisFallback {
  /** True while the client is connected (no request waits for a reconnection). */
  usable(): boolean;
  /** A command failed although the client looked connected. */
  failed(error: unknown): void;
}

export function createRedisFallback(redis: Redis, log: FastifyBaseLogger): RedisFallback {
  let degraded = false;
  const degrade = (error: unknown) => {
    if (degraded) return;
    degraded = true;
    log.warn(
      { err: error },
      'rate limits: Redis unreachable; counting per instance until it is back',
    );
  };
  redis.on('error', degrade);
  redis.on('ready', () => {
    if (!degraded) return;
    degraded = false;
    log.info('rate limits: Redis is back; instances count together again');
  });
  return {
    usable: () => redis.status === 'ready',
    failed: degrade,
  };
}

/** Password-check counters in Redis, or in memory while Redis is unreachable. */
export function countersWithFallback(
  shared: RateCounters,
  local: RateCounters,
  fallback: RedisFallback,
): RateCounters {
  return {
    async hit(key, windowMs) {
      if (fallback.usable()) {
        try {
          return await shared.hit(key, windowMs);
        } catch (error) {
          fallback.failed(error);
        }
      }
      return local.hit(key, windowMs);
    },
    async undo(key) {
      if (fallback.usable()) {
        try {
          return await shared.undo(key);
        } catch (error) {
          fallback.failed(error);
        }
      }
      return local.undo(key);
    },
  };
}

// The window opens with the first hit; answers the count and the window's remaining time.
const ROUTE_HIT = `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

type Window = { count: number; endsAt: number };
const LOCAL_KEYS_MAX = 10_000;

/**
 * @fastify/rate-limit's store for the route limits: Redis (fixed windows, as the plugin's own
 * Redis store) while usable, else an in-memory window per key of this instance.
 */
export function routeStoreWithFallback(
  redis: Redis,
  nameSpace: string,
  fallback: RedisFallback,
): FastifyRateLimitStoreCtor {
  class FallbackStore implements FastifyRateLimitStore {
    private readonly local = new Map<string, Window>();
    constructor(
      _options: unknown,
      private readonly prefix = nameSpace,
    ) {}

    private localHit(key: string, timeWindow: number) {
      const now = Date.now();
      let window = this.local.get(key);
      if (!window || window.endsAt <= now) {
        if (this.local.size >= LOCAL_KEYS_MAX) {
          for (const [old, entry] of this.local) if (entry.endsAt <= now) this.local.delete(old);
          if (this.local.size >= LOCAL_KEYS_MAX) this.local.clear();
        }
        window = { count: 0, endsAt: now + timeWindow };
        this.local.set(key, window);
      }
      window.count += 1;
      return { current: window.count, ttl: window.endsAt - now };
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      if (!fallback.usable()) return callback(null, this.localHit(key, timeWindow));
      redis.eval(ROUTE_HIT, 1, this.prefix + key, String(timeWindow)).then(
        (result) => {
          const [current, ttl] = result as [number, number];
          callback(null, { current: Number(current), ttl: Number(ttl) });
        },
        (error: unknown) => {
          fallback.failed(error);
          callback(null, this.localHit(key, timeWindow));
        },
      );
    }

    child(routeOptions: unknown): FastifyRateLimitStore {
      const { method, url } = (routeOptions as { routeInfo: { method: string; url: string } })
        .routeInfo;
      return new FallbackStore(undefined, `${this.prefix}${method}${url}-`);
    }
  }
  return FallbackStore as unknown as FastifyRateLimitStoreCtor;
}
