import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { Redis } from 'ioredis';
import { RateLimitError } from '../errors.ts';

export interface RateLimitOptions {
  perSecond: number;
  perMinute: number;
  /** Shared counters for several instances; in memory otherwise. */
  redisUrl?: string;
}

/**
 * Limits per application, per second and per minute (0 switches a window off). With several
 * instances behind a load balancer the counters live in Redis so the limit holds for the fleet.
 */
export class RateLimiter {
  private readonly limiters: RateLimiterAbstract[] = [];
  private readonly redis?: Redis;

  constructor(options: RateLimitOptions) {
    if (options.redisUrl) this.redis = new Redis(options.redisUrl, { enableOfflineQueue: false, lazyConnect: false });
    const make = (points: number, duration: number, keyPrefix: string) =>
      this.redis
        ? new RateLimiterRedis({ storeClient: this.redis, points, duration, keyPrefix, insuranceLimiter: new RateLimiterMemory({ points, duration }) })
        : new RateLimiterMemory({ points, duration, keyPrefix });
    if (options.perSecond > 0) this.limiters.push(make(options.perSecond, 1, 'rl_s'));
    if (options.perMinute > 0) this.limiters.push(make(options.perMinute, 60, 'rl_m'));
  }

  /** Counts one call of the application; throws RateLimitError (429) when a window is full. */
  /** Whether any window is on (both can be switched off with 0). */
  get active(): boolean {
    return this.limiters.length > 0;
  }

  async consume(key: string): Promise<void> {
    for (const limiter of this.limiters) {
      try {
        await limiter.consume(key);
      } catch (result) {
        if (result instanceof RateLimiterRes) throw new RateLimitError(Math.max(1, Math.ceil(result.msBeforeNext / 1000)));
        throw result;
      }
    }
  }

  async close(): Promise<void> {
    await this.redis?.quit();
  }
}
