import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type Caller, type TestApp } from './app.ts';

/** A test app listening on a port (the SDK's client speaks HTTP) for the file's tests, handed to `use` once it listens. */
export function listeningTestApp(use: (t: TestApp, base: string) => void): void {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp();
    use(t, await t.app.listen(0, '127.0.0.1'));
  });
  afterAll(async () => {
    await t?.close();
  });
}

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
