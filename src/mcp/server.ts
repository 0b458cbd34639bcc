import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Platform } from '../context.ts';
import { AppError, knownError } from '../errors.ts';
import { authenticate, readCredentials } from '../auth/authenticate.ts';
import { COMMON_ARGUMENTS, operations, type Operation } from '../rest/operations.ts';
import { routes } from '../rest/routes.ts';
import { errorResponse, type RestRouter } from '../rest/router.ts';
import { argumentsSchema, operationId } from '../rest/json-schema.ts';
import { requestIdFrom } from '../http/request-id.ts';

/**
 * The contract's operations as MCP tools at /mcp (Streamable HTTP, stateless, JSON responses):
 * one tool per implemented operation of the catalogue, its input schema from the documented
 * arguments (the same JSON Schema as the OpenAPI description). A tool call is a REST call: it goes
 * through the REST router with the caller's own headers, so credentials, rate limits, input checks,
 * permissions and the response shape are the contract's. A refusal is a tool result with isError.
 */

export const MCP_PATH = '/mcp';

const ASSUME = COMMON_ARGUMENTS.filter((a) => a.name === 'assume');

/** Reads change nothing; DELETE removes and PUT replaces a whole record (settings), so both may destroy. */
function annotations(operation: Operation): Tool['annotations'] {
  const method = operation.method;
  return {
    title: `${method} ${operation.endpoint}`,
    readOnlyHint: method === 'GET',
    destructiveHint: method === 'DELETE' || method === 'PUT',
    idempotentHint: method === 'GET' || method === 'PUT' || method === 'DELETE',
    openWorldHint: false,
  };
}

function describe(operation: Operation): string {
  const output = operation.output?.map((f) => f.name).join(', ');
  return [
    `${operation.method} ${operation.endpoint} of the REST/RPC contract (${operation.section}).`,
    ...(operation.prose ? [operation.prose] : []),
    output ? `Returns: ${output}.` : 'The contract lists no output fields.',
    'Errors come back as a result with isError, holding the status, code and message.',
  ].join(' ');
}

function toTool(operation: Operation): Tool {
  return {
    name: operationId(operation),
    title: `${operation.method} ${operation.endpoint}`,
    description: describe(operation),
    inputSchema: argumentsSchema(operation, ASSUME) as Tool['inputSchema'],
    annotations: annotations(operation),
  };
}

/** GET arguments travel as query text (lists and hashes as JSON, which the contract accepts). */
function queryOf(args: Record<string, unknown>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    query.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return query;
}

export interface McpHandler {
  fetch(request: Request): Promise<Response>;
}

export function createMcpHandler(platform: Platform, rest: RestRouter): McpHandler {
  // Built once: the catalogue and the routes are fixed for the life of the process.
  const implemented = operations.filter((o) => routes[`${o.method} ${o.endpoint}`] !== undefined);
  const tools = implemented.map(toTool);
  const byName = new Map(implemented.map((o) => [operationId(o), o]));

  async function callTool(request: Request, requestId: string, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const operation = byName.get(name);
    if (!operation) throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${name}'`);
    const result = await rest.handle({
      method: operation.method,
      path: `/v1/${operation.endpoint}`,
      query: operation.method === 'GET' ? queryOf(args) : new URLSearchParams(),
      headers: request.headers,
      requestId,
      body: async () => args,
    });
    let body: unknown;
    try {
      body = JSON.parse(result.body);
    } catch {
      body = undefined;
    }
    const structured = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    if (result.status === 200) return { content: [{ type: 'text', text: result.body }], ...(structured ? { structuredContent: structured } : {}) };
    const code = result.headers['service-api-error-code'] ?? 'ERROR';
    const message = result.headers['service-api-error'] ?? '';
    return { isError: true, content: [{ type: 'text', text: `${result.status} ${code}: ${message}\n${result.body}` }] };
  }

  return {
    async fetch(request) {
      const requestId = requestIdFrom(request.headers.get('x-request-id'));
      if (request.method !== 'POST') {
        // Stateless: no session to open a stream for (GET) or to end (DELETE).
        const error = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless, use POST' }, id: null };
        return Response.json(error, { status: 405, headers: { allow: 'POST', 'x-request-id': requestId } });
      }
      try {
        await authenticate(platform, readCredentials(request.headers, {}));
      } catch (error) {
        const refusal = knownError(error) ?? new AppError(500, 'INTERNAL_ERROR', `Unexpected error; reference ${requestId}`);
        if (refusal.status === 500) platform.log.error({ reqId: requestId, err: error }, 'unexpected MCP error');
        const response = errorResponse(refusal, requestId);
        return new Response(response.body, { status: response.status, headers: response.headers });
      }
      const server = new Server({ name: 'learning-platform', version: '1.0.0' }, { capabilities: { tools: { listChanged: false } } });
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
      server.setRequestHandler(CallToolRequestSchema, async ({ params }) => callTool(request, requestId, params.name, params.arguments ?? {}));
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        const response = await transport.handleRequest(request);
        response.headers.set('x-request-id', requestId);
        return response;
      } finally {
        await server.close();
      }
    },
  };
}
