import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, BASE_URL } from '../helpers/app.ts';
import { operations } from '../../src/rest/operations.ts';
import { routes } from '../../src/rest/routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

function expectErrorHeaders(r: { status: number; error: string | null; code: string | null; body: any }, status: number, code?: string) {
  expect(r.status).toBe(status);
  expect(r.error).toBeTruthy();
  expect(r.code).toMatch(/^[A-Z0-9_]+$/);
  if (code) expect(r.code).toBe(code);
  expect(r.body.error.code).toBe(r.code);
  expect(typeof r.body.error.message).toBe('string');
}

describe('addressing and versions', () => {
  it('answers test:app on /api and /api/v1 with the documented fields and JSON types', async () => {
    const plain = await t.rpc('GET', 'test:app');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(plain.body).toEqual({ version: 'default', language: 'en', app: t.admin.app, user: t.admin.user.id, status: true });
    const v1 = await t.rpc('POST', 'test:app', {}, { version: '/v1' });
    expect(v1.body.version).toBe('1');
    const v01 = await t.rpc('GET', 'test:app', {}, { version: '/v01' });
    expect(v01.body.version).toBe('1');
  });

  it('selects the version with the version argument too', async () => {
    expect((await t.rpc('GET', 'test:app', { version: '1' })).body.version).toBe('1');
    expect((await t.rpc('GET', 'test:app', { version: 'v1' })).body.version).toBe('1');
    expectErrorHeaders(await t.rpc('GET', 'test:app', { version: '2' }), 406, 'UNSUPPORTED_VERSION');
    expectErrorHeaders(await t.rpc('GET', 'test:app', { version: 'beta' }), 406, 'UNSUPPORTED_VERSION');
  });

  it('refuses unknown versions in the path with 406', async () => {
    expectErrorHeaders(await t.rpc('GET', 'test:app', {}, { version: '/v2' }), 406, 'UNSUPPORTED_VERSION');
    expectErrorHeaders(await t.rpc('GET', 'test:app', {}, { version: '/v99' }), 406);
  });

  it('answers 400 for an unknown endpoint, even without credentials', async () => {
    expectErrorHeaders(await t.rpc('GET', 'user:nothing'), 400, 'UNKNOWN_ENDPOINT');
    expectErrorHeaders(await t.rpc('GET', 'nothing', {}, { as: null }), 400, 'UNKNOWN_ENDPOINT');
  });

  it('answers 405 with an Allow header for a known endpoint and unsupported method', async () => {
    const r = await t.rpc('PUT', 'user:name');
    expectErrorHeaders(r, 405, 'METHOD_NOT_ALLOWED');
    expect(r.headers.get('allow')).toBe('GET, POST');
    const s = await t.rpc('DELETE', 'exam:settings');
    expect(s.headers.get('allow')).toBe('GET, POST, PUT, PATCH');
  });

  it('has a route for every catalogued operation: none answers 501 any more', async () => {
    const missing = operations.filter((o) => !routes[`${o.method} ${o.endpoint}`]).map((o) => `${o.method} ${o.endpoint}`);
    expect(missing).toEqual([]);
    for (const o of operations) {
      const r = await t.rpc(o.method, o.endpoint);
      expect(r.status, `${o.method} ${o.endpoint}`).not.toBe(501);
    }
  });

  it('routes every catalogued operation (194 documented pairs and the additions) to something other than 400 or 405', async () => {
    expect(operations.filter((o) => !o.addition)).toHaveLength(194);
    for (const o of operations) {
      const r = await t.rpc(o.method, o.endpoint, {}, { as: null });
      expect([401], `${o.method} ${o.endpoint}`).toContain(r.status);
    }
  });
});

describe('credentials', () => {
  it('accepts the three equivalent forms', async () => {
    const { app, secret } = t.admin;
    const params = await t.rpc('GET', 'user:me', { app, secret }, { as: null });
    const bearer = await t.rpc('GET', 'user:me', {}, { as: null, headers: { authorization: `Bearer ${app}:${secret}` } });
    const headers = await t.rpc('GET', 'user:me', {}, { as: null, headers: { 'Service-API-App': app, 'Service-API-Secret': secret } });
    const form = await t.rpc('POST', 'test:app', { app, secret }, { as: null });
    for (const r of [params, bearer, headers, form]) expect(r.status).toBe(200);
    expect(params.body).toEqual({ user: t.admin.user.id, name: 'admin Tester', status: true, exam: false });
  });

  it('refuses missing or wrong credentials with 401', async () => {
    expectErrorHeaders(await t.rpc('GET', 'test:app', {}, { as: null }), 401, 'MISSING_CREDENTIALS');
    expectErrorHeaders(await t.rpc('GET', 'test:app', { app: t.admin.app, secret: 'wrong' }, { as: null }), 401, 'INVALID_CREDENTIALS');
    expectErrorHeaders(await t.rpc('GET', 'test:app', { app: 'nobody', secret: t.admin.secret }, { as: null }), 401, 'INVALID_CREDENTIALS');
    expectErrorHeaders(await t.rpc('GET', 'test:app', {}, { as: null, headers: { authorization: 'Bearer garbage' } }), 401);
  });

  it('refuses calls of an inactive integration', async () => {
    const other = await t.newCaller('inactive-owner');
    await t.db.prisma.integration.update({ where: { id: other.integrationId }, data: { active: false } });
    expectErrorHeaders(await t.rpc('GET', 'test:app', {}, { as: other }), 401, 'INTEGRATION_INACTIVE');
  });

  it('acts as another user with assume, and refuses invalid or revoked tokens with 401', async () => {
    const created = await t.rpc('POST', 'user', { username: 'assumed', first_name: 'As', last_name: 'Sumed', email: 'as@example.com' });
    expect(created.status).toBe(200);
    const token = await t.rpc('POST', 'user:assume', { user: created.body.user });
    expect(token.status).toBe(200);
    const me = await t.rpc('GET', 'user:me', { assume: token.body.token });
    expect(me.body.user).toBe(created.body.user);
    const app = await t.rpc('GET', 'test:app', { assume: token.body.token });
    expect(app.body.user).toBe(created.body.user);
    expect(app.body.app).toBe(t.admin.app);
    expectErrorHeaders(await t.rpc('GET', 'user:me', { assume: 'not-a-token' }), 401, 'INVALID_ASSUME_TOKEN');
    expect((await t.rpc('DELETE', 'user:assume', { token: token.body.token })).status).toBe(200);
    expectErrorHeaders(await t.rpc('GET', 'user:me', { assume: token.body.token }), 401, 'INVALID_ASSUME_TOKEN');
  });
});

describe('credential cache', () => {
  it('reuses a looked-up integration for its time to live, but forgets it on any write of this instance', async () => {
    const cached = await createTestApp({ AUTH_CACHE_TTL_MS: '60000' });
    try {
      const other = await cached.newCaller('cached-owner');
      expect((await cached.rpc('GET', 'test:app', {}, { as: other })).status).toBe(200);
      // A change made elsewhere (here: directly in the database) is seen only after the time to live.
      await cached.db.prisma.integration.update({ where: { id: other.integrationId }, data: { active: false } });
      expect((await cached.rpc('GET', 'test:app', {}, { as: other })).status).toBe(200);
      // A write through this instance clears the cache at once.
      const rotated = await cached.rpc('POST', 'integration:keys', { integration: cached.admin.integrationId });
      expect(rotated.status).toBe(200);
      expect((await cached.rpc('GET', 'test:app', {}, { as: other })).code).toBe('INTEGRATION_INACTIVE');
      expect((await cached.rpc('GET', 'test:app')).code).toBe('INVALID_CREDENTIALS');
      const fresh = { ...cached.admin, secret: rotated.body.secret };
      expect((await cached.rpc('GET', 'test:app', {}, { as: fresh })).status).toBe(200);
    } finally {
      await cached.close();
    }
  });
});

describe('arguments', () => {
  it('reads arguments from the query string, urlencoded, multipart and JSON bodies', async () => {
    let n = 0;
    for (const encoding of ['query', 'form', 'multipart', 'json'] as const) {
      const r = await t.rpc(
        'POST',
        'user',
        { username: `enc-${encoding}`, first_name: 'E', last_name: `N${n++}`, email: `enc${n}@example.com`, exam: 'true' },
        { encoding },
      );
      expect(r.status, encoding).toBe(200);
      const u = await t.db.prisma.user.findUniqueOrThrow({ where: { id: r.body.user } });
      expect(u.generated).toBe(true);
    }
  });

  it('names the missing argument with 403 and MISSING_ARGUMENT', async () => {
    const r = await t.rpc('GET', 'user:name');
    expectErrorHeaders(r, 403, 'MISSING_ARGUMENT');
    expect(r.error).toContain("'user'");
    expect(r.body.error.argument).toBe('user');
  });

  it('names an invalid argument and the rule it breaks', async () => {
    const r = await t.rpc('POST', 'user', { username: 'valid-name', first_name: 'A', last_name: 'B', email: 'not-an-email' });
    expectErrorHeaders(r, 403, 'INVALID_ARGUMENT');
    expect(r.error).toMatch(/'email'.*email address/);
    const b = await t.rpc('POST', 'user', { username: 'valid-name', first_name: 'A', last_name: 'B', email: 'a@b.org', exam: 'maybe' });
    expect(b.error).toMatch(/'exam'.*true or false/);
    const snake = await t.rpc('POST', 'user', { username: 'valid-name', first_name: '', last_name: 'B', email: 'a@b.org' });
    expect(snake.error).toContain("'first_name'");
  });

  it('treats an unknown identification string as an argument error (403)', async () => {
    const r = await t.rpc('GET', 'user', { user: 'usr_doesnotexist' });
    expectErrorHeaders(r, 403, 'NOT_FOUND');
  });

  it('refuses a malformed JSON body with 403 and changes nothing', async () => {
    const before = await t.db.prisma.user.count();
    const response = await t.app.fetch(
      new Request(`${BASE_URL}/api/user`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.admin.app}:${t.admin.secret}`, 'content-type': 'application/json' },
        body: '{"username": ',
      }),
    );
    expect(response.status).toBe(403);
    expect(response.headers.get('service-api-error-code')).toBe('INVALID_BODY');
    expect(await t.db.prisma.user.count()).toBe(before);
  });
});

describe('language', () => {
  it('uses Service-Language when the language is active and ignores invalid or inactive codes', async () => {
    expect((await t.rpc('GET', 'test:app', {}, { headers: { 'Service-Language': 'de' } })).body.language).toBe('de');
    expect((await t.rpc('GET', 'test:app', {}, { headers: { 'Service-Language': 'fr' } })).body.language).toBe('en');
    expect((await t.rpc('GET', 'test:app', {}, { headers: { 'Service-Language': 'xx-invalid' } })).body.language).toBe('en');
  });
});

describe('rate limits and maintenance', () => {
  it('answers 429 with Retry-After past the per-second limit, per application', async () => {
    const limited = await createTestApp({ RATE_LIMIT_PER_SECOND: '3', RATE_LIMIT_PER_MINUTE: '100' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await limited.rpc('GET', 'test:app')).status);
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      const r = await limited.rpc('GET', 'test:app');
      expectErrorHeaders(r, 429, 'RATE_LIMITED');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Another application has its own budget.
      const other = await limited.newCaller('second-app');
      expect((await limited.rpc('GET', 'test:app', {}, { as: other })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('answers 503 with Retry-After in maintenance', async () => {
    await t.platform.settings.set('maintenance', true);
    try {
      const r = await t.rpc('GET', 'test:app');
      expectErrorHeaders(r, 503, 'MAINTENANCE');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await t.platform.settings.set('maintenance', false);
    }
    expect((await t.rpc('GET', 'test:app')).status).toBe(200);
  });
});

describe('health', () => {
  it('answers 200 JSON when the database is ready', async () => {
    const r = await t.app.fetch(new Request(`${BASE_URL}/health`));
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: 'ok', database: 'ready' });
  });
});
