import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { createGraphQLHandler, jsonMediaType, type GraphQLHandler } from '../../src/graphql/yoga.ts';
import { RateLimiter } from '../../src/rate-limit.ts';

/**
 * The fast path (a same-origin JSON POST) and yoga itself must give the same answer to the same
 * request: status, the headers a client acts on, and the body.
 */
let t: TestApp;
let handler: GraphQLHandler;
let user: Caller;
beforeAll(async () => {
  t = await createTestApp();
  handler = createGraphQLHandler(t.platform, new RateLimiter({ perSecond: 0, perMinute: 0 }));
  user = await t.newCaller('fast-path-user');
});
afterAll(async () => t?.close());

const bearer = (caller: Caller) => `Bearer ${caller.app}:${caller.secret}`;

interface Answer {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  body: unknown;
}

async function bothPaths(body: unknown, headers: Record<string, string> = {}): Promise<{ fast: Answer; yoga: Answer }> {
  const all = { 'content-type': 'application/json', ...headers };
  const text = JSON.stringify(body);
  const lookup = new Headers(all);
  const fastRequest = { method: 'POST', url: `${BASE_URL}/graphql`, headers: lookup, requestId: 'fast-path-test' };
  expect(handler.acceptsJson(fastRequest)).toBe(true);
  const fast = await handler.json(fastRequest, text);
  expect(fast, 'the fast path takes this request').toBeDefined();
  const response = await handler.fetch(new Request(`${BASE_URL}/graphql`, { method: 'POST', headers: all, body: text }));
  return {
    fast: { status: fast!.status, contentType: fast!.headers['content-type'] ?? null, retryAfter: fast!.headers['retry-after'] ?? null, body: JSON.parse(fast!.body) },
    yoga: { status: response.status, contentType: response.headers.get('content-type'), retryAfter: response.headers.get('retry-after'), body: await response.json() },
  };
}

async function expectSame(body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const { fast, yoga } = await bothPaths(body, headers);
  expect(fast).toEqual(yoga);
  return fast;
}

describe('the GraphQL fast path answers exactly as yoga', () => {
  it('for data', async () => {
    const answer = await expectSame({ query: '{ me { id name } }' }, { authorization: bearer(user) });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { me: { id: user.user.id, name: user.user.fullName } } });
  });

  it('for the operation named among several, and variables', async () => {
    const query = 'query A { me { id } } query B($id: ID!) { node(id: $id) { id } }';
    const answer = await expectSame({ query, operationName: 'B', variables: { id: user.user.id } }, { authorization: bearer(user) });
    expect(answer.body).toEqual({ data: { node: { id: user.user.id } } });
  });

  it('for missing and wrong credentials (401)', async () => {
    expect((await expectSame({ query: '{ me { id } }' })).status).toBe(401);
    const wrong = await expectSame({ query: '{ me { id } }' }, { authorization: `Bearer ${user.app}:wrong` });
    expect(wrong.status).toBe(401);
    expect((wrong.body as any).errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
  });

  it('for variables that do not fit the schema', async () => {
    const answer = await expectSame({ query: 'query ($first: Int) { users(first: $first) { edges { node { id } } } }', variables: { first: 'many' } }, { authorization: bearer(user) });
    expect((answer.body as any).errors[0].extensions.code).toBe('INVALID_ARGUMENT');
  });

  it('for variables with control characters, paging out of range and cursors it cannot read', async () => {
    const auth = { authorization: bearer(user) };
    const search = await expectSame({ query: 'query ($s: String) { users(search: $s) { edges { node { id } } } }', variables: { s: 'a\u0000b' } }, auth);
    expect((search.body as any).errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'search' });
    const paging = await expectSame({ query: 'query ($n: Int = -5) { users(first: $n) { edges { node { id } } } }' }, auth);
    expect((paging.body as any).errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const cursor = await expectSame({ query: '{ users(after: "not a cursor") { edges { node { id } } } }' }, auth);
    expect((cursor.body as any).errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'after' });
  });

  it('for a service refusing a call', async () => {
    const answer = await expectSame({ query: 'mutation { setMaintenance(enabled: true) }' }, { authorization: bearer(user) });
    expect((answer.body as any).errors[0].extensions.code).toBe('ADMIN_ONLY');
    expect((await t.platform.settings.current()).maintenance).toBe(false);
  });

  it('for maintenance (503 with Retry-After), and for the administrator ending it', async () => {
    await t.platform.settings.set('maintenance', true);
    try {
      const answer = await expectSame({ query: '{ me { id } }' }, { authorization: bearer(user) });
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toBe('120');
      // An administrator's query is refused too; only the call that ends maintenance is not.
      expect((await expectSame({ query: '{ me { id } }' }, { authorization: bearer(t.admin) })).status).toBe(503);
      const end = await handler.json(
        { method: 'POST', url: `${BASE_URL}/graphql`, headers: new Headers({ 'content-type': 'application/json', authorization: bearer(t.admin) }), requestId: 'r' },
        JSON.stringify({ query: 'mutation { setMaintenance(enabled: false) }' }),
      );
      expect(JSON.parse(end!.body)).toEqual({ data: { setMaintenance: false } });
    } finally {
      await t.platform.settings.set('maintenance', false);
    }
  });

  it('for clients that accept application/graphql-response+json', async () => {
    const headers = { accept: 'application/graphql-response+json' };
    const unauthenticated = await expectSame({ query: '{ me { id } }' }, headers);
    expect(unauthenticated.contentType).toBe('application/graphql-response+json; charset=utf-8');
    expect(unauthenticated.status).toBe(401);
  });
});

describe('the fast path leaves to yoga', () => {
  const request = { method: 'POST', url: `${BASE_URL}/graphql`, headers: new Headers({ 'content-type': 'application/json' }), requestId: 'r' };

  it('what does not parse or validate, batches, odd parameters and bad JSON', async () => {
    for (const body of [
      JSON.stringify({ query: '{ me { id ' }),
      JSON.stringify({ query: '{ noSuchField }' }),
      JSON.stringify([{ query: '{ __typename }' }]),
      JSON.stringify({ query: '{ __typename }', other: 1 }),
      JSON.stringify({ query: 'query A { __typename }', operationName: 'B' }),
      '{"query": ',
    ]) {
      expect(await handler.json(request, body), body).toBeUndefined();
    }
  });

  it('other methods, media types, other origins and unacceptable answers', () => {
    const accepts = (method: string, headers: Record<string, string>) => handler.acceptsJson({ method, headers: new Headers(headers) });
    expect(accepts('POST', { 'content-type': 'application/json' })).toBe(true);
    expect(accepts('POST', { 'content-type': 'application/json; charset=utf-8' })).toBe(true);
    expect(accepts('GET', {})).toBe(false);
    expect(accepts('POST', { 'content-type': 'application/x-www-form-urlencoded' })).toBe(false);
    expect(accepts('POST', { 'content-type': 'multipart/form-data; boundary=x' })).toBe(false);
    expect(accepts('POST', { 'content-type': 'application/json', origin: 'https://elsewhere.example' })).toBe(false);
    expect(accepts('POST', { 'content-type': 'application/json', accept: 'text/event-stream' })).toBe(false);
  });

  it('answers through the app as yoga would for what it leaves', async () => {
    const response = await t.app.fetch(
      new Request(`${BASE_URL}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: bearer(user) }, body: '{"query": ' }),
    );
    expect(response.status).toBe(400);
  });
});

describe('content negotiation', () => {
  it('chooses the media type yoga chooses for the Accept header', () => {
    expect(jsonMediaType(null)).toBe('application/json');
    expect(jsonMediaType('*/*')).toBe('application/json');
    expect(jsonMediaType('application/json')).toBe('application/json');
    expect(jsonMediaType('application/graphql-response+json')).toBe('application/graphql-response+json');
    expect(jsonMediaType('application/graphql-response+json, application/json')).toBe('application/graphql-response+json');
    expect(jsonMediaType('application/json, application/graphql-response+json')).toBe('application/json');
    expect(jsonMediaType('application/json; charset=iso-8859-1')).toBeUndefined();
    expect(jsonMediaType('text/html')).toBeUndefined();
  });
});

describe('limits on both paths', () => {
  let unlimited: GraphQLHandler;
  // 20 points a minute: a page of 100 users costs 1 + 100 × (edges 1 + node 1) = 201, 3 points.
  beforeAll(() => {
    unlimited = handler;
    handler = createGraphQLHandler(t.platform, new RateLimiter({ perSecond: 0, perMinute: 20 }));
  });
  afterAll(() => {
    handler = unlimited;
  });
  const PAGE = '{ users(first: 100) { edges { node { id } } } }';

  it('refuse an operation over the cost budget alike, before it executes', async () => {
    const query = '{ organizations(first: 100) { edges { node { members(first: 100) { edges { node { user { integrations { id owner { id } } } } } } } } } }';
    const answer = await expectSame({ query }, { authorization: bearer(user) });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      errors: [{ message: 'The operation costs 140301, more than the limit of 50000', extensions: { code: 'COST_LIMIT_EXCEEDED', cost: 140301, maxCost: 50000 } }],
    });
  });

  it('spend the cost from the rate limit alike, and refuse alike once it is spent', async () => {
    const lookup = new Headers({ 'content-type': 'application/json', authorization: bearer(user) });
    const fast = await handler.json({ method: 'POST', url: `${BASE_URL}/graphql`, headers: lookup, requestId: 'limits' }, JSON.stringify({ query: PAGE }));
    expect(fast!.status).toBe(200);
    expect(fast!.headers).toMatchObject({ 'ratelimit-limit': '20', 'ratelimit-remaining': '17', 'ratelimit-policy': '20;w=60' });
    const viaYoga = await handler.fetch(new Request(`${BASE_URL}/graphql`, { method: 'POST', headers: lookup, body: JSON.stringify({ query: PAGE }) }));
    expect(viaYoga.status).toBe(200);
    expect(viaYoga.headers.get('ratelimit-remaining')).toBe('14');
    expect(viaYoga.headers.get('ratelimit-limit')).toBe('20');
    expect(Number(viaYoga.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) await handler.json({ method: 'POST', url: `${BASE_URL}/graphql`, headers: lookup, requestId: 'limits' }, JSON.stringify({ query: PAGE }));
    const { fast: refused, yoga } = await bothPaths({ query: PAGE }, { authorization: bearer(user) });
    expect(refused.status).toBe(429);
    // The same error; the seconds in the message may differ by one between the two calls.
    const normalised = (body: unknown) => JSON.stringify(body).replace(/retry in \d+ s/, 'retry in N s');
    expect(normalised(refused.body)).toBe(normalised(yoga.body));
    expect(yoga.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(yoga.retryAfter)).toBeGreaterThan(0);
    expect((refused.body as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('RATE_LIMITED');
  });
});
