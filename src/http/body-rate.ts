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
    // No body (neither a length nor chunks: most calls) or an empty one: nothing to watch.
    const { headers } = request;
    const length = headers['content-length'];
    if ((length === undefined && headers['transfer-encoding'] === undefined) || length === '0') return done(null, payload);
    const arrived = () => request.raw.complete || request.raw.readableEnded;
    if (arrived()) return done(null, payload);
    // A body that came in the head's packet is parsed only after this hook (it runs inside the
    // parser's callbacks, and still sees none of it on the next tick): look again once the packet
    // is read, one turn of the event loop later, and watch only a body still arriving. Watching
    // every small body (a stream piped through and a timer each) cost a JSON POST about 30 µs of
    // server CPU (bench/cpu-per-request.ts in turns, least / median: POST test:app 84 / 90 -> 51 /
    // 60 µs, GraphQL { me { id name } } 101 / 104 -> 72 / 92 µs).
    setImmediate(() => done(null, arrived() ? payload : watch(payload)));
  });

  function watch(payload: NodeJS.ReadableStream & { unpipe(destination: Transform): unknown }): Transform {
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
    return payload.pipe(watched);
  }
}
