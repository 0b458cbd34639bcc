import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp } from '../helpers/app.ts';
import { bearer, connectMcp, listeningTestApp, resultText as text } from '../helpers/mcp.ts';

let t: TestApp;
let base: string;
listeningTestApp((app, url) => {
  t = app;
  base = url;
});

/** Every toolset: these tests use operations of several domains. */
const connect = (authorization: string): Promise<Client> => connectMcp(base, authorization, { toolsets: 'all' });

describe('MCP endpoint', () => {
  it('lists the operations as tools with input schemas and hints from the method', async () => {
    const client = await connect(bearer(t.admin));
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const me = byName.get('get_user_me')!;
    expect(me.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    const deleteUser = byName.get('delete_user')!;
    expect(deleteUser.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(deleteUser.inputSchema.required).toEqual(['user']);
    const createUser = byName.get('post_user')!;
    expect(createUser.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(createUser.inputSchema.type).toBe('object');
    expect(createUser.inputSchema.required).toEqual(expect.arrayContaining(['username', 'first_name', 'last_name', 'email']));
    expect(createUser.inputSchema.properties!.username).toMatchObject({ type: 'string', minLength: 4, maxLength: 64 });
    const users = byName.get('get_users')!;
    expect(users.inputSchema.properties!.limit).toMatchObject({ type: 'integer', default: 16 });
    expect(byName.get('post_organization_webhook')!.inputSchema.properties!.method).toMatchObject({ enum: ['POST', 'GET'], default: 'POST' });
    // Descriptions carry the operation's prose, shortened, and its example; never a reference elsewhere.
    expect(users.description).toMatch(/^List the users the caller manages\. Lists the non-generated users the caller manages, by full name/);
    expect(users.description).toContain('Example arguments: {"search":"smith","limit":20}.');
    const putGraph = byName.get('put_exam_journey_graph')!;
    expect(putGraph.description).toMatch(/^Save the draft of an exam's journey\. Strict: /);
    expect(putGraph.description!.length).toBeLessThan(2500);
    for (const tool of tools) expect(tool.description, tool.name).not.toMatch(/Document [AB]|the documents/i);
    // Every tool name is one MCP clients accept.
    for (const tool of tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    await client.close();
  });

  it('runs a read through the REST contract', async () => {
    const client = await connect(bearer(t.admin));
    const result = await client.callTool({ name: 'get_user_me', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ user: t.admin.user.id, name: 'admin Tester', status: true, exam: false });
    expect(JSON.parse(text(result))).toEqual(result.structuredContent);
    await client.close();
  });

  it('runs a write, which REST then sees', async () => {
    const client = await connect(bearer(t.admin));
    const result = await client.callTool({
      name: 'post_user',
      arguments: { username: 'mcp-made', first_name: 'Made', last_name: 'ByTool', email: 'mcp-made@example.com', password: 'secret-1' },
    });
    expect(result.isError, text(result)).toBeFalsy();
    const made = result.structuredContent as { user: string; username: string; password: string };
    expect(made).toEqual({ user: expect.any(String), username: 'mcp-made', password: 'secret-1' });
    const read = await t.rpc('GET', 'user:name', { user: made.user });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ user: made.user, first_name: 'Made', last_name: 'ByTool' });
    await client.close();
  });

  it('answers a refusal as a tool error, and changes nothing', async () => {
    const plain = await t.newCaller('mcp-plain');
    const client = await connect(bearer(plain));
    const before = await t.db.prisma.user.count();
    const missing = await client.callTool({ name: 'post_user', arguments: { username: 'no-names' } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/^403 MISSING_ARGUMENT: /);
    const denied = await client.callTool({ name: 'delete_user', arguments: { user: t.admin.user.id } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toMatch(/^403 [A-Z_]+: /);
    expect(await t.db.prisma.user.count()).toBe(before);
    expect(await t.db.prisma.user.findUnique({ where: { id: t.admin.user.id } })).not.toBeNull();
    await client.close();
  });

  it('takes the base64 form of the credentials too', async () => {
    const client = await connect(`Bearer ${Buffer.from(`${t.admin.app}:${t.admin.secret}`).toString('base64')}`);
    const result = await client.callTool({ name: 'get_user_me', arguments: {} });
    expect(result.structuredContent).toMatchObject({ user: t.admin.user.id });
    await client.close();
  });

  it('refuses a client without valid credentials with 401 and the error headers', async () => {
    await expect(connect(`Bearer ${t.admin.app}:wrong`)).rejects.toThrow();
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const r = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    expect(r.status).toBe(401);
    expect(r.headers.get('service-api-error-code')).toBe('MISSING_CREDENTIALS');
    expect(await r.json()).toMatchObject({ error: { status: 401, code: 'MISSING_CREDENTIALS' } });
  });

  it('answers GET and DELETE with 405: the endpoint is stateless', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(`${base}/mcp`, { method, headers: { authorization: bearer(t.admin), accept: 'text/event-stream' } });
      expect(r.status, method).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
    }
  });

  it('answers through the fetch adapter as well', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const r = await t.app.fetch(
      new Request('http://service.test/mcp', {
        method: 'POST',
        headers: { authorization: bearer(t.admin), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(initialize),
      }),
    );
    expect(r.status).toBe(200);
    const body = (await r.json()) as any;
    expect(body.result.serverInfo.name).toBe('learning-platform');
    expect(body.result.capabilities.tools).toBeDefined();
  });
});
