import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Caller } from './app.ts';

export interface McpConnectOptions {
  /** Sent as the X-MCP-Toolsets header. */
  toolsets?: string;
  /** Query of the endpoint's URL, e.g. `toolsets=users`. */
  query?: string;
  /** Further request headers (X-MCP-Readonly). */
  headers?: Record<string, string>;
}

/** A connected SDK client of `${base}/mcp` sending `authorization` (and the options) on every request. */
export async function connectMcp(base: string, authorization: string, options: McpConnectOptions = {}): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const headers: Record<string, string> = { authorization, ...options.headers };
  if (options.toolsets !== undefined) headers['x-mcp-toolsets'] = options.toolsets;
  const url = new URL(`${base}/mcp${options.query ? `?${options.query}` : ''}`);
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

export const bearer = (c: Caller) => `Bearer ${c.app}:${c.secret}`;

/** The text content of a tool result. */
export const resultText = (result: any) => (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
