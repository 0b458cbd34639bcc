import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Platform } from './context.ts';
import { RestRouter } from './rest/router.ts';
import { RateLimiter } from './rate-limit.ts';
import { createGraphQLHandler } from './graphql/yoga.ts';
import { Health } from './http/health.ts';
import { Metrics, type PoolStats } from './http/metrics.ts';
import { serverOptions } from './http/server.ts';
import { errorHandling, sendError } from './http/errors.ts';
import { AppError } from './errors.ts';
import { arrivals } from './batcher.ts';
import { bodyRate } from './http/body-rate.ts';
import { overload } from './http/overload.ts';
import { closeOnlyIdleConnections, limitConnectionsPerAddress } from './http/connections.ts';
import { restAnswer, restRoutes } from './http/rest-routes.ts';
import { graphqlRoute } from './http/graphql-route.ts';
import { pageRoutes } from './http/page-routes.ts';

export interface App {
  /** The whole service as a fetch handler (over fastify's inject(), no socket): used by tests. */
  fetch(request: Request): Promise<Response>;
  /** The fastify instance: main.ts and tests that need real sockets listen with it. */
  readonly server: FastifyInstance;
  /** Listens on a port (0: any free one) and resolves with the base URL. */
  listen(port: number, host: string): Promise<string>;
  /** Set once migrations ran and the database answers; /health reports 503 before. */
  markReady(): void;
  /** Set when a shutdown begins; /health/ready reports 503 from then on. */
  markStopping(): void;
  /** The instance's metrics (GET /metrics); workers report their jobs to it. */
  readonly metrics: Metrics;
  /** Stops listening (requests in progress run to their end), then releases the rate limiter and live streams. */
  close(): Promise<void>;
}

export interface AppOptions {
  /** Start ready (tests); otherwise markReady() says when. */
  ready?: boolean;
  /** The job workers, whose state /health/ready reports. */
  workers?: { readonly running: boolean };
  /** The PostgreSQL pool, whose connections /metrics reports. */
  pool?: PoolStats;
}

/** Statuses whose answers carry no body (a fetch Response refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * The service as one fastify instance: REST under /api, GraphQL at /graphql, and the pages,
 * each a plugin of http/. Requests get their id (a safe `x-request-id` of the caller, or a new
 * one) and every answer carries it.
 */
export function createApp(platform: Platform, options: AppOptions = {}): App {
  const limiter = new RateLimiter(platform.config.rateLimit);
  const metrics = new Metrics(platform, { pool: options.pool });
  const health = new Health(platform, options.ready ?? false, options.workers);
  const rest = new RestRouter(platform, limiter, (method, endpoint, status, ms) => metrics.recordRest(method, endpoint, status, ms));
  const graphql = createGraphQLHandler(platform, limiter, (o) => metrics.recordGraphQL(o.operation, o.type, o.status, o.ms, o.errorCodes));

  const server = Fastify({
    ...serverOptions(platform.config, platform.log),
    // A path fastify cannot decode (`/api/%ZZ`): under /api the REST router answers it (400 UNKNOWN_ENDPOINT, counted), elsewhere 400.
    frameworkErrors: (_error, request, reply) =>
      request.url === '/api' || request.url.startsWith('/api/')
        ? restAnswer(rest, request, reply, false)
        : sendError(reply, new AppError(400, 'BAD_REQUEST', 'The request is not valid HTTP'), request.id),
  });
  server.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  errorHandling(server);
  limitConnectionsPerAddress(server.server, platform.config.http.maxConnectionsPerAddress, platform.log);
  server.server.on('connection', () => arrivals.mark());
  closeOnlyIdleConnections(server.server);
  void server.register(overload, platform.config.overload);
  bodyRate(server, { minBytesPerSecond: platform.config.http.minBodyBytesPerSecond, graceMs: platform.config.http.headersTimeoutMs });
  // Each face in a plugin of its own: its content-type parsers apply to its routes only.
  void server.register(restRoutes, { rest });
  void server.register(graphqlRoute, { graphql });
  void server.register(pageRoutes, { platform, rest, health, metrics });
  server.addHook('onClose', async () => {
    await limiter.close();
    await platform.live.close();
  });
  let closed: Promise<void> | undefined;

  async function fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const headers: Record<string, string> = { host: url.host };
    request.headers.forEach((value, name) => (headers[name] = value));
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const response = await server.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers,
      payload,
      // Streams (GraphQL subscriptions, export downloads) reach the caller as they are written.
      payloadAsStream: true,
      signal: request.signal,
    });
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (Array.isArray(value)) for (const v of value) answerHeaders.append(name, String(v));
      else if (value !== undefined) answerHeaders.set(name, String(value));
    }
    const stream = response.stream();
    const empty = NO_BODY.has(response.statusCode) || request.method === 'HEAD';
    if (empty) stream.resume();
    return new Response(empty ? null : (Readable.toWeb(stream) as ReadableStream), { status: response.statusCode, headers: answerHeaders });
  }

  return {
    fetch,
    server,
    async listen(port, host) {
      const address = await server.listen({ port, host, backlog: platform.config.http.listenBacklog });
      return address.replace('[::1]', '127.0.0.1');
    },
    markReady() {
      health.markReady();
    },
    markStopping() {
      health.markStopping();
      // Live streams would hold the server's close open until the shutdown timeout.
      platform.live.endSubscriptions();
    },
    metrics,
    close: () => (closed ??= server.close()),
  };
}
