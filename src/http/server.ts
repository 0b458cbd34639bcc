import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { App } from '../app.ts';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { errorResponse } from '../rest/router.ts';
import { MAX_BODY_BYTES, PayloadTooLargeError } from './body.ts';
import { isClientGone } from './read-body.ts';
import { requestIdFrom } from './request-id.ts';

/**
 * Node's limits on a request's head: the request line and headers together (its default; over
 * it, 431), and the time to send them (408).
 */
export const MAX_HEADER_BYTES = 16 * 1024;

/** An answer written straight to a socket the HTTP parser gave up on, with the contract's error headers. */
function rawAnswer(error: AppError): string {
  const response = errorResponse(error, requestIdFrom(undefined));
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' }[error.status] ?? 'Error';
  const head = [`HTTP/1.1 ${error.status} ${reason}`, 'connection: close', `content-length: ${Buffer.byteLength(response.body)}`];
  for (const [name, value] of Object.entries(response.headers)) head.push(`${name}: ${value}`);
  return `${head.join('\r\n')}\r\n\r\n${response.body}`;
}

/** What the HTTP parser refused, as the contract's error. */
function clientErrorOf(error: NodeJS.ErrnoException): AppError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError(431, 'HEADERS_TOO_LARGE', `The request line and headers exceed ${MAX_HEADER_BYTES} bytes`);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT':
      return new AppError(408, 'REQUEST_TIMEOUT', 'The request was not received in time');
    default:
      return new AppError(400, 'BAD_REQUEST', 'The request is not valid HTTP');
  }
}

/**
 * The node:http server of main.ts (and of tests that need real sockets), with the limits that
 * keep one client from holding the service:
 * - the head of a request within HTTP_HEADERS_TIMEOUT_MS (Node allows a whole request 5 minutes
 *   and its head 1 minute by default); bodies at HTTP_MIN_BODY_BYTES_PER_SECOND (read-body.ts);
 * - idle keep-alive connections closed after HTTP_KEEP_ALIVE_TIMEOUT_MS;
 * - a declared Content-Length over the body limit answered 413 before any of the body is read;
 * - requests the parser refuses (headers over 16 KiB: 431; malformed: 400; too slow: 408)
 *   answered with the contract's error headers instead of Node's bare status line;
 * - clients that go away are logged at debug level, not as errors.
 */
export function createHttpServer(app: Pick<App, 'node'>, config: Pick<Config, 'http'>, log: Logger): Server {
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: config.http.headersTimeoutMs,
      keepAliveTimeout: config.http.keepAliveTimeoutMs,
      // Checked on this period: the timeouts above are enforced within a second of being due.
      connectionsCheckingInterval: 1000,
    },
    (req: IncomingMessage, res: ServerResponse) => {
      const declared = Number(req.headers['content-length']);
      if (declared > MAX_BODY_BYTES) return refuseBody(req, res);
      app.node(req, res);
    },
  );
  // A client sending `Expect: 100-continue` is told before it sends the body.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return refuseBody(req, res);
    res.writeContinue();
    app.node(req, res);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (isClientGone(error) || !socket.writable) {
      log.debug({ err: error }, 'client disconnected');
      return void socket.destroy();
    }
    const refusal = clientErrorOf(error);
    log.info({ code: error.code, status: refusal.status }, 'request refused by the HTTP parser');
    socket.end(rawAnswer(refusal));
  });
  return server;
}

/**
 * 413 for a body declared too large, before any of it is read. The connection closes after the
 * answer; the body already on its way is read and dropped meanwhile (briefly), so the client gets
 * the answer rather than a reset.
 */
function refuseBody(req: IncomingMessage, res: ServerResponse): void {
  const response = errorResponse(new PayloadTooLargeError(), requestIdFrom(req.headers['x-request-id'] as string | undefined));
  res.writeHead(413, { ...response.headers, connection: 'close', 'content-length': Buffer.byteLength(response.body) });
  res.end(response.body);
  req.resume();
  setTimeout(() => req.socket.destroy(), 2000).unref();
}
