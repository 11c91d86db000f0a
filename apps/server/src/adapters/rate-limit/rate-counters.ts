import type { Redis } from 'ioredis';

/**
 * Fixed-window counters for limits a service applies itself (password checks), beside the
 * route limits of @fastify/rate-limit. In process memory, or in Redis so that several instances
 * count together.
 */
export interface RateCounters {
  /** Counts one more for `key` in its window (opened by the first hit) and answers the count. */
  hit(key: string, windowMs: number): Promise<number>;
  /** Takes one back (an attempt that turned out not to count); never below zero. */
  undo(key: string): Promise<void>;
}

export function createMemoryCounters(now: () => number = Date.now): RateCounters {
  const windows = new Map<string, { count: number; endsAt: number }>();
  let hitsSinceSweep = 0;
  const sweep = () => {
    const time = now();
    for (const [key, window] of windows) if (window.endsAt <= time) windows.delete(key);
  };
  return {
    async hit(key, windowMs) {
      if (++hitsSinceSweep >= 1000) {
        hitsSinceSweep = 0;
        sweep();
      }
      const time = now();
      const current = windows.get(key);
      if (!current || current.endsAt <= time) {
        windows.set(key, { count: 1, endsAt: time + windowMs });
        return 1;
      }
      return ++current.count;
    },
    async undo(key) {
      const current = windows.get(key);
      if (current && current.count > 0 && current.endsAt > now()) current.count--;
    },
  };
}

// One round trip each, atomic. The window is opened by the first hit (a key without expiry) and
// later hits, even after undos down to zero, never extend it.
const HIT = `local count = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;
const UNDO = `local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

export function createRedisCounters(redis: Redis, nameSpace: string): RateCounters {
  return {
    async hit(key, windowMs) {
      return Number(await redis.eval(HIT, 1, nameSpace + key, String(windowMs)));
    },
    async undo(key) {
      await redis.eval(UNDO, 1, nameSpace + key);
    },
  };
}
