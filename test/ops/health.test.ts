import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.ts';
import { BASE_URL, createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const get = async (app: App, path: string) => {
  const response = await app.fetch(new Request(`${BASE_URL}${path}`));
  return { status: response.status, headers: response.headers, body: await response.json() };
};

describe('GET /health/live', () => {
  it('answers 200 while the process runs, before start-up is done too', async () => {
    const starting = createApp(t.platform, { workers: { running: true } });
    try {
      const live = await get(starting, '/health/live');
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: 'ok' });
      expect(live.headers.get('cache-control')).toBe('no-store');
    } finally {
      await starting.close();
    }
  });
});

describe('GET /health/ready', () => {
  it('answers 503 starting until the app is marked ready, 200 with every check after', async () => {
    const app = createApp(t.platform, { workers: { running: true } });
    try {
      expect(await get(app, '/health/ready')).toMatchObject({ status: 503, body: { status: 'starting' } });
      app.markReady();
      const ready = await get(app, '/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ready', database: 'ok', migrations: 'ok', workers: 'running' });
    } finally {
      await app.close();
    }
  });

  it('answers 503 stopping once a shutdown began, while /health keeps answering 200', async () => {
    const app = createApp(t.platform, { ready: true, workers: { running: true } });
    try {
      app.markStopping();
      expect(await get(app, '/health/ready')).toMatchObject({ status: 503, body: { status: 'stopping' } });
      expect(await get(app, '/health')).toMatchObject({ status: 200, body: { status: 'ok', database: 'ready' } });
    } finally {
      await app.close();
    }
  });

  it('answers 503 when the workers do not run', async () => {
    const workers = { running: true };
    const app = createApp(t.platform, { ready: true, workers });
    try {
      workers.running = false;
      const answer = await get(app, '/health/ready');
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ status: 'not ready', database: 'ok', migrations: 'ok', workers: 'stopped' });
      const without = createApp(t.platform, { ready: true });
      expect((await get(without, '/health/ready')).body.workers).toBe('stopped');
      await without.close();
    } finally {
      await app.close();
    }
  });

  it('answers 503 when a migration of the folder is not applied, or one failed', async () => {
    const app = createApp(t.platform, { ready: true, workers: { running: true } });
    const [row] = await t.db.prisma.$queryRawUnsafe<{ id: string; migration_name: string }[]>(
      `SELECT "id", "migration_name" FROM "_prisma_migrations" ORDER BY "migration_name" DESC LIMIT 1`,
    );
    // Prisma's migrations table, changed in SQL: only the migration tool writes it, and no service can make a migration fail.
    try {
      await t.db.prisma.$executeRawUnsafe(`UPDATE "_prisma_migrations" SET "finished_at" = NULL WHERE "id" = $1`, row!.id);
      expect(await get(app, '/health/ready')).toMatchObject({ status: 503, body: { status: 'not ready', database: 'ok', migrations: 'failed' } });
      await t.db.prisma.$executeRawUnsafe(`UPDATE "_prisma_migrations" SET "rolled_back_at" = now() WHERE "id" = $1`, row!.id);
      expect(await get(app, '/health/ready')).toMatchObject({ status: 503, body: { migrations: 'pending' } });
    } finally {
      await t.db.prisma.$executeRawUnsafe(`UPDATE "_prisma_migrations" SET "finished_at" = now(), "rolled_back_at" = NULL WHERE "id" = $1`, row!.id);
    }
    try {
      expect((await get(app, '/health/ready')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('is not answered to other methods than GET and HEAD', async () => {
    const response = await t.app.fetch(new Request(`${BASE_URL}/health/ready`, { method: 'POST' }));
    expect(response.status).toBe(404);
  });
});

describe('x-request-id', () => {
  const cases: [string, RequestInit | undefined][] = [
    ['/health', undefined],
    ['/health/live', undefined],
    ['/health/ready', undefined],
    ['/metrics', undefined],
    ['/no-such-page', undefined],
    ['/files/aaaaaaaaaaaaaaaaaaaaaaaa', undefined],
    ['/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) }],
    // Answered by yoga itself: GraphiQL's page, a GET query, a batch.
    ['/graphql', { headers: { accept: 'text/html' } }],
    ['/graphql?query=%7B__typename%7D', { headers: { accept: 'application/json' } }],
    ['/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[{"query":"{ __typename }"}]' }],
    ['/api/v1/user:me', undefined],
  ];

  it.each(cases)('every answer carries the caller id back (%s)', async (path, init) => {
    const headers = new Headers(init?.headers);
    headers.set('x-request-id', 'trace-123.abc');
    const response = await t.app.fetch(new Request(`${BASE_URL}${path}`, { ...init, headers }));
    await response.arrayBuffer();
    expect(response.headers.get('x-request-id')).toBe('trace-123.abc');
  });

  it.each(cases)('every answer carries a new id without one (%s)', async (path, init) => {
    const response = await t.app.fetch(new Request(`${BASE_URL}${path}`, init));
    await response.arrayBuffer();
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
