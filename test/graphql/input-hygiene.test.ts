import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BASE_URL, createTestApp, type TestApp } from '../helpers/app.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import type { GraphQLErrorBody } from './client.ts';

let t: TestApp;
let organizationId: string;

beforeAll(async () => {
  t = await createTestApp();
  const created = await t.gql('mutation { createOrganization(input: { title: "Paging" }) { id } }');
  organizationId = created.body.data.createOrganization.id;
});

afterAll(async () => {
  await t?.close();
});

const CONTROL_RULE = 'must not contain control characters (tab, line feed and carriage return aside)';

/** The one error of a call refused before execution: BAD_USER_INPUT naming the argument, no data. */
async function refusedInput(query: string, variables: Record<string, unknown>, argument: string, options: Parameters<TestApp['gql']>[2] = {}) {
  const r = await t.gql(query, variables, options);
  expect(r.body.errors, JSON.stringify(r.body)).toHaveLength(1);
  const error = r.body.errors![0] as GraphQLErrorBody;
  expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument });
  expect(error.message).toMatch(new RegExp(`^Argument '${argument}': `));
  expect(r.body.data ?? null).toBeNull();
  return error;
}

describe('control characters and nesting in GraphQL input', () => {
  const USERS = 'query($s: String) { users(first: 5, search: $s) { edges { node { id } } } }';
  const CREATE_ORG = 'mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id title } }';

  it('in a variable name the argument the variable is given to, before any database call', async () => {
    const { result, count } = await countStatements(t, () => refusedInput(USERS, { s: 'a\u0000b' }, 'search'));
    expect(result.message).toBe(`Argument 'search': ${CONTROL_RULE}`);
    // Only the credentials are read: the query never runs.
    expect(count).toBeLessThanOrEqual(2);
    for (const c of ['\u0001', '\u001b', '\u007f', '\u0085']) await refusedInput(USERS, { s: `a${c}` }, 'search');
  });

  it('in an input object name its innermost field, also inside JSON values and in keys', async () => {
    await refusedInput(CREATE_ORG, { input: { title: 'Org\u0000' } }, 'title');
    await refusedInput(CREATE_ORG, { input: { title: 'Org', customFields: { color: { shade: 'x\u0002' } } } }, 'shade');
    await refusedInput(CREATE_ORG, { input: { title: 'Org', customFields: { ['k\u0003']: 'v' } } }, 'customFields');
  });

  it('a lone UTF-16 surrogate in a variable is refused like a control character, naming the argument or innermost field', async () => {
    const search = await refusedInput(USERS, { s: 'a\ud800b' }, 'search');
    expect(search.message).toBe("Argument 'search': must be well-formed Unicode text (no lone UTF-16 surrogates or invalid UTF-8)");
    await refusedInput(USERS, { s: '\udc00' }, 'search');
    await refusedInput(CREATE_ORG, { input: { title: 'Org', customFields: { color: { shade: 'x\udbff' } } } }, 'shade');
    // A pair is a character: accepted.
    const pair = await t.gql(USERS, { s: 'a\ud83d\ude00' });
    expect(pair.body.errors).toBeUndefined();
  });

  it('in a literal name the argument or input field, also in lists and variable defaults', async () => {
    await refusedInput('{ users(first: 5, search: "a\\u0000") { edges { node { id } } } }', {}, 'search');
    await refusedInput('mutation { createOrganization(input: { title: "T\\u0007" }) { id } }', {}, 'title');
    await refusedInput('{ nodes(ids: ["usr_a", "usr_\\u0001"]) { id } }', {}, 'ids');
    await refusedInput('query($s: String = "\\u0000") { users(first: 5, search: $s) { edges { node { id } } } }', {}, 's');
    // The same document sent again is refused again (yoga caches the validation of a document).
    await refusedInput('{ users(first: 5, search: "a\\u0000") { edges { node { id } } } }', {}, 'search');
  });

  it('in credentials, headers or URL parameters, are wrong credentials: the same 401 as any wrong one, never looked up', async () => {
    const query = '{ me { id } }';
    const post = async (url: string, headers: Record<string, string>) => {
      const response = await t.app.fetch(new Request(`${BASE_URL}/graphql${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) }));
      return { status: response.status, body: await response.json() };
    };
    const wrong = await post('', { authorization: 'Bearer app-nobody:secret-nobody' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].extensions).toMatchObject({ code: 'INVALID_CREDENTIALS' });

    const app = `${t.admin.app}\u0001`;
    for (const [label, url, headers] of [
      ['bearer', '', { authorization: `Bearer ${app}:${t.admin.secret}` }],
      ['bearer, base64', '', { authorization: `Bearer ${Buffer.from(`${t.admin.app}\u0000:${t.admin.secret}`).toString('base64')}` }],
      ['headers', '', { 'service-api-app': app, 'service-api-secret': t.admin.secret }],
      ['URL parameters', `?app=${encodeURIComponent(t.admin.app)}%00&secret=${encodeURIComponent(t.admin.secret)}`, {}],
    ] as const) {
      const { result, count } = await countStatements(t, () => post(url, headers));
      expect(result, label).toEqual(wrong);
      expect(count, label).toBe(0);
    }
    expect(await post('', { authorization: `Bearer ${t.admin.app}:${t.admin.secret}\u0001` })).toEqual(wrong);
    expect(await post(`?app=${encodeURIComponent(t.admin.app)}&secret=x%00`, {})).toEqual(wrong);
    // Not UTF-8 in a URL reads as U+FFFD: another application id, wrong like any other.
    expect(await post(`?app=${encodeURIComponent(t.admin.app)}%ED%A0%80&secret=${encodeURIComponent(t.admin.secret)}`, {})).toEqual(wrong);

    // An assume token: the answer of any wrong token.
    const auth = { authorization: `Bearer ${t.admin.app}:${t.admin.secret}` };
    const wrongToken = await post('', { ...auth, 'service-api-assume': 'no-such-token' });
    expect(wrongToken.body.errors[0].extensions).toMatchObject({ code: 'INVALID_ASSUME_TOKEN' });
    expect(await post('', { ...auth, 'service-api-assume': 'x\u0001' })).toEqual(wrongToken);
    expect(await post('?assume=x%00', auth)).toEqual(wrongToken);
  });

  it('nested too deeply in a variable are refused, also far deeper than the call stack allows', async () => {
    for (const levels of [40, 100_000]) {
      // Written as text: a value this deep is too deep for JSON.stringify itself.
      const deep = `${'['.repeat(levels)}"x"${']'.repeat(levels)}`;
      const response = await t.app.fetch(
        new Request(`${BASE_URL}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${t.admin.app}:${t.admin.secret}` },
          body: `{"query":${JSON.stringify(CREATE_ORG)},"variables":{"input":{"title":"Org","customFields":{"deep":${deep}}}}}`,
        }),
      );
      const body = (await response.json()) as { errors: GraphQLErrorBody[]; data?: unknown };
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'deep' });
      expect(body.errors[0]!.message).toBe("Argument 'deep': must not nest more than 32 lists and objects inside each other");
    }
  });

  it('leave tab, line feed and carriage return alone', async () => {
    const r = await t.gql(CREATE_ORG, { input: { title: 'One\ttwo\r\nthree' } });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.createOrganization.title).toBe('One\ttwo\r\nthree');
  });
});

describe('the size of a document', () => {
  it('is limited in tokens, so that deeply nested literals are a parse error and not an exhausted stack', async () => {
    const errorLog = vi.spyOn(t.platform.log, 'error');
    const nested = (levels: number) => `{ users(first: 1, search: ${'['.repeat(levels)}"x"${']'.repeat(levels)}) { edges { node { id } } } }`;
    for (const levels of [1000, 40_000]) {
      const r = await t.gql(nested(levels));
      expect(r.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
      expect(r.body.errors?.[0]?.message).toMatch(/1500 tokens/);
    }
    // Deeper still, the document is over 100 KB: refused before the parser sees it.
    const huge = await t.gql(nested(100_000));
    expect([huge.status, huge.body.errors?.[0]?.extensions?.code]).toEqual([413, 'DOCUMENT_TOO_LARGE']);
    const aliases = await t.gql(`{ ${Array.from({ length: 600 }, (_, i) => `a${i}: me { id }`).join(' ')} }`);
    expect(aliases.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(errorLog).not.toHaveBeenCalled();
    errorLog.mockRestore();
  });

  it('leaves room for the largest operations a dashboard sends', async () => {
    const r = await t.gql(`{ ${Array.from({ length: 200 }, (_, i) => `a${i}: me { id }`).join(' ')} }`);
    expect(r.body.errors).toBeUndefined();
    expect(Object.keys(r.body.data)).toHaveLength(200);
  });
});

describe('paging arguments of connections', () => {
  const USERS = 'query($first: Int, $last: Int) { users(first: $first, last: $last) { edges { node { id } } } }';
  const MEMBERS = 'query($id: ID!, $n: Int) { organization(id: $id) { members(first: $n) { edges { node { name } } } } }';

  it('refuse negative and huge page sizes, given as variables, as literals or as variable defaults', async () => {
    for (const first of [-1, -5, 1001, 2 ** 31 - 1, 1e12, 1.5]) await refusedInput(USERS, { first }, 'first');
    for (const last of [-1, 1001]) await refusedInput(USERS, { last }, 'last');
    for (const literal of ['-5', '1001', '99999999999']) {
      await refusedInput(`{ users(first: ${literal}) { edges { node { id } } } }`, {}, 'first');
      await refusedInput(`{ classes(last: ${literal}) { edges { node { id } } } }`, {}, 'last');
    }
    await refusedInput('query($n: Int = -3) { users(first: $n) { edges { node { id } } } }', {}, 'first');
  });

  it('refuse them on nested connections too', async () => {
    await refusedInput(MEMBERS, { id: organizationId, n: -2 }, 'first');
    await refusedInput(`{ organization(id: "${organizationId}") { members(first: 5000) { edges { node { name } } } } }`, {}, 'first');
  });

  it('accept 0 to 1000; a default overridden by a variable counts as the variable', async () => {
    for (const first of [0, 1, 100, 1000]) {
      const r = await t.gql(USERS, { first });
      expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
    }
    expect((await t.gql('query($n: Int = -3) { users(first: $n) { edges { node { id } } } }', { n: 3 })).body.errors).toBeUndefined();
    expect((await t.gql(MEMBERS, { id: organizationId, n: 0 })).body.errors).toBeUndefined();
  });

  it('refuse cursors the list cannot read, and cursors combined with an unsupported page size, naming the cursor', async () => {
    const errorLog = vi.spyOn(t.platform.log, 'error');
    for (const cursor of ['garbage', 'R1BDOk46MQ==x', '']) {
      const r = await t.gql('query($c: String) { users(first: 5, after: $c) { edges { node { id } } } }', { c: cursor });
      if (cursor === '') continue; // an empty cursor is no cursor: the first page
      expect(r.body.errors?.[0]?.extensions, JSON.stringify(r.body)).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'after' });
    }
    const combined = await t.gql('{ users(first: 5, before: "abc") { edges { node { id } } } }');
    expect(combined.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'before' });
    expect(errorLog).not.toHaveBeenCalled();
    errorLog.mockRestore();
  });
});
