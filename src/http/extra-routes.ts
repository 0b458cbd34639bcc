import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Platform } from '../context.ts';
import type { RestRouter } from '../rest/router.ts';
import { DOCS_PATH, OPENAPI_PATH, describePage } from './docs-page.ts';
import { GRAPHIQL_ASSET_PREFIX, graphiqlAsset } from '../graphql/graphiql.ts';
import type { McpHandler } from '../mcp/server.ts';
import { MAX_BODY_BYTES, PayloadTooLargeError } from './body.ts';
import type { AssetResponse } from './asset.ts';
import { JOURNEY_SCHEMA_PATH, journeyJsonSchemaText } from '../services/journeys/json-schema.ts';

/**
 * The service's descriptions: /api/openapi.json, /api/docs and /api/journey.schema.json (before the REST router, which owns
 * the rest of /api), GraphiQL's files under /graphiql/, and the MCP endpoint. One dispatch for both
 * adapters of app.ts; `undefined` means "not mine".
 */
export interface ExtraRoutes {
  /** Static pages and files (GET and HEAD); undefined at once, without a promise, for any other path. */
  page(method: string, path: string): Promise<AssetResponse | undefined> | undefined;
  /** Whether the path is the MCP endpoint's. */
  isMcp(path: string): boolean;
  mcp(request: Request): Promise<Response>;
  /** The MCP endpoint for node:http. */
  mcpNode(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function createExtraRoutes(platform: Platform, rest: RestRouter): ExtraRoutes {
  // The MCP SDK is loaded on the first call to /mcp, not at start (start-up time and memory).
  let mcpHandler: Promise<McpHandler> | undefined;
  const mcp = {
    fetch: async (request: Request) => (await (mcpHandler ??= import('../mcp/server.ts').then((m) => m.createMcpHandler(platform, rest)))).fetch(request),
  };

  // Every request passes here first: REST and GraphQL calls leave without an await.
  function page(method: string, path: string): Promise<AssetResponse | undefined> | undefined {
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    if (path.startsWith(GRAPHIQL_ASSET_PREFIX)) return graphiqlAsset(path);
    if (path === OPENAPI_PATH || path.startsWith(DOCS_PATH)) return describePage(method, path);
    if (path === JOURNEY_SCHEMA_PATH) {
      return Promise.resolve({ status: 200, headers: { 'content-type': 'application/schema+json; charset=utf-8', 'cache-control': 'public, max-age=3600' }, body: journeyJsonSchemaText() });
    }
    return undefined;
  }

  async function readBody(req: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) throw new PayloadTooLargeError();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  return {
    page,
    isMcp: (path) => path === '/mcp',
    mcp: (request) => mcp.fetch(request),
    async mcpNode(req, res) {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(name, value);
        else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      }
      const method = req.method ?? 'GET';
      const body = method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(await readBody(req));
      const response = await mcp.fetch(new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { method, headers, body }));
      const payload = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, { ...Object.fromEntries(response.headers), 'content-length': payload.length });
      res.end(payload);
    },
  };
}
