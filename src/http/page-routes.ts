import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Platform } from '../context.ts';
import type { RestRouter } from '../rest/router.ts';
import type { McpHandler } from '../mcp/server.ts';
import { DOCS_PATH, OPENAPI_PATH, describePage } from './docs-page.ts';
import { GRAPHIQL_ASSET_PREFIX, graphiqlAsset } from '../graphql/graphiql.ts';
import { JOURNEY_SCHEMA_PATH, journeyJsonSchemaText } from '../services/journeys/json-schema.ts';
import { healthPage, jwksPage, linkProbe, loginPage } from './pages.ts';
import { filePage } from './files.ts';
import { exportPage } from './exports.ts';
import { resultsPages } from './results-page.ts';
import type { Health } from './health.ts';
import type { Metrics } from './metrics.ts';
import type { AssetResponse } from './asset.ts';
import { isClientGone } from './client-gone.ts';
import { notFoundReply } from './errors.ts';
import { restAnswer } from './rest-routes.ts';

export interface PageOptions {
  platform: Platform;
  rest: RestRouter;
  health: Health;
  metrics: Metrics;
}

/** A page's answer as fastify's reply (a 302 carries no body). */
export const sendPage = (reply: FastifyReply, page: AssetResponse) =>
  reply.code(page.status).headers(page.headers).send(page.status === 302 ? '' : page.body);

/**
 * Everything but the two faces: health and metrics, the description pages (OpenAPI, /api/docs,
 * the journey JSON schema, GraphiQL's files), login links, linked files, export downloads, LTI key
 * sets, results pages (with their branding image) and the MCP endpoint. GET routes answer HEAD too (fastify sends the head
 * without the body); login links and export downloads answer HEAD without using the link.
 */
export async function pageRoutes(app: FastifyInstance, options: PageOptions): Promise<void> {
  const { platform, rest, health, metrics } = options;
  const results = resultsPages(platform);
  // Pages read bodies as text (the results page's form); MCP reads its JSON-RPC body itself.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.get('/health', async (_request, reply) => sendPage(reply, await healthPage(platform, health.started)));
  app.get('/health/live', async (_request, reply) => sendPage(reply, health.live()));
  app.get('/health/ready', async (_request, reply) => sendPage(reply, await health.ready()));
  app.get('/metrics', async (request, reply) => sendPage(reply, await metrics.page(request.headers.authorization)));

  const described = async (request: FastifyRequest<{ Params: { '*'?: string } }>, reply: FastifyReply) => {
    const page = await describePage(request.method, request.url.split('?')[0]!);
    if (page) return sendPage(reply, page);
    // Not a file of the docs: the REST router answers (400 unknown endpoint), as for any path under /api.
    return restAnswer(rest, request, reply, false);
  };
  app.get(OPENAPI_PATH, described);
  app.get(DOCS_PATH, described);
  app.get(`${DOCS_PATH}/*`, described);
  app.get(JOURNEY_SCHEMA_PATH, async (_request, reply) =>
    reply.code(200).headers({ 'content-type': 'application/schema+json; charset=utf-8', 'cache-control': 'public, max-age=3600' }).send(journeyJsonSchemaText()),
  );
  app.get(`${GRAPHIQL_ASSET_PREFIX}*`, async (request, reply) => {
    const asset = await graphiqlAsset(request.url.split('?')[0]!);
    return asset ? sendPage(reply, asset) : notFoundReply(reply, request.id);
  });

  // Link scanners probe with HEAD: only a GET uses up a login.
  const login = (shape: RegExp, lookup: (key: string) => { token: string } | { shortCode: string }) => async (request: FastifyRequest, reply: FastifyReply) => {
    const { key } = request.params as { key: string };
    if (!shape.test(key)) return notFoundReply(reply, request.id);
    return sendPage(reply, request.method === 'GET' ? await loginPage(platform, lookup(key)) : linkProbe());
  };
  app.route({ method: ['GET', 'HEAD'], url: '/login/:key', handler: login(/^[a-z0-9]{20,80}$/, (token) => ({ token })), exposeHeadRoute: false });
  app.route({ method: ['GET', 'HEAD'], url: '/l/:key', handler: login(/^[a-z0-9]{4,32}$/, (shortCode) => ({ shortCode })), exposeHeadRoute: false });
  app.get('/lti/:integration/jwks.json', async (request, reply) => {
    const { integration } = request.params as { integration: string };
    return /^[a-z]{3}_[a-z0-9]+$/.test(integration) ? sendPage(reply, await jwksPage(platform, integration)) : notFoundReply(reply, request.id);
  });
  app.get('/files/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    return /^[a-z0-9]{20,80}$/.test(token) ? sendPage(reply, await filePage(platform, token)) : notFoundReply(reply, request.id);
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/exports/:token',
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const { token } = request.params as { token: string };
      if (!/^[a-z0-9]{20,80}$/.test(token)) return notFoundReply(reply, request.id);
      const page = await exportPage(platform, request.method, token, request.id);
      if (!('stream' in page)) return sendPage(reply, page);
      // A failure while writing ends the answer unfinished (the status was sent); a reader that leaves stops the writing.
      page.stream.on('error', (error) => {
        if (!isClientGone(error)) platform.log.error({ reqId: request.id, err: error }, 'results export download failed');
      });
      return reply.code(200).headers(page.headers).send(page.stream as Readable);
    },
  });
  app.route({
    method: ['GET', 'HEAD', 'POST'],
    url: '/results/:exam',
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const page = await results.handle({
        method: request.method,
        path: request.url.split('?')[0]!,
        forwardedFor: request.headers['x-forwarded-for'] as string | undefined,
        socketAddress: request.socket.remoteAddress,
        body: async () => (request.body as Buffer | undefined)?.toString('utf8') ?? '',
      });
      return page ? sendPage(reply, page) : notFoundReply(reply, request.id);
    },
  });

  app.get('/results/:exam/image', async (request, reply) => {
    const page = await results.image(request.url.split('?')[0]!);
    return page ? sendPage(reply, page) : notFoundReply(reply, request.id);
  });

  // The MCP SDK is loaded on the first call to /mcp, not at start (start-up time and memory).
  let mcp: Promise<McpHandler> | undefined;
  app.all('/mcp', async (request, reply) => {
    mcp ??= import('../mcp/server.ts').then((m) => m.createMcpHandler(platform, rest));
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    }
    const body = request.body as Buffer | undefined;
    const url = `http://${request.headers.host ?? 'localhost'}${request.url}`;
    const response = await (await mcp).fetch(new Request(url, { method: request.method, headers, body: body && body.length > 0 ? new Uint8Array(body) : undefined }));
    return reply.code(response.status).headers(Object.fromEntries(response.headers)).send(Buffer.from(await response.arrayBuffer()));
  });
}
