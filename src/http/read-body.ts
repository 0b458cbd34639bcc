import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors.ts';
import { MAX_BODY_BYTES, PayloadTooLargeError } from './body.ts';

/** 408: the body came in slower than the configured minimum rate. */
export class BodyTooSlowError extends AppError {
  constructor(minBytesPerSecond: number) {
    super(408, 'REQUEST_TIMEOUT', `The request body arrived slower than ${minBytesPerSecond} bytes per second`);
  }
}

/** The client went away while its request was read: nothing to answer, nothing unexpected to log. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client closed the connection');
  }
}

export interface BodyLimits {
  maxBytes?: number;
  /** 0: no minimum. */
  minBytesPerSecond: number;
  /** Time a body may take before the minimum rate applies (a client may pause before it starts sending). */
  graceMs: number;
}

/**
 * Disconnect errors a socket reports when the client goes away; they are the client's doing.
 * Node names them by code (ECONNRESET, EPIPE) or, for a request cut mid-body, by the message "aborted".
 */
export function isClientGone(error: unknown): boolean {
  if (error instanceof ClientGoneError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error as Error | null)?.message === 'aborted';
}

/**
 * Reads a request body whole, refusing one over `maxBytes` (413) or arriving slower than the
 * minimum rate (408). A refused body is drained, not cut off: the client is still sending, and a
 * socket closed with unread data would reach it as a connection reset instead of the answer. The
 * answer is sent with `Connection: close` (app.ts), which ends the drain.
 */
export async function readBody(req: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  const maxBytes = limits.maxBytes ?? MAX_BODY_BYTES;
  // A small body usually comes in the packet of its headers: the request is handed over when its
  // headers are parsed, and by the next microtask the parser has buffered the body whole (its
  // declared length is there, though the request may not be marked complete yet). It is then
  // taken as it is, without listeners, a timer and a promise of its own.
  await undefined;
  if (req.readableFlowing === null && req.readableLength === declaredLength(req)) {
    const body = (req.read() as Buffer | null) ?? Buffer.alloc(0);
    if (body.length > maxBytes) throw new PayloadTooLargeError();
    return body;
  }
  return streamedBody(req, limits, maxBytes);
}

/** The Content-Length of a body sent without chunked encoding; NaN otherwise. */
function declaredLength(req: IncomingMessage): number {
  const length = req.headers['content-length'];
  return length === undefined || req.headers['transfer-encoding'] !== undefined ? Number.NaN : Number(length);
}

function streamedBody(req: IncomingMessage, limits: BodyLimits, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const stop = (error: Error) => {
      clearInterval(timer);
      req.removeListener('data', onData);
      req.on('data', () => {});
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) stop(new PayloadTooLargeError());
      else chunks.push(chunk);
    };
    if (limits.minBytesPerSecond > 0) {
      timer = setInterval(() => {
        const paying = (Date.now() - started - limits.graceMs) / 1000;
        if (paying > 0 && size < paying * limits.minBytesPerSecond) stop(new BodyTooSlowError(limits.minBytesPerSecond));
      }, 1000);
      timer.unref();
    }
    req.on('data', onData);
    req.on('end', () => {
      clearInterval(timer);
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      clearInterval(timer);
      reject(isClientGone(error) ? new ClientGoneError() : error);
    });
    req.on('close', () => {
      clearInterval(timer);
      if (!req.complete) reject(new ClientGoneError());
    });
  });
}
