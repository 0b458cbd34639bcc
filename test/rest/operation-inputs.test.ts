import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';

/** The schemas the services parse, in the order they parse them (see the call sweep below). */
const parsed: z.ZodType[] = [];
vi.mock('../../src/services/validation.ts', async (original) => {
  const actual = await original<typeof import('../../src/services/validation.ts')>();
  return {
    ...actual,
    parseInput: (schema: z.ZodType, raw: Record<string, unknown>) => {
      parsed.push(schema);
      return actual.parseInput(schema, raw);
    },
  };
});

import { BASE_URL, createTestApp, type TestApp } from '../helpers/app.ts';
import { operations, type Operation } from '../../src/rest/operations.ts';
import { toContractName } from '../../src/rest/names.ts';

let t: TestApp;
let openapi: any;
let tools: Map<string, any>;
beforeAll(async () => {
  t = await createTestApp();
  openapi = await (await t.app.fetch(new Request(`${BASE_URL}/api/openapi.json`))).json();
  const r = await t.app.fetch(
    new Request(`${BASE_URL}/mcp?toolsets=all`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.admin.app}:${t.admin.secret}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    }),
  );
  expect(r.status).toBe(200);
  tools = new Map(((await r.json()) as any).result.tools.map((tool: any) => [tool.title, tool]));
});
afterAll(async () => t?.close());

/** The object a schema parses first (a pipe reshapes it afterwards). */
const objectOf = (s: z.ZodType): z.ZodObject | undefined => {
  const def = s._zod.def as unknown as { type: string; in?: z.ZodType };
  return def.type === 'object' ? (s as z.ZodObject) : def.type === 'pipe' && def.in ? objectOf(def.in) : undefined;
};
const key = (o: Operation) => `${o.method} ${o.endpoint}`;
const sorted = (names: Iterable<string>) => [...new Set(names)].sort();
const CUSTOM = '^custom_[a-z0-9_]+$';
/** `custom_{field}` is one pattern of names in the JSON schemas. */
const tableNames = (o: Operation) => sorted(o.arguments.map((a) => (a.name.includes('{') ? CUSTOM : a.name)));

/** Argument names and descriptions as OpenAPI gives them: query parameters of a GET, the body of the others. */
function openApiArguments(o: Operation): Record<string, string | undefined> {
  const operation = openapi.paths[`/${o.endpoint}`][o.method.toLowerCase()];
  if (o.method === 'GET') {
    const query = operation.parameters.filter((p: any) => p.name !== 'assume');
    const custom = o.arguments.some((a) => a.name.includes('{')) ? { [CUSTOM]: 'custom' } : {};
    return { ...Object.fromEntries(query.map((p: any) => [p.name, p.description])), ...custom };
  }
  const body = operation.requestBody?.content['application/json'].schema ?? { properties: {} };
  return propertiesOf(body);
}

function propertiesOf(schema: any): Record<string, string | undefined> {
  const all = { ...schema.properties, ...schema.patternProperties };
  return Object.fromEntries(Object.entries<any>(all).map(([name, s]) => [name, s.description]));
}

describe('the operation table is the one source of every argument', () => {
  it('gives OpenAPI and the MCP tools the same argument names as the table, each described', () => {
    const undescribed: string[] = [];
    for (const o of operations) {
      const fromOpenApi = openApiArguments(o);
      expect(sorted(Object.keys(fromOpenApi)), `OpenAPI ${key(o)}`).toEqual(tableNames(o));
      for (const [name, description] of Object.entries(fromOpenApi)) if (!description) undescribed.push(`OpenAPI ${key(o)} ${name}`);
      const tool = tools.get(key(o));
      if (!tool) continue;
      const fromMcp = propertiesOf(tool.inputSchema);
      delete fromMcp.assume;
      expect(sorted(Object.keys(fromMcp)), `MCP ${key(o)}`).toEqual(tableNames(o));
      for (const [name, description] of Object.entries(fromMcp)) if (!description) undescribed.push(`MCP ${key(o)} ${name}`);
    }
    expect(undescribed).toEqual([]);
    // Every implemented operation is a tool (the 501 ones are not).
    expect(tools.size).toBeGreaterThan(150);
  });

  it('takes the question arguments the service accepts: quiz and path', () => {
    for (const [method, endpoint] of [['GET', 'question'], ['DELETE', 'question'], ['POST', 'question:export']] as const) {
      const o = operations.find((x) => x.method === method && x.endpoint === endpoint)!;
      expect(Object.keys(openApiArguments(o)), `${method} ${endpoint}`).toEqual(expect.arrayContaining(['id', 'quiz', 'path']));
      expect(Object.keys(propertiesOf(tools.get(`${method} ${endpoint}`).inputSchema))).toEqual(expect.arrayContaining(['id', 'quiz', 'path']));
    }
  });

  it('names exactly the arguments of the schemas its services parse', async () => {
    const drift: string[] = [];
    let compared = 0;
    for (const o of operations) {
      parsed.length = 0;
      // Without arguments a service refuses at its first schema, or (nothing required) parses them all.
      await t.rpc(o.method, o.endpoint, {});
      const accepted = sorted(
        parsed.flatMap((s) => Object.keys(objectOf(s)?.shape ?? {}).map((n) => (n === 'customFields' ? CUSTOM : toContractName(n)))),
      );
      if (accepted.length === 0) continue;
      compared++;
      const table = tableNames(o);
      // An operation with its service's schema names exactly what the service parses; a
      // hand-written one at least everything the service parses.
      const missing = accepted.filter((n) => !table.includes(n));
      const extra = o.input ? table.filter((n) => !accepted.includes(n)) : [];
      if (missing.length || extra.length) drift.push(`${key(o)}: service only ${missing.join(',')}; table only ${extra.join(',')}`);
    }
    expect(drift).toEqual([]);
    expect(compared).toBeGreaterThan(150);
  }, 120_000);
});
