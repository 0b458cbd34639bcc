import type { Socket } from 'node:net';
import type { Server } from 'node:http';
import { LogController, type FastifyBaseLogger, type FastifyHttpOptions } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { errorResponse } from '../rest/router.ts';
import { isClientGone } from './client-gone.ts';
import { requestIdFrom } from './request-id.ts';
import { RequestLog } from './request-log.ts';

/**
 * Node's limit on a request's head: the request line and headers together (its default; over
 * it, 431).
 */
export const MAX_HEADER_BYTES = 16 * 1024;

/** Bodies above this size are refused with 413 (uploads of media are the largest calls). */
export const MAX_BODY_BYTES = 25 * 1024 * 1024;

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
 * fastify's server options: the limits that keep one client from holding the service.
 * - a connection that sends or receives nothing for HTTP_CONNECTION_TIMEOUT_MS while no request is
 *   served on it is closed (silent clients included: Node's head timeout starts only with the first
 *   byte; connections.ts keeps the connections whose answer is being prepared);
 * - the head of a request within HTTP_HEADERS_TIMEOUT_MS, the whole request within
 *   HTTP_REQUEST_TIMEOUT_MS (408); bodies at HTTP_MIN_BODY_BYTES_PER_SECOND (body-rate.ts);
 * - idle keep-alive connections closed after HTTP_KEEP_ALIVE_TIMEOUT_MS, and after
 *   HTTP_MAX_REQUESTS_PER_SOCKET requests;
 * - bodies over 25 MiB answered 413 (fastify's body limit, a declared length before any of it is read);
 * - requests the parser refuses (headers over 16 KiB: 431; malformed: 400; too slow: 408)
 *   answered with the contract's error headers instead of a bare status line;
 * - clients that go away are logged at debug level, not as errors.
 */
export function serverOptions(config: Pick<Config, 'http'>, log: Logger): FastifyHttpOptions<Server> {
  const http = config.http;
  return {
    loggerInstance: log,
    // The access log is the `rest call` and `graphql request` lines (and `page` for the others), with their fields.
    logController: new LogController({ disableRequestLogging: true }),
    // request.log becomes pino's child logger only when a request logs through it (request-log.ts).
    childLoggerFactory: (logger, bindings, options) => new RequestLog(logger as Logger, bindings, options) as unknown as FastifyBaseLogger,
    genReqId: (req) => requestIdFrom(req.headers['x-request-id'] as string | undefined),
    bodyLimit: MAX_BODY_BYTES,
    connectionTimeout: http.connectionTimeoutMs,
    requestTimeout: http.requestTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    maxRequestsPerSocket: http.maxRequestsPerSocket,
    // Checked on this period: the head and request timeouts are enforced within a second of being due.
    http: { maxHeaderSize: MAX_HEADER_BYTES, headersTimeout: http.headersTimeoutMs, connectionsCheckingInterval: 1000 },
    // Paths are matched as given: `/api/user:name/` is the REST router's to judge.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    // On close, idle keep-alive connections are closed at once; requests in progress run to their end.
    forceCloseConnections: 'idle',
    clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
      if (isClientGone(error) || !socket.writable) {
        log.debug({ err: error }, 'client disconnected');
        return void socket.destroy();
      }
      const refusal = clientErrorOf(error);
      log.info({ code: error.code, status: refusal.status }, 'request refused by the HTTP parser');
      socket.end(rawAnswer(refusal));
    },
  };
}
