import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, BASE_URL, type Caller, type RpcResult, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/expect.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { COMMON_ARGUMENTS, operations, type Operation } from '../../src/rest/operations.ts';
import { routes } from '../../src/rest/routes.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

const implemented = (o: Operation) => `${o.method} ${o.endpoint}` in routes;

/** `version` and the operation's own arguments; the credentials are probed apart (a credential that breaks a rule is a wrong one). */
const CREDENTIALS = new Set(['app', 'secret', 'assume']);
const probed = (o: Operation) => [...o.arguments, ...COMMON_ARGUMENTS.filter((a) => !CREDENTIALS.has(a.name))];

/** Any text the arguments need to get past the hygiene check, so that only the probe differs. */
const harmless = 'x';

async function send(o: Operation, args: Record<string, string>, as: Caller | null): Promise<RpcResult> {
  return t.rpc(o.method, o.endpoint, args, { as, version: '/v1' });
}

describe('a NUL byte in any documented argument of any operation', () => {
  it('is refused with 403 INVALID_ARGUMENT naming the argument, with and without credentials, before any database call', async () => {
    const errorLog = vi.spyOn(t.platform.log, 'error');
    const outcomes: string[] = [];
    let probes = 0;
    const { count, statements } = await countStatements(t, async () => {
      for (const o of operations) {
        for (const argument of probed(o)) {
          // The other required arguments are present, so that a refusal can only be about the probe.
          const others = Object.fromEntries(o.arguments.filter((a) => a.required && a.name !== argument.name).map((a) => [a.name, harmless]));
          for (const as of [t.admin, null]) {
            probes++;
            const r = await send(o, { ...others, [argument.name]: `a\u0000b` }, as);
            const label = `${o.method} ${o.endpoint} ${argument.name} ${as ? 'with' : 'without'} credentials`;
            if (r.status >= 500) outcomes.push(`${label}: ${r.status} ${r.code}`);
            else if (r.status !== 403 || r.code !== 'INVALID_ARGUMENT' || r.body?.error?.argument !== argument.name) {
              outcomes.push(`${label}: ${r.status} ${r.code} ${r.body?.error?.argument}`);
            }
          }
        }
      }
    });
    expect(outcomes).toEqual([]);
    expect(probes).toBeGreaterThan(1500); // every operation and argument was probed
    expect(operations.filter(implemented).length).toBeGreaterThan(100);
    expect(count, statements.join('\n')).toBe(0);
    expect(errorLog).not.toHaveBeenCalled();
    errorLog.mockRestore();
  });

  it('is refused in every encoding: query string, urlencoded and multipart forms, JSON', async () => {
    for (const encoding of ['query', 'form', 'multipart', 'json'] as const) {
      const r = await t.rpc('POST', 'user:name', { user: 'me', first_name: 'A\u0000', last_name: 'B' }, { encoding });
      expectError(r, 403, 'INVALID_ARGUMENT', 'first_name');
    }
  });
});

describe('a lone UTF-16 surrogate in any documented argument of any operation', () => {
  /** A urlencoded body: the probe's value as a surrogate would be percent-encoded as if it were a character (not UTF-8). */
  const formBody = (args: Record<string, string>, probe: string) =>
    [...Object.entries(args).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`), `${encodeURIComponent(probe)}=a%ED%A0%80b`].join('&');

  it('is refused with 403 INVALID_ARGUMENT naming the argument in JSON bodies and urlencoded forms, before any database call', async () => {
    const errorLog = vi.spyOn(t.platform.log, 'error');
    const outcomes: string[] = [];
    let probes = 0;
    const { count, statements } = await countStatements(t, async () => {
      for (const o of operations.filter(implemented)) {
        if (o.method === 'GET') continue;
        for (const argument of probed(o)) {
          const others = Object.fromEntries(o.arguments.filter((a) => a.required && a.name !== argument.name).map((a) => [a.name, harmless]));
          const label = `${o.method} ${o.endpoint} ${argument.name}`;
          probes++;
          const json = await t.rpc(o.method, o.endpoint, { ...others, [argument.name]: 'a\ud800b' }, { encoding: 'json', version: '/v1' });
          if (json.status !== 403 || json.code !== 'INVALID_ARGUMENT' || json.body?.error?.argument !== argument.name) outcomes.push(`${label} (JSON): ${json.status} ${json.code} ${json.body?.error?.argument}`);
          const response = await t.app.fetch(
            new Request(`${BASE_URL}/api/v1/${o.endpoint}`, {
              method: o.method,
              headers: { authorization: `Bearer ${t.admin.app}:${t.admin.secret}`, 'content-type': 'application/x-www-form-urlencoded' },
              body: formBody(others, argument.name),
            }),
          );
          const form = (await response.json()) as { error?: { code: string; argument?: string } };
          if (response.status !== 403 || form.error?.code !== 'INVALID_ARGUMENT' || form.error?.argument !== argument.name) {
            outcomes.push(`${label} (form): ${response.status} ${form.error?.code} ${form.error?.argument}`);
          }
        }
      }
    });
    expect(outcomes).toEqual([]);
    expect(probes).toBeGreaterThan(500);
    expect(count, statements.join('\n')).toBe(0);
    expect(errorLog).not.toHaveBeenCalled();
    errorLog.mockRestore();
  });

  it('in the query string of a GET, and in JSON text inside an argument, is refused naming the argument', async () => {
    const r = await t.app.fetch(new Request(`${BASE_URL}/api/user:search?query=a%ED%B0%80`, { headers: { authorization: `Bearer ${t.admin.app}:${t.admin.secret}` } }));
    expect(r.status).toBe(403);
    expect(((await r.json()) as { error: { argument: string; message: string } }).error).toMatchObject({
      argument: 'query',
      message: "Argument 'query': must be well-formed Unicode text (no lone UTF-16 surrogates or invalid UTF-8)",
    });
    const org = (await t.rpc('POST', 'organization', { title: 'Surrogates' })).body.organization as string;
    const hook = await t.rpc('POST', 'organization:webhook', { organization: org, title: 'S', trigger_event: 'api', endpoint: 'https://hooks.example.com/in', extra_data: '{"note":"a\\ud800b"}' });
    expectError(hook, 403, 'INVALID_ARGUMENT', 'extra_data');
  });
});

describe('control characters', () => {
  it('are refused wherever they sit in text: every C0 character but tab, line feed and carriage return, DEL and C1', async () => {
    for (const c of ['\u0001', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f', '\u0085', '\u009f']) {
      expectError(await t.rpc('GET', 'user', { user: `me${c}` }), 403, 'INVALID_ARGUMENT', 'user');
    }
    const r = await t.rpc('GET', 'user:search', { query: 'ab\u0007cd' });
    expect(r.body.error.message).toBe("Argument 'query': must not contain control characters (tab, line feed and carriage return aside)");
    expect(r.error).toBe("Argument 'query': must not contain control characters (tab, line feed and carriage return aside)");
  });

  it('leave tab, line feed and carriage return alone', async () => {
    const r = await t.rpc('POST', 'organization', { title: 'Line one\r\nline\ttwo' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const read = await t.rpc('GET', 'organization', { organization: r.body.organization });
    expect(read.body.title).toBe('Line one\r\nline\ttwo');
  });

  it('in nested JSON values and keys name the top-level argument and say where', async () => {
    const value = await t.rpc('POST', 'organization:webhook:trigger', { organization: harmless, webhook: harmless, data: { a: [{ b: 'x\u0000' }] } }, { encoding: 'json' });
    expectError(value, 403, 'INVALID_ARGUMENT', 'data');
    expect(value.body.error.message).toContain('(at data.a.0.b)');
    const key = await t.rpc('POST', 'organization:webhook:trigger', { organization: harmless, webhook: harmless, data: { ['k\u0001']: 1 } }, { encoding: 'json' });
    expectError(key, 403, 'INVALID_ARGUMENT', 'data');
    expect(key.body.error.message).toContain('(at data.k\\u0001)');
  });

  it('in an argument the operation does not take, in its value or its name, leave the call alone: the argument is ignored', async () => {
    const auth = { authorization: `Bearer ${t.admin.app}:${t.admin.secret}` };
    const expected = await t.app.fetch(new Request(`${BASE_URL}/api/test:app`, { headers: auth }));
    expect(expected.status).toBe(200);
    const body = await expected.json();
    for (const query of ['a%00b=1', 'note=a%00b', 'note=a%01b', 'note=a%ED%A0%80b', 'a%ED%A0%80=1']) {
      const r = await t.app.fetch(new Request(`${BASE_URL}/api/test:app?${query}`, { headers: auth }));
      expect(r.status, query).toBe(200);
      expect(await r.json()).toEqual(body);
    }
    // Nor in a body: the organization is created, the unknown argument ignored, and the operation's own argument kept.
    for (const encoding of ['form', 'multipart', 'json'] as const) {
      const r = await t.rpc('POST', 'organization', { title: `Unknown ${encoding}`, colour: 'red\u0000', ['k\u0001']: 'x' }, { encoding });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect((await t.rpc('GET', 'organization', { organization: r.body.organization })).body.title).toBe(`Unknown ${encoding}`);
    }
    const lone = await t.app.fetch(
      new Request(`${BASE_URL}/api/organization`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'title=Lone&colour=a%ED%A0%80b',
      }),
    );
    expect(lone.status).toBe(200);
    // The operation's own arguments are still checked: the same character refuses the call.
    expectError(await t.rpc('POST', 'organization', { title: 'red\u0000', colour: 'x' }), 403, 'INVALID_ARGUMENT', 'title');
  });

  it('in JSON text are refused once the text is read, as escapes such as \\u0000 become characters only then', async () => {
    const org = (await t.rpc('POST', 'organization', { title: 'Hooks' })).body.organization as string;
    const hook = await t.rpc('POST', 'organization:webhook', {
      organization: org,
      title: 'Escapes',
      trigger_event: 'api',
      endpoint: 'https://hooks.example.com/in',
      extra_data: '{"note":"a\\u0000b"}',
    });
    expectError(hook, 403, 'INVALID_ARGUMENT', 'extra_data');
    expect(hook.body.error.message).toContain('must not contain control characters');
    const preset = await t.rpc('POST', 'quiz:grading-preset', {
      title: 'Escapes',
      type: 'go-nogo-custom',
      grades: '[{"threshold":0,"grade":"no","text":"a\\u0000"},{"threshold":50,"grade":"yes"}]',
    });
    expectError(preset, 403, 'INVALID_ARGUMENT', 'grades');
    const question = await t.rpc('POST', 'question', { id: 'zones', type: 'hotspot', content: 'Where?', answer: 'zone', hotspot_zones: '[{"label":"a\\u0000"}]' });
    expectError(question, 403, 'INVALID_ARGUMENT', 'hotspot_zones');
  });
});

describe('credentials with control characters or lone surrogates', () => {
  /** The answer without the parts each call has of its own. */
  const answer = (r: RpcResult) => ({
    status: r.status,
    code: r.code,
    error: r.error,
    body: r.body,
    headers: Object.fromEntries([...r.headers].filter(([name]) => name !== 'x-request-id' && name !== 'date')),
  });

  it('are wrong credentials: 401 INVALID_CREDENTIALS, the same answer as any wrong one, and never looked up', async () => {
    const wrong = answer(await t.rpc('GET', 'test:app', {}, { as: null, headers: { authorization: 'Bearer app-nobody:secret-nobody' } }));
    expect(wrong).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS', error: 'Invalid application credentials' });
    expect(wrong.body).toEqual({ error: { status: 401, code: 'INVALID_CREDENTIALS', message: 'Invalid application credentials' } });

    const calls: [string, () => Promise<RpcResult>][] = [
      ['bearer app', () => t.rpc('GET', 'test:app', {}, { as: null, headers: { authorization: `Bearer ${t.admin.app}\u0001:${t.admin.secret}` } })],
      ['bearer base64', () => t.rpc('GET', 'test:app', {}, { as: null, headers: { authorization: `Bearer ${Buffer.from(`${t.admin.app}\u0000:${t.admin.secret}`).toString('base64')}` } })],
      ['header app', () => t.rpc('GET', 'test:app', {}, { as: null, headers: { 'service-api-app': `${t.admin.app}\u0001`, 'service-api-secret': t.admin.secret } })],
      ['app argument', () => t.rpc('GET', 'test:app', { app: `${t.admin.app}\u0000`, secret: t.admin.secret }, { as: null })],
      ['app argument, lone surrogate', () => t.rpc('POST', 'organization', { title: 'T', app: `${t.admin.app}\ud800`, secret: t.admin.secret }, { as: null, encoding: 'json' })],
    ];
    for (const [label, call] of calls) {
      const { result, count } = await countStatements(t, call);
      expect(answer(result), label).toEqual(wrong);
      expect(count, label).toBe(0);
    }
    // A secret that breaks a rule: the application is looked up, the secret does not match.
    for (const call of [
      () => t.rpc('GET', 'test:app', {}, { as: null, headers: { authorization: `Bearer ${t.admin.app}:${t.admin.secret}\u0001` } }),
      () => t.rpc('GET', 'test:app', {}, { as: null, headers: { 'service-api-app': t.admin.app, 'service-api-secret': `${t.admin.secret}\u0001` } }),
      () => t.rpc('POST', 'organization', { title: 'T', app: t.admin.app, secret: `${t.admin.secret}\u0000` }, { as: null, encoding: 'form' }),
    ]) {
      expect(answer(await call())).toEqual(wrong);
    }
  });

  it('in an assume token: 401 INVALID_ASSUME_TOKEN, the same answer as any wrong token', async () => {
    const wrong = answer(await t.rpc('GET', 'test:app', { assume: 'no-such-token' }));
    expect(wrong).toMatchObject({ status: 401, code: 'INVALID_ASSUME_TOKEN' });
    expect(answer(await t.rpc('GET', 'test:app', { assume: 'token\u0000' }))).toEqual(wrong);
    expect(answer(await t.rpc('GET', 'test:app', {}, { headers: { 'service-api-assume': 'token\u0001' } }))).toEqual(wrong);
    expect(answer(await t.rpc('POST', 'organization', { title: 'T', assume: 'token\udc00' }, { encoding: 'json' }))).toEqual(wrong);
  });
});

describe('deeply nested JSON', () => {
  /** Written as text: a value this deep is too deep for JSON.stringify itself. */
  const deep = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

  it('in a JSON body or in JSON text is refused naming the argument, also far deeper than the call stack allows', async () => {
    for (const levels of [40, 100_000]) {
      const response = await t.app.fetch(
        new Request(`${BASE_URL}/api/organization:webhook:trigger`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${t.admin.app}:${t.admin.secret}` },
          body: `{"organization":"x","webhook":"x","data":{"a":${deep(levels)}}}`,
        }),
      );
      expect(response.status).toBe(403);
      const { error } = (await response.json()) as { error: { code: string; argument: string; message: string } };
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'data' });
      expect(error.message).toContain('must not nest more than 32 lists and objects inside each other');
      const org = (await t.rpc('POST', 'organization', { title: `Deep ${levels}` })).body.organization as string;
      const text = await t.rpc('POST', 'organization:webhook:trigger', { organization: org, webhook: harmless, data: `{"a":${deep(levels)}}` });
      expectError(text, 403, 'INVALID_ARGUMENT', 'data');
    }
  });

  it('up to the limit is left to the operation', async () => {
    const org = (await t.rpc('POST', 'organization', { title: 'Nested' })).body.organization as string;
    const r = await t.rpc('POST', 'organization:webhook:trigger', { organization: org, webhook: harmless, data: JSON.parse(`{"a":${deep(20)}}`) }, { encoding: 'json' });
    expectError(r, 403, 'NOT_FOUND', 'webhook');
  });
});

describe('malformed requests', () => {
  it('a malformed percent-encoding in the endpoint is an unknown endpoint', async () => {
    const r = await t.app.fetch(new Request(`${BASE_URL}/api/v1/%E0%A4%A`));
    expect(r.status).toBe(400);
    expect(r.headers.get('service-api-error-code')).toBe('UNKNOWN_ENDPOINT');
  });

  it('paging arguments out of range are refused naming them, on every implemented list', async () => {
    const lists = operations.filter((o) => implemented(o) && o.arguments.some((a) => a.name === 'limit'));
    expect(lists.map((o) => o.endpoint).sort()).toEqual(['classes', 'exams', 'integrations', 'organizations', 'questions', 'quizes', 'tags', 'users']);
    for (const o of lists) {
      for (const limit of ['-1', '0', '1001', '99999999999999999999', 'ten', '1.5']) {
        expectError(await t.rpc('GET', o.endpoint, { limit }), 403, 'INVALID_ARGUMENT', 'limit');
      }
      for (const page of ['-5', '0', '1000001', '1e3']) expectError(await t.rpc('GET', o.endpoint, { page }), 403, 'INVALID_ARGUMENT', 'page');
      expect((await t.rpc('GET', o.endpoint, { limit: '1000', page: '1000000' })).status).toBe(200);
    }
  });
});
