import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { Redis } from 'ioredis';
import { RateLimitError } from '../errors.ts';

/** Wrong passwords for one target that cost nothing; each further one locks the target for longer. */
export const FREE_FAILURES = 5;
/** The longest lock, and how long failures are remembered. */
export const MAX_LOCK_SECONDS = 15 * 60;
const FAILURE_MEMORY_SECONDS = 60 * 60;

/**
 * Password guessing against one target (a user of `user:assume`), throttled with growing delays:
 * after FREE_FAILURES wrong passwords within an hour, the n-th further one locks the target for
 * 2^(n-1) seconds (1, 2, 4, … up to MAX_LOCK_SECONDS). While locked, every attempt on it, the
 * right password included, is refused with 429 and Retry-After without being checked. A right
 * password ends the count. Counters are in Redis when REDIS_URL is set (shared by every instance).
 */
export class PasswordThrottle {
  private readonly failures: RateLimiterAbstract;
  private readonly locks: RateLimiterAbstract;

  constructor(private readonly redis?: Redis) {
    const make = (points: number, duration: number, keyPrefix: string) =>
      redis ? new RateLimiterRedis({ storeClient: redis, points, duration, keyPrefix }) : new RateLimiterMemory({ points, duration, keyPrefix });
    this.failures = make(1_000_000, FAILURE_MEMORY_SECONDS, 'pw_fail');
    this.locks = make(1, MAX_LOCK_SECONDS, 'pw_lock');
  }

  /** Throws 429 while the target is locked. */
  async check(target: string): Promise<void> {
    const lock = await this.locks.get(target);
    if (lock && lock.consumedPoints > 1 && lock.msBeforeNext > 0) throw new RateLimitError(Math.max(1, Math.ceil(lock.msBeforeNext / 1000)));
  }

  async failed(target: string): Promise<void> {
    const count = (await this.failures.penalty(target, 1)).consumedPoints;
    if (count > FREE_FAILURES) await this.locks.block(target, Math.min(MAX_LOCK_SECONDS, 2 ** (count - FREE_FAILURES - 1)));
  }

  async succeeded(target: string): Promise<void> {
    await this.failures.delete(target);
  }

  async close(): Promise<void> {
    await this.redis?.quit();
  }
}

/** One throttle per process and Redis URL: every app in the process shares the counts, as every instance does through Redis. */
const throttles = new Map<string, PasswordThrottle>();

export function passwordThrottle(redisUrl: string | undefined): PasswordThrottle {
  const key = redisUrl ?? '';
  let throttle = throttles.get(key);
  if (!throttle) {
    throttle = new PasswordThrottle(redisUrl ? new Redis(redisUrl, { enableOfflineQueue: false }) : undefined);
    throttles.set(key, throttle);
  }
  return throttle;
}
