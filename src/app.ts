import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Platform } from './context.ts';
import { RestRouter, errorResponse, type RestRequest, type RestResponse } from './rest/router.ts';
import { RateLimiter } from './rest/rate-limit.ts';
import { MAX_BODY_BYTES, PayloadTooLargeError, parseBodyArgs } from './http/body.ts';
import { AppError } from './errors.ts';
import { healthPage, jwksPage, linkProbe, loginPage, notFound, type SimpleResponse } from './http/pages.ts';
import { filePage } from './http/files.ts';
import { createGraphQLHandler, type GraphQLHandler } from './graphql/yoga.ts';
import { requestIdFrom } from './http/request-id.ts';
import { isClientGone, readBody as readNodeBody } from './http/read-body.ts';

export interface App {
  /** The whole service as a fetch handler: used by tests and any fetch-based server. */
  fetch(request: Request): Promise<Response>;
  /** The same service for node:http; REST calls skip the Request/Response round trip. */
  node(req: IncomingMessage, res: ServerResponse): void;
  /** Set once migrations ran and the database answers; /health reports 503 before. */
  markReady(): void;
  close(): Promise<void>;
}

/** Non-API pages shared by both adapters; undefined means "not mine". */
async function page(platform: Platform, method: string, path: string, ready: boolean): Promise<SimpleResponse | undefined> {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  if (path === '/health') return healthPage(platform, ready);
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

export function createApp(platform: Platform, options: { ready?: boolean } = {}): App {
  const limiter = new RateLimiter(platform.config.rateLimit);
  const rest = new RestRouter(platform, limiter);
  const graphql: GraphQLHandler = createGraphQLHandler(platform, limiter);
  let ready = options.ready ?? false;

  async function fetchHandler(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      const requestId = requestIdFrom(request.headers.get('x-request-id'));
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
      if (!graphql.acceptsJson(request)) return graphql.fetch(request);
      const body = await request.text();
      const call = { method: request.method, url: request.url, headers: request.headers, requestId: requestIdFrom(request.headers.get('x-request-id')) };
      const result = await graphql.json(call, body);
      if (result) return new Response(result.body, { status: result.status, headers: result.headers });
      return graphql.fetch(new Request(request.url, { method: request.method, headers: request.headers, body }));
    }
    const result = (await page(platform, request.method, url.pathname, ready)) ?? notFound();
    return new Response(result.status === 302 || request.method === 'HEAD' ? null : result.body, { status: result.status, headers: result.headers });
  }

  function send(res: ServerResponse, result: RestResponse | SimpleResponse, head = false): void {
    // A body refused for its size or pace was not read to its end: the connection cannot be used again.
    if (result.status === 413 || result.status === 408) res.setHeader('connection', 'close');
    res.writeHead(result.status, { ...result.headers, 'content-length': Buffer.byteLength(result.body) });
    res.end(head ? undefined : result.body);
  }

  const bodyLimits = { minBytesPerSecond: platform.config.http.minBodyBytesPerSecond, graceMs: platform.config.http.headersTimeoutMs };
  const readBody = (req: IncomingMessage) => readNodeBody(req, bodyLimits);

  /** The fast path when it applies; otherwise the request, its body already read or not, goes to yoga. */
  async function graphqlNode(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers = { get: (name: string) => req.headers[name] as string | undefined };
    const method = req.method ?? 'GET';
    const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
    let body: Buffer | undefined;
    if (graphql.acceptsJson({ method, headers })) {
      body = await readBody(req);
      const result = await graphql.json({ method, url, headers, requestId: requestIdFrom(headers.get('x-request-id')) }, body.toString('utf8'));
      if (result) return send(res, result);
    }
    // Bodies are read here, within the size and rate limits, and not by yoga, which has none.
    if (!body && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') body = await readBody(req);
    if (!body) return graphql.node(req, res);
    // Read already, and not a single JSON operation after all (a batch, bad JSON): yoga answers it.
    const requestHeaders = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') requestHeaders.set(name, value);
    const response = await graphql.fetch(new Request(url, { method, headers: requestHeaders, body: new Uint8Array(body) }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  }

  async function nodeHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const pathname = q < 0 ? rawUrl : rawUrl.slice(0, q);
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      const headers = { get: (name: string) => req.headers[name] as string | undefined };
      const requestId = requestIdFrom(headers.get('x-request-id'));
      const result = await rest.handle({
        method: req.method ?? 'GET',
        path: pathname.slice(4),
        query: new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1)),
        headers,
        requestId,
        body: async () => parseBodyArgs(headers.get('content-type'), await readBody(req)),
      });
      return send(res, result);
    }
    if (pathname === '/graphql') return graphqlNode(req, res);
    const result = (await page(platform, req.method ?? 'GET', pathname, ready)) ?? notFound();
    send(res, result, req.method === 'HEAD');
  }

  return {
    fetch: fetchHandler,
    node(req, res) {
      nodeHandler(req, res).catch((error: unknown) => {
        // The client went away: nobody to answer, and nothing went wrong here.
        if (isClientGone(error)) {
          platform.log.debug({ err: error }, 'client disconnected');
          return void res.destroy();
        }
        const appError = error instanceof AppError ? error : new AppError(500, 'INTERNAL_ERROR', 'Unexpected error');
        if (!(error instanceof AppError)) platform.log.error({ err: error }, 'unhandled request error');
        if (res.headersSent) return void res.destroy();
        send(res, errorResponse(appError, requestIdFrom(req.headers['x-request-id'] as string | undefined)));
      });
    },
    markReady() {
      ready = true;
    },
    async close() {
      await limiter.close();
    },
  };
}
