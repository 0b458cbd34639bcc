import type { FastifyInstance } from 'fastify';
import underPressure from '@fastify/under-pressure';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';

/** The /health/live answer must come through overload: an orchestrator restarts a process whose liveness fails. */
export const ALWAYS_ANSWERED = new Set(['/health/live']);

export interface OverloadLimits {
  /** Mean event-loop delay over a second above which new requests are refused (0: not checked). */
  maxEventLoopDelayMs: number;
  /** Requests in progress at once above which new requests are refused (0: no limit). */
  maxInFlight: number;
  retryAfterSeconds: number;
}

/**
 * Overload is refused early instead of queued into timeouts: while the event loop lags
 * (@fastify/under-pressure) or too many requests are in progress, a new request is answered 503
 * OVERLOADED with Retry-After and the error headers, before its body is read, its credentials are
 * checked or anything else is done for it. /health/live still answers.
 */
async function overloadPlugin(app: FastifyInstance, limits: OverloadLimits): Promise<void> {
  const refusal = () => Object.assign(new AppError(503, 'OVERLOADED', 'The service is overloaded; try again later'), { retryAfter: limits.retryAfterSeconds });
  if (limits.maxEventLoopDelayMs > 0) {
    await app.register(underPressure, {
      maxEventLoopDelay: limits.maxEventLoopDelayMs,
      retryAfter: limits.retryAfterSeconds,
      // Answered through the error handler, with the contract's error headers.
      pressureHandler: (request, _reply, type) => {
        if (ALWAYS_ANSWERED.has(request.routeOptions.url ?? '')) return;
        request.log.warn({ type }, 'overloaded: request refused');
        return Promise.reject(refusal());
      },
    });
  }
  if (limits.maxInFlight > 0) {
    let inFlight = 0;
    app.addHook('onRequest', (request, reply, done) => {
      if (inFlight >= limits.maxInFlight && !ALWAYS_ANSWERED.has(request.routeOptions.url ?? '')) return done(refusal());
      inFlight++;
      // Once the answer is written or the client gone, whichever comes first, exactly once.
      reply.raw.once('close', () => inFlight--);
      done();
    });
  }
}

/** Not encapsulated (fastify-plugin): its hooks apply to every route of the app. */
export const overload = fp(overloadPlugin, { name: 'overload' });
