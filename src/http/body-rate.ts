import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';

/** 408: the body came in slower than the configured minimum rate. */
export class BodyTooSlowError extends AppError {
  constructor(minBytesPerSecond: number) {
    super(408, 'REQUEST_TIMEOUT', `The request body arrived slower than ${minBytesPerSecond} bytes per second`);
  }
}

/**
 * A minimum rate for request bodies, as a `preParsing` stream that fastify's body reader (and so
 * its size limit) reads through: a body that, after `graceMs`, has averaged fewer than
 * `minBytesPerSecond` is cut with 408. Node's request timeout bounds a whole request; this keeps a
 * client that trickles a large body from holding a connection for all of it.
 */
export function bodyRate(app: FastifyInstance, limits: { minBytesPerSecond: number; graceMs: number }): void {
  if (limits.minBytesPerSecond <= 0) return;
  app.addHook('preParsing', (request, _reply, payload, done) => {
    // No body (neither a length nor chunks: most calls), an empty one, or one that came whole with its head: nothing to watch.
    const { headers } = request;
    const length = headers['content-length'];
    if ((length === undefined && headers['transfer-encoding'] === undefined) || length === '0' || request.raw.complete || request.raw.readableEnded) {
      return done(null, payload);
    }
    const started = Date.now();
    let size = 0;
    const watched = new Transform({
      transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
        size += chunk.length;
        callback(null, chunk);
      },
      flush(callback: TransformCallback) {
        clearInterval(timer);
        callback();
      },
    });
    const timer = setInterval(() => {
      const paying = (Date.now() - started - limits.graceMs) / 1000;
      if (paying > 0 && size < paying * limits.minBytesPerSecond) {
        clearInterval(timer);
        payload.unpipe(watched);
        watched.destroy(Object.assign(new BodyTooSlowError(limits.minBytesPerSecond), { statusCode: 408 }));
      }
    }, 1000);
    timer.unref();
    watched.on('close', () => clearInterval(timer));
    // fastify's body reader listens for the refusal while it reads; once it stopped (the body was
    // refused for its size, or the client left), a late refusal has nobody to reach.
    watched.on('error', () => clearInterval(timer));
    // Read to its end (or the client gone): nothing left to watch.
    payload.on('end', () => clearInterval(timer));
    payload.on('close', () => clearInterval(timer));
    payload.on('error', (error) => watched.destroy(error));
    done(null, payload.pipe(watched));
  });
}
