import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { enqueue } from '../../src/jobs/queue.ts';
import { startWorkers } from '../../src/jobs/workers.ts';
import { deliverWebhook } from '../../src/services/webhooks/delivery.ts';
import { BASE_URL, createTestApp, type TestApp } from '../helpers/app.ts';
import { onPostgres } from '../helpers/database.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** The value of one sample of the exposition text, found by its exact name and labels; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels);
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.keys(have).length === wanted.length && wanted.every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

async function scrape(app: App, headers: Record<string, string> = {}) {
  const response = await app.fetch(new Request(`${BASE_URL}/metrics`, { headers }));
  return { status: response.status, type: response.headers.get('content-type'), auth: response.headers.get('www-authenticate'), text: await response.text() };
}

const auth = () => ({ authorization: `Bearer ${t.admin.app}:${t.admin.secret}` });

describe('GET /metrics', () => {
  it('serves the Prometheus text format with process and event loop series', async () => {
    const { status, type, text } = await scrape(t.app);
    expect(status).toBe(200);
    expect(type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
  });

  it('counts REST calls by method, endpoint and status, with durations; unknown endpoints fold into _unknown', async () => {
    const app = createApp(t.platform, { ready: true });
    try {
      const call = (path: string, headers: Record<string, string> = {}) => app.fetch(new Request(`${BASE_URL}/api/v1/${path}`, { headers }));
      await call('user:me', auth());
      await call('user:me', auth());
      await call('user:me');
      await call('no-such:thing', auth());
      await call('%ZZ', auth());
      const { text } = await scrape(app);
      expect(sample(text, 'rest_request_duration_seconds_count', { method: 'GET', endpoint: 'user:me', status: '200' })).toBe(2);
      expect(sample(text, 'rest_request_duration_seconds_count', { method: 'GET', endpoint: 'user:me', status: '401' })).toBe(1);
      expect(sample(text, 'rest_request_duration_seconds_count', { method: 'GET', endpoint: '_unknown', status: '400' })).toBe(2);
      expect(sample(text, 'rest_request_duration_seconds_bucket', { method: 'GET', endpoint: 'user:me', status: '200', le: '+Inf' })).toBe(2);
      const sum = sample(text, 'rest_request_duration_seconds_sum', { method: 'GET', endpoint: 'user:me', status: '200' })!;
      expect(sum).toBeGreaterThan(0);
      expect(sum).toBeLessThan(10);
      // Buckets are cumulative: the 10 s bucket holds every call.
      expect(sample(text, 'rest_request_duration_seconds_bucket', { method: 'GET', endpoint: 'user:me', status: '200', le: '10' })).toBe(2);
      expect(text).not.toContain('no-such:thing');
    } finally {
      await app.close();
    }
  });

  it('counts GraphQL operations by name, type and status on the fast path and through yoga, and their error codes', async () => {
    const app = createApp(t.platform, { ready: true });
    try {
      const post = (body: unknown, headers: Record<string, string> = auth()) =>
        app.fetch(new Request(`${BASE_URL}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }));
      await post({ query: 'query Me { me { id } }' });
      await post({ query: 'query Me { me { id } }' });
      await post({ query: '{ me { id } }' }, {});
      // A GET goes through yoga itself; so does a query that fails validation (answered 200 with errors, as yoga does).
      await app.fetch(new Request(`${BASE_URL}/graphql?query=${encodeURIComponent('query Probe { __typename }')}`, { headers: { accept: 'application/json', ...auth() } }));
      await post({ query: '{ nope }' });
      const { text } = await scrape(app);
      expect(sample(text, 'graphql_request_duration_seconds_count', { operation: 'Me', type: 'query', status: '200' })).toBe(2);
      expect(sample(text, 'graphql_request_duration_seconds_count', { operation: '_anonymous', type: 'query', status: '401' })).toBe(1);
      expect(sample(text, 'graphql_request_duration_seconds_count', { operation: 'Probe', type: 'query', status: '200' })).toBe(1);
      expect(sample(text, 'graphql_request_duration_seconds_count', { operation: '_anonymous', type: 'none', status: '200' })).toBe(1);
      expect(sample(text, 'graphql_errors_total', { code: 'MISSING_CREDENTIALS' })).toBe(1);
      expect(sample(text, 'graphql_errors_total', { code: 'GRAPHQL_VALIDATION_FAILED' })).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('reports the job queue by task: pending, due, running, failed and the age of the oldest due job', async () => {
    const future = new Date(Date.now() + 3600_000);
    const past = new Date(Date.now() - 90_000);
    try {
      await t.db.prisma.$transaction(async (tx) => {
        await enqueue(tx, deliverWebhook, { delivery: 'whd_metrics_future' }, { runAt: future });
        await enqueue(tx, deliverWebhook, { delivery: 'whd_metrics_past' }, { runAt: past });
      });
      // A job already in its final failed state, written directly: the kit reaches it only after every retry.
      await t.db.prisma.job.create({
        data: { id: 'job_metrics_failed', task: deliverWebhook.name, payload: { delivery: 'whd_x' }, runAt: past, status: 'failed', lastError: 'gone', failedAt: new Date() },
      });
      const { text } = await scrape(t.app);
      const task = { task: 'webhooks.deliver' };
      expect(sample(text, 'jobs_pending', task)).toBe(2);
      expect(sample(text, 'jobs_due', task)).toBe(1);
      expect(sample(text, 'jobs_running', task)).toBe(0);
      expect(sample(text, 'jobs_failed', task)).toBe(1);
      expect(sample(text, 'jobs_oldest_due_seconds', task)).toBeGreaterThanOrEqual(89);
      // Every task of the service has its series, at 0 when it has no jobs.
      expect(sample(text, 'jobs_pending', { task: 'notifications.deliver' })).toBe(0);
    } finally {
      await t.db.prisma.job.deleteMany({});
    }
  });

  it('counts what became of the jobs this instance ran, and webhook delivery outcomes', async () => {
    const app = createApp(t.platform, { ready: true });
    const workers = startWorkers(t.platform, 50, (outcome) => app.metrics.recordJob(outcome));
    try {
      // A delivery whose row is gone is skipped: the job completes.
      await t.db.prisma.$transaction((tx) => enqueue(tx, deliverWebhook, { delivery: 'whd_metrics_gone' }));
      await expect.poll(async () => sample((await scrape(app)).text, 'webhook_delivery_attempts_total', { outcome: 'skipped' }), { timeout: 10_000 }).toBe(1);
      const { text } = await scrape(app);
      expect(sample(text, 'job_runs_total', { task: 'webhooks.deliver', outcome: 'completed' })).toBe(1);
    } finally {
      await workers.stop();
      await app.close();
      await t.db.prisma.job.deleteMany({});
    }
  });

  it.runIf(onPostgres)('reports the PostgreSQL pool', async () => {
    const pool = { totalCount: 3, idleCount: 2, waitingCount: 0, options: { max: 10 } };
    const app = createApp(t.platform, { ready: true, pool });
    try {
      const { text } = await scrape(app);
      expect(sample(text, 'db_pool_connections', { state: 'total' })).toBe(3);
      expect(sample(text, 'db_pool_connections', { state: 'idle' })).toBe(2);
      expect(sample(text, 'db_pool_connections', { state: 'waiting' })).toBe(0);
      expect(sample(text, 'db_pool_max')).toBe(10);
    } finally {
      await app.close();
    }
  });

  it('has no pool series without a pool (the embedded database)', async () => {
    expect((await scrape(t.app)).text).not.toContain('db_pool_connections');
  });

  describe('with METRICS_TOKEN', () => {
    const token = 'metrics-token-0123456789';
    let app: App;
    beforeAll(() => {
      app = createApp({ ...t.platform, config: { ...t.platform.config, METRICS_TOKEN: token } }, { ready: true });
    });
    afterAll(() => app?.close());

    it('answers 401 with a Bearer challenge without the token or with another', async () => {
      for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: token }, auth()]) {
        const answer = await scrape(app, headers);
        expect(answer.status).toBe(401);
        expect(answer.auth).toBe('Bearer realm="metrics"');
        expect(JSON.parse(answer.text)).toEqual({ error: { code: 'UNAUTHORIZED', message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>' } });
      }
    });

    it('answers 200 with it', async () => {
      const answer = await scrape(app, { authorization: `Bearer ${token}` });
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('# TYPE rest_request_duration_seconds histogram');
    });

    it('refuses a token shorter than 16 characters at start', () => {
      expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: 16-256 printable characters without spaces/);
    });
  });
});

describe('logs', () => {
  function capture() {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = createApp({ ...t.platform, log: pino({ level: 'info' }, stream) }, { ready: true });
    return { app, lines };
  }

  it('a refused REST call logs its endpoint and error code', async () => {
    const { app, lines } = capture();
    try {
      await app.fetch(new Request(`${BASE_URL}/api/v1/user:me`, { headers: { 'x-request-id': 'log-1' } }));
      await app.fetch(new Request(`${BASE_URL}/api/v1/user:me`, { method: 'DELETE', headers: { 'x-request-id': 'log-2', ...auth() } }));
      await app.fetch(new Request(`${BASE_URL}/api/v1/user:me`, { headers: { 'x-request-id': 'log-3', ...auth() } }));
      expect(lines.find((l) => l.reqId === 'log-1')).toMatchObject({ msg: 'rest call', method: 'GET', endpoint: 'user:me', status: 401, code: 'MISSING_CREDENTIALS' });
      expect(lines.find((l) => l.reqId === 'log-2')).toMatchObject({ msg: 'rest call', method: 'DELETE', endpoint: 'user:me', status: 405, code: 'METHOD_NOT_ALLOWED' });
      const ok = lines.find((l) => l.reqId === 'log-3')!;
      expect(ok).toMatchObject({ msg: 'rest call', endpoint: 'user:me', status: 200 });
      expect(ok).not.toHaveProperty('code');
      expect(typeof ok.ms).toBe('number');
    } finally {
      await app.close();
    }
  });

  it("a line logged through a request's logger carries the request's id", async () => {
    const { app, lines } = capture();
    try {
      // A route of this test only: the service's own routes log through it on rare paths (overload, unexpected errors).
      app.server.get('/test-request-log', (request) => {
        request.log.warn({ detail: 1 }, 'from a route');
        request.log.debug('below the level');
        return 'ok';
      });
      const response = await app.fetch(new Request(`${BASE_URL}/test-request-log`, { headers: { 'x-request-id': 'route-1' } }));
      expect(await response.text()).toBe('ok');
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines.filter((l) => l.reqId === 'route-1')).toEqual([expect.objectContaining({ level: 40, msg: 'from a route', detail: 1 })]);
    } finally {
      await app.close();
    }
  });

  it('GraphQL requests are logged with operation, type, status, duration and error codes, on both paths', async () => {
    const { app, lines } = capture();
    try {
      const body = JSON.stringify({ query: 'query Me { me { id } }' });
      await app.fetch(new Request(`${BASE_URL}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'gql-1', ...auth() }, body }));
      await app.fetch(new Request(`${BASE_URL}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'gql-2' }, body }));
      await app.fetch(new Request(`${BASE_URL}/graphql?query=${encodeURIComponent('query Probe { __typename }')}`, { headers: { accept: 'application/json', 'x-request-id': 'gql-3', ...auth() } }));
      const fast = lines.find((l) => l.reqId === 'gql-1')!;
      expect(fast).toMatchObject({ msg: 'graphql request', operation: 'Me', type: 'query', status: 200 });
      expect(fast).not.toHaveProperty('errors');
      expect(typeof fast.ms).toBe('number');
      expect(lines.find((l) => l.reqId === 'gql-2')).toMatchObject({ msg: 'graphql request', operation: 'Me', errors: ['MISSING_CREDENTIALS'] });
      expect(lines.find((l) => l.reqId === 'gql-3')).toMatchObject({ msg: 'graphql request', operation: 'Probe', type: 'query', status: 200 });
    } finally {
      await app.close();
    }
  });
});
