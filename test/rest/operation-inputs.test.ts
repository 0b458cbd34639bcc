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
/** The object a value holds (or each item of a list holds), through wrappers and both sides of pipes. */
const heldObject = (s: z.ZodType): z.ZodObject | undefined => {
  const def = s._zod.def as unknown as { type: string; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType; element?: z.ZodType };
  if (def.type === 'object') return s as z.ZodObject;
  if (def.type === 'array') return heldObject(def.element!);
  if (def.type === 'pipe') return heldObject(def.out!) ?? heldObject(def.in!);
  return def.innerType ? heldObject(def.innerType) : undefined;
};
/** `fields.label`, `grades.threshold`: the nested names a schema's objects take, by contract name. */
const nestedOfSchema = (o: z.ZodObject, at: string): string[] =>
  Object.entries(o.shape as Record<string, z.ZodType>).flatMap(([n, s]) => {
    const name = `${at}.${toContractName(n)}`;
    const inner = heldObject(s);
    return [name, ...(inner ? nestedOfSchema(inner, name) : [])];
  });
const nestedOfTable = (args: Operation['arguments'], at: string): string[] =>
  args.flatMap((a) => [`${at}.${a.name}`, ...nestedOfTable(a.fields ?? [], `${at}.${a.name}`)]);
/** The object a JSON Schema describes: itself, the items of an array, or an option of anyOf. */
const jsonObject = (s: any): any =>
  s?.properties ? s : s?.type === 'array' ? jsonObject(s.items) : (s?.anyOf ?? []).map(jsonObject).find(Boolean);
const nestedOfJson = (s: any, at: string): string[] =>
  Object.entries<any>(jsonObject(s)?.properties ?? {}).flatMap(([n, v]) => [`${at}.${n}`, ...nestedOfJson(v, `${at}.${n}`)]);

const key = (o: Operation) => `${o.method} ${o.endpoint}`;
const sorted = (names: Iterable<string>) => [...new Set(names)].sort();
const CUSTOM = '^custom_[a-z0-9_]+$';
/** `custom_{field}` is one pattern of names in the JSON schemas. */
const tableNames = (o: Operation) => sorted(o.arguments.map((a) => (a.name.includes('{') ? CUSTOM : a.name)));

/** The JSON Schema of each argument as OpenAPI gives it: query parameters of a GET, the body of the others. */
function openApiSchemas(o: Operation): Record<string, any> {
  const operation = openapi.paths[`/${o.endpoint}`][o.method.toLowerCase()];
  if (o.method === 'GET') return Object.fromEntries(operation.parameters.map((p: any) => [p.name, p.schema]));
  return operation.requestBody?.content['application/json'].schema.properties ?? {};
}

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

  it('gives MCP tools the fields of nested items: journey nodes and settings, custom fields, grades', () => {
    const input = (name: string) => tools.get(name).inputSchema.properties;
    const journey = input('PUT exam:journey:graph');
    expect(Object.keys(jsonObject(journey.nodes).properties)).toEqual(expect.arrayContaining(['node', 'type', 'label', 'position', 'config', 'next']));
    expect(Object.keys(jsonObject(journey.settings).properties)).toEqual(expect.arrayContaining(['title', 'max_visits', 'restartable', 'notify_user', 'educators']));
    expect(jsonObject(input('POST exam:fields').fields).required).toEqual(['label']);
    expect(Object.keys(jsonObject(input('POST quiz:grading-preset').grades).properties).sort()).toEqual(['grade', 'text', 'threshold']);
  });

  it('names exactly the arguments of the schemas its services parse, and the fields of their objects and lists of objects', async () => {
    const drift: string[] = [];
    const compared: string[] = [];
    let nestedCompared = 0;
    for (const o of operations) {
      parsed.length = 0;
      // Without arguments a service refuses at its first schema, or (nothing required) parses them all.
      await t.rpc(o.method, o.endpoint, {});
      const shapes = parsed.flatMap((s) => Object.entries((objectOf(s)?.shape ?? {}) as Record<string, z.ZodType>));
      const accepted = sorted(shapes.map(([n]) => (n === 'customFields' ? CUSTOM : toContractName(n))));
      if (accepted.length === 0) continue;
      compared.push(key(o));
      // Every operation names exactly what its service parses (no argument list is written by hand).
      expect(o.input, key(o)).toBeDefined();
      const table = tableNames(o);
      const missing = accepted.filter((n) => !table.includes(n));
      const extra = table.filter((n) => !accepted.includes(n));
      if (missing.length || extra.length) drift.push(`${key(o)}: service only ${missing.join(',')}; table only ${extra.join(',')}`);

      // The fields of an object (or of each object of a list) the service parses with zod: the
      // same in the table, in OpenAPI and in the MCP tool's input schema.
      const fromOpenApi = openApiSchemas(o);
      const tool = tools.get(key(o));
      for (const [n, schema] of shapes) {
        const inner = heldObject(schema);
        const name = toContractName(n);
        const argument = o.arguments.find((a) => a.name === name);
        if (!inner || n === 'customFields') {
          if (argument?.fields) drift.push(`${key(o)} ${name}: fields in the table only`);
          continue;
        }
        nestedCompared++;
        const service = sorted(nestedOfSchema(inner, name));
        const views = {
          table: nestedOfTable(argument?.fields ?? [], name),
          OpenAPI: nestedOfJson(fromOpenApi[name], name),
          MCP: tool ? nestedOfJson(tool.inputSchema.properties[name], name) : service,
        };
        for (const [where, names] of Object.entries(views)) {
          const only = (a: string[], b: string[]) => a.filter((x) => !b.includes(x)).join(',');
          if (sorted(names).join() !== service.join()) drift.push(`${key(o)} ${where}: service only ${only(service, names)}; ${where} only ${only(names, service)}`);
        }
      }
    }
    expect(drift).toEqual([]);
    expect(compared.length).toBeGreaterThan(150);
    // The two operations whose arguments were once listed by hand, and the lists of objects.
    expect(compared).toEqual(expect.arrayContaining(['POST question', 'POST exam:fields', 'POST quiz:grading-preset', 'PATCH quiz:grading-preset']));
    expect(nestedCompared).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
