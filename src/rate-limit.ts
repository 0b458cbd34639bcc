import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { Redis } from 'ioredis';
import { RateLimitError, type RateLimitState } from './errors.ts';

export interface RateLimitOptions {
  perSecond: number;
  perMinute: number;
  /** Shared counters for several instances; in memory otherwise. */
  redisUrl?: string;
}

export function rateLimitHeaders(state: RateLimitState | undefined): Record<string, string> {
  return state ? addRateLimitHeaders({}, state) : {};
}

/** The rate-limit headers written into `headers` (an answer's own, without a spread per call). */
export function addRateLimitHeaders(headers: Record<string, string>, state: RateLimitState): Record<string, string> {
  headers['ratelimit-limit'] = String(state.limit);
  headers['ratelimit-remaining'] = String(state.remaining);
  headers['ratelimit-reset'] = String(state.reset);
  headers['ratelimit-policy'] = state.policy;
  return headers;
}

interface Window {
  limiter: RateLimiterAbstract;
  points: number;
}

/**
 * Limits per application, per second and per minute (0 switches a window off). A REST call
 * spends one point; a GraphQL operation spends points by its cost (graphql/plugins/limits.ts), so
 * both faces share one budget. With several instances behind a load balancer the counters live
 * in Redis so the limit holds for the fleet.
 */
export class RateLimiter {
  private readonly windows: Window[] = [];
  private readonly redis?: Redis;
  private readonly policy: string;

  constructor(options: RateLimitOptions) {
    if (options.redisUrl) this.redis = new Redis(options.redisUrl, { enableOfflineQueue: false, lazyConnect: false });
    const make = (points: number, duration: number, keyPrefix: string): Window => ({
      points,
      limiter: this.redis
        ? new RateLimiterRedis({ storeClient: this.redis, points, duration, keyPrefix, insuranceLimiter: new RateLimiterMemory({ points, duration }) })
        : new RateLimiterMemory({ points, duration, keyPrefix }),
    });
    const windows: [number, number, string][] = [
      [options.perSecond, 1, 'rl_s'],
      [options.perMinute, 60, 'rl_m'],
    ];
    for (const [points, duration, prefix] of windows) if (points > 0) this.windows.push(make(points, duration, prefix));
    this.policy = windows.filter(([points]) => points > 0).map(([points, duration]) => `${points};w=${duration}`).join(', ');
  }

  /** The most points one call can ever spend: the smallest window. */
  get capacity(): number {
    return Math.min(...this.windows.map((w) => w.points));
  }

  /** Whether any window is on (both can be switched off with 0). */
  get active(): boolean {
    return this.windows.length > 0;
  }

  /**
   * Spends `points` of the application's budget in every window; throws RateLimitError (429, with
   * the state for the headers) when a window cannot pay them. Points are taken from each window
   * in turn: a refusal by the minute window still counts in the second window, as any refused call does.
   */
  async consume(key: string, points = 1): Promise<RateLimitState | undefined> {
    let state: RateLimitState | undefined;
    for (const window of this.windows) {
      let result: RateLimiterRes;
      try {
        result = await window.limiter.consume(key, points);
      } catch (refused) {
        if (!(refused instanceof RateLimiterRes)) throw refused;
        const reset = Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
        throw new RateLimitError(reset, { limit: window.points, remaining: 0, reset, policy: this.policy });
      }
      const current = { limit: window.points, remaining: result.remainingPoints, reset: Math.max(1, Math.ceil(result.msBeforeNext / 1000)), policy: this.policy };
      if (!state || current.remaining < state.remaining) state = current;
    }
    return state;
  }

  async close(): Promise<void> {
    await this.redis?.quit();
  }
}
