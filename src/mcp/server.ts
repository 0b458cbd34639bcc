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
import { proseOf, shortProse } from '../rest/operations/prose/index.ts';
import { requestIdFrom } from '../http/request-id.ts';
import { instructions } from './instructions.ts';
import { selectToolsets, toolsetOf, TOOLSETS, ToolsetSelectionError } from './toolsets.ts';

/**
 * The contract's operations as MCP tools at /mcp (Streamable HTTP, stateless, JSON responses):
 * one tool per implemented operation of the catalogue, its input schema from the documented
 * arguments (the same JSON Schema as the OpenAPI description). The client selects toolsets
 * (toolsets.ts) with the X-MCP-Toolsets header or the toolsets query parameter, and may ask for
 * the read-only tools only; the server's instructions explain credentials, assume tokens and the
 * workflow. A tool call is a REST call: it goes
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

/** The operation's prose, shortened: a tool list holds every operation, and the reference at /api/docs has the rest. */
function describe(operation: Operation): string {
  const output = operation.output?.map((f) => f.name).join(', ');
  const example = proseOf(operation)?.example;
  return [
    shortProse(operation) ?? `${operation.method} ${operation.endpoint} of the REST/RPC contract.`,
    output ? `Returns: ${output}.` : 'The contract defines no output fields for it.',
    example && Object.keys(example).length ? `Example arguments: ${JSON.stringify(example)}.` : undefined,
    'Errors come back as a result with isError, holding the status, code and message.',
  ]
    .filter(Boolean)
    .join(' ');
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

const LIST_TOOLSETS: Tool = {
  name: 'list_toolsets',
  title: 'List toolsets',
  description:
    'The toolsets of this server: name, description, whether this connection selected them, and their tool names. ' +
    'Select toolsets with the X-MCP-Toolsets header or the toolsets query parameter of the endpoint (comma-separated; default, all).',
  inputSchema: { type: 'object', properties: {} },
  annotations: { title: 'List toolsets', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

interface Selection {
  toolsets: Set<string>;
  readOnly: boolean;
}

/** The client's choice, from the headers and the query of the /mcp request; an unknown name is a 400. */
function selectionOf(request: Request): Selection {
  const query = new URL(request.url).searchParams;
  const toolsets = selectToolsets([request.headers.get('x-mcp-toolsets'), ...query.getAll('toolsets')]);
  const flag = request.headers.get('x-mcp-readonly') ?? query.get('readonly') ?? 'false';
  if (!['true', 'false', '1', '0'].includes(flag.trim().toLowerCase())) throw new ToolsetSelectionError(`readonly must be true or false, not '${flag}'`);
  return { toolsets, readOnly: ['true', '1'].includes(flag.trim().toLowerCase()) };
}

function jsonRpcError(status: number, message: string, headers: Record<string, string>): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status, headers });
}

export interface McpHandler {
  fetch(request: Request): Promise<Response>;
}

export function createMcpHandler(platform: Platform, rest: RestRouter): McpHandler {
  // Built once: the catalogue and the routes are fixed for the life of the process.
  const implemented = operations.filter((o) => routes[`${o.method} ${o.endpoint}`] !== undefined);
  const entries = implemented.map((operation) => ({ operation, tool: toTool(operation), toolset: toolsetOf(operation)! }));
  const byName = new Map(entries.map((e) => [e.tool.name, e]));
  const selectedTools = (selection: Selection) =>
    entries.filter((e) => selection.toolsets.has(e.toolset) && (!selection.readOnly || e.tool.annotations?.readOnlyHint)).map((e) => e.tool);

  function listToolsets(selection: Selection): CallToolResult {
    const toolsets = TOOLSETS.map((t) => ({
      name: t.name,
      description: t.description,
      selected: selection.toolsets.has(t.name),
      tools: entries.filter((e) => e.toolset === t.name).map((e) => e.tool.name),
    }));
    return { content: [{ type: 'text', text: JSON.stringify({ toolsets }) }], structuredContent: { toolsets } };
  }

  async function callTool(request: Request, requestId: string, selection: Selection, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    if (name === LIST_TOOLSETS.name) return listToolsets(selection);
    const entry = byName.get(name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${name}'`);
    if (!selection.toolsets.has(entry.toolset)) {
      throw new McpError(ErrorCode.InvalidParams, `Tool '${name}' is in the toolset '${entry.toolset}', which this connection did not select (X-MCP-Toolsets header or toolsets query parameter)`);
    }
    if (selection.readOnly && !entry.tool.annotations?.readOnlyHint) throw new McpError(ErrorCode.InvalidParams, `Tool '${name}' changes data; this connection is read-only`);
    const { operation } = entry;
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
        return jsonRpcError(405, 'Method not allowed: this MCP endpoint is stateless, use POST', { allow: 'POST', 'x-request-id': requestId });
      }
      let selection: Selection;
      try {
        selection = selectionOf(request);
      } catch (error) {
        if (!(error instanceof ToolsetSelectionError)) throw error;
        return jsonRpcError(400, error.message, { 'x-request-id': requestId });
      }
      try {
        await authenticate(platform, readCredentials(request.headers, {}));
      } catch (error) {
        const refusal = knownError(error) ?? new AppError(500, 'INTERNAL_ERROR', `Unexpected error; reference ${requestId}`);
        if (refusal.status === 500) platform.log.error({ reqId: requestId, err: error }, 'unexpected MCP error');
        const response = errorResponse(refusal, requestId);
        return new Response(response.body, { status: response.status, headers: response.headers });
      }
      const server = new Server(
        { name: 'learning-platform', version: '1.0.0' },
        { capabilities: { tools: { listChanged: false } }, instructions: instructions(selection.toolsets, selection.readOnly) },
      );
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [LIST_TOOLSETS, ...selectedTools(selection)] }));
      server.setRequestHandler(CallToolRequestSchema, async ({ params }) => callTool(request, requestId, selection, params.name, params.arguments ?? {}));
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
