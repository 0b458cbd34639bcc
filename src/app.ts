import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import type { Platform } from './context.ts';
import { RestRouter, errorResponse, type RestResponse } from './rest/router.ts';
import { RateLimiter } from './rest/rate-limit.ts';
import { MAX_BODY_BYTES, PayloadTooLargeError, parseBodyArgs } from './http/body.ts';
import { AppError, knownError } from './errors.ts';
import { healthPage, jwksPage, linkProbe, loginPage, notFound, type SimpleResponse } from './http/pages.ts';
import { filePage } from './http/files.ts';
import { EXPORT_PATH, exportPage } from './http/exports.ts';
import { createGraphQLHandler, type GraphQLHandler } from './graphql/yoga.ts';
import { requestIdFrom } from './http/request-id.ts';
import { resultsPages } from './http/results-page.ts';
import { Health } from './http/health.ts';
import { Metrics, type PoolStats } from './http/metrics.ts';
import { createExtraRoutes } from './http/extra-routes.ts';
import type { AssetResponse } from './http/asset.ts';
import { isClientGone, readBody as readNodeBody } from './http/read-body.ts';

export interface App {
  /** The whole service as a fetch handler: used by tests and any fetch-based server. */
  fetch(request: Request): Promise<Response>;
  /** The same service for node:http; REST calls skip the Request/Response round trip. */
  node(req: IncomingMessage, res: ServerResponse): void;
  /** Set once migrations ran and the database answers; /health reports 503 before. */
  markReady(): void;
  /** Set when a shutdown begins; /health/ready reports 503 from then on. */
  markStopping(): void;
  /** The instance's metrics (GET /metrics); workers report their jobs to it. */
  readonly metrics: Metrics;
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

/** The operations pages (health, metrics) of one app. */
interface Operations {
  health: Health;
  metrics: Metrics;
}

/** Non-API pages shared by both adapters; undefined means "not mine". */
async function page(platform: Platform, method: string, path: string, ops: Operations, authorization: string | null | undefined): Promise<SimpleResponse | AssetResponse | undefined> {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  if (path === '/health') return healthPage(platform, ops.health.started);
  if (path === '/health/live') return ops.health.live();
  if (path === '/health/ready') return ops.health.ready();
  if (path === '/metrics') return ops.metrics.page(authorization ?? undefined);
  let m = /^\/login\/([a-z0-9]{20,80})$/.exec(path);
  // Link scanners probe with HEAD: only a GET uses up a login.
  if (m) return method === 'GET' ? loginPage(platform, { token: m[1]! }) : linkProbe();
  m = /^\/l\/([a-z0-9]{4,32})$/.exec(path);
  if (m) return method === 'GET' ? loginPage(platform, { shortCode: m[1]! }) : linkProbe();
  m = /^\/lti\/([a-z]{3}_[a-z0-9]+)\/jwks\.json$/.exec(path);
  if (m) return jwksPage(platform, m[1]!);
  if ((m = /^\/files\/([a-z0-9]{20,80})$/.exec(path))) return filePage(platform, m[1]!);
  return undefined;
}

export function createApp(platform: Platform, options: AppOptions = {}): App {
  const limiter = new RateLimiter(platform.config.rateLimit);
  const metrics = new Metrics(platform, { pool: options.pool });
  const ops: Operations = { health: new Health(platform, options.ready ?? false, options.workers), metrics };
  const rest = new RestRouter(platform, limiter, (method, endpoint, status, ms) => metrics.recordRest(method, endpoint, status, ms));
  const results = resultsPages(platform);
  const extra = createExtraRoutes(platform, rest);
  const graphql: GraphQLHandler = createGraphQLHandler(platform, limiter, (o) => metrics.recordGraphQL(o.operation, o.type, o.status, o.ms, o.errorCodes));

  async function fetchHandler(request: Request): Promise<Response> {
    const url = new URL(request.url);
    // Every answer carries it, whoever produced it (REST, GraphQL, yoga, pages, 404).
    const requestId = requestIdFrom(request.headers.get('x-request-id'));
    const asset = extra.page(request.method, url.pathname);
    const described = asset && (await asset);
    if (described) return new Response(request.method === 'HEAD' ? null : described.body, { status: described.status, headers: { ...described.headers, 'x-request-id': requestId } });
    if (extra.isMcp(url.pathname)) return extra.mcp(request);
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      const result = await rest.handle({
        method: request.method,
        path: url.pathname.slice(4),
        query: url.searchParams,
        headers: request.headers,
        requestId,
        body: async () => {
          const buffer = new Uint8Array(await request.arrayBuffer());
          if (buffer.byteLength > MAX_BODY_BYTES) throw new PayloadTooLargeError();
          return parseBodyArgs(request.headers.get('content-type'), buffer);
        },
      });
      return new Response(result.body, { status: result.status, headers: result.headers });
    }
    if (url.pathname === '/graphql') {
      if (!graphql.acceptsJson(request)) return yogaFetch(withRequestId(request, requestId), requestId);
      const body = await request.text();
      const call = { method: request.method, url: request.url, headers: request.headers, requestId };
      const result = await graphql.json(call, body);
      if (result) return new Response(result.body, { status: result.status, headers: result.headers });
      return yogaFetch(withRequestId(new Request(request.url, { method: request.method, headers: request.headers, body }), requestId), requestId);
    }
    const download = isDownload(request.method, url.pathname);
    if (download) {
      const page = await exportPage(platform, request.method, download, requestId);
      const headers = { ...page.headers, 'x-request-id': requestId };
      if ('stream' in page) return new Response(Readable.toWeb(page.stream) as ReadableStream, { status: page.status, headers });
      return new Response(request.method === 'HEAD' ? null : page.body, { status: page.status, headers });
    }
    const result =
      (await results.handle({ method: request.method, path: url.pathname, forwardedFor: request.headers.get('x-forwarded-for'), body: () => request.text() })) ??
      (await page(platform, request.method, url.pathname, ops, request.headers.get('authorization'))) ??
      notFound();
    return new Response(result.status === 302 || request.method === 'HEAD' ? null : result.body, {
      status: result.status,
      headers: { ...result.headers, 'x-request-id': requestId },
    });
  }

  /** yoga's own answer with the request id added (its headers may be immutable: then copied). */
  async function yogaFetch(request: Request, requestId: string): Promise<Response> {
    const response = await graphql.fetch(request);
    try {
      response.headers.set('x-request-id', requestId);
      return response;
    } catch {
      const headers = new Headers(response.headers);
      headers.set('x-request-id', requestId);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
  }

  function send(res: ServerResponse, result: RestResponse | SimpleResponse | AssetResponse, requestId: string, head = false): void {
    // A body refused for its size or pace was not read to its end: the connection cannot be used again.
    if (result.status === 413 || result.status === 408) res.setHeader('connection', 'close');
    res.writeHead(result.status, { ...result.headers, 'x-request-id': requestId, 'content-length': Buffer.byteLength(result.body) });
    res.end(head ? undefined : result.body);
  }

  const bodyLimits = { minBytesPerSecond: platform.config.http.minBodyBytesPerSecond, graceMs: platform.config.http.headersTimeoutMs };
  const readBody = (req: IncomingMessage) => readNodeBody(req, bodyLimits);

  /** The fast path when it applies; otherwise the request, its body already read or not, goes to yoga. */
  async function graphqlNode(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const headers = { get: (name: string) => req.headers[name] as string | undefined };
    const method = req.method ?? 'GET';
    const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
    let body: Buffer | undefined;
    if (graphql.acceptsJson({ method, headers })) {
      body = await readBody(req);
      const result = await graphql.json({ method, url, headers, requestId }, body.toString('utf8'));
      if (result) return send(res, result, requestId);
    }
    // yoga builds its context from the request's headers: it sees the id the answer carries.
    req.headers['x-request-id'] = requestId;
    if (!body) {
      res.setHeader('x-request-id', requestId);
      return graphql.node(req, res);
    }
    // Bodies are read here, within the size and rate limits, and not by yoga, which has none.
    if (!body && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') body = await readBody(req);
    if (!body) return graphql.node(req, res);
    // Read already, and not a single JSON operation after all (a batch, bad JSON): yoga answers it.
    const requestHeaders = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') requestHeaders.set(name, value);
    const response = await graphql.fetch(new Request(url, { method, headers: requestHeaders, body: new Uint8Array(body) }));
    res.writeHead(response.status, { ...Object.fromEntries(response.headers), 'x-request-id': requestId });
    res.end(Buffer.from(await response.arrayBuffer()));
  }

  async function nodeHandler(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const pathname = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const asset = extra.page(req.method ?? 'GET', pathname);
    const described = asset && (await asset);
    if (described) return send(res, described, requestId, req.method === 'HEAD');
    if (extra.isMcp(pathname)) return extra.mcpNode(req, res);
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      const headers = { get: (name: string) => req.headers[name] as string | undefined };
      const result = await rest.handle({
        method: req.method ?? 'GET',
        path: pathname.slice(4),
        query: new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1)),
        headers,
        requestId,
        body: async () => parseBodyArgs(headers.get('content-type'), await readBody(req)),
      });
      return send(res, result, requestId);
    }
    if (pathname === '/graphql') return graphqlNode(req, res, requestId);
    const download = isDownload(req.method ?? 'GET', pathname);
    if (download) {
      const page = await exportPage(platform, req.method ?? 'GET', download, requestId);
      if (!('stream' in page)) return send(res, page, requestId, req.method === 'HEAD');
      res.writeHead(page.status, { ...page.headers, 'x-request-id': requestId });
      // A failure while writing ends the answer unfinished (the status was sent); a reader that leaves stops the writing.
      return void pipeline(page.stream, res, (error) => {
        if (error && !isClientGone(error)) platform.log.error({ reqId: requestId, err: error }, 'results export download failed');
      });
    }
    const forwardedFor = req.headers['x-forwarded-for'] as string | undefined;
    const resultsPage = { method: req.method ?? 'GET', path: pathname, forwardedFor, socketAddress: req.socket.remoteAddress, body: async () => (await readBody(req)).toString('utf8') };
    const result = (await results.handle(resultsPage)) ?? (await page(platform, req.method ?? 'GET', pathname, ops, req.headers.authorization)) ?? notFound();
    send(res, result, requestId, req.method === 'HEAD');
  }

  return {
    fetch: fetchHandler,
    node(req, res) {
      const requestId = requestIdFrom(req.headers['x-request-id'] as string | undefined);
      nodeHandler(req, res, requestId).catch((error: unknown) => {
        // The client went away: nobody to answer, and nothing went wrong here.
        if (isClientGone(error)) {
          platform.log.debug({ reqId: requestId, err: error }, 'client disconnected');
          return void res.destroy();
        }
        const appError = knownError(error) ?? new AppError(500, 'INTERNAL_ERROR', 'Unexpected error');
        if (appError.status === 500) platform.log.error({ reqId: requestId, err: error }, 'unhandled request error');
        if (res.headersSent) return void res.destroy();
        send(res, errorResponse(appError, requestId), requestId);
      });
    },
    markReady() {
      ops.health.markReady();
    },
    markStopping() {
      ops.health.markStopping();
      // Live streams would hold the server's close open until the shutdown timeout.
      platform.live.endSubscriptions();
    },
    metrics,
    async close() {
      await limiter.close();
      await platform.live.close();
    },
  };
}

/** The token of a results export download (`GET|HEAD /exports/<token>`), or undefined. */
function isDownload(method: string, path: string): string | undefined {
  return method === 'GET' || method === 'HEAD' ? EXPORT_PATH.exec(path)?.[1] : undefined;
}

/** The request with `x-request-id` set to the id its answer carries (a copy when its headers are immutable). */
function withRequestId(request: Request, requestId: string): Request {
  if (request.headers.get('x-request-id') === requestId) return request;
  try {
    request.headers.set('x-request-id', requestId);
    return request;
  } catch {
    const headers = new Headers(request.headers);
    headers.set('x-request-id', requestId);
    return new Request(request, { headers });
  }
}
