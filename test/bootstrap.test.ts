import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { loadConfig } from '../src/config.ts';
import { createPlatform } from '../src/platform.ts';
import { createApp } from '../src/app.ts';
import type { Platform } from '../src/context.ts';
import { bootstrap, createAccount, createApiIntegration } from '../src/services/bootstrap/bootstrap.service.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';

/** Each scenario needs a database of its own: "empty" and "not empty" are what bootstrap looks at. */
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const db of databases) await db.close();
});

async function instance(env: Record<string, string> = {}) {
  const db = await createTestDatabase();
  databases.push(db);
  const config = loadConfig({ RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0', DATA_DIR: '/nonexistent', ...env });
  const platform = createPlatform({ config, db: db.prisma, log: pino({ level: 'silent' }), secretKey: randomBytes(32) });
  const app = createApp(platform, { ready: true });
  const call = async (endpoint: string, app_: string, secret: string) => {
    const response = await app.fetch(new Request(`http://service.test/api/${endpoint}`, { headers: { authorization: `Bearer ${app_}:${secret}` } }));
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { db, platform, call };
}

const APP = 'bootstrap_app-01';
const SECRET = 'a-chosen-secret-of-32-characters';

describe('with BOOTSTRAP_APP and BOOTSTRAP_SECRET', () => {
  let t: Awaited<ReturnType<typeof instance>>;
  beforeAll(async () => {
    t = await instance({ BOOTSTRAP_APP: APP, BOOTSTRAP_SECRET: SECRET });
  });

  it('creates the admin instance administrator owning an API integration with exactly those credentials', async () => {
    expect(await bootstrap(t.platform)).toEqual({ created: true });
    const admin = await t.db.prisma.user.findUniqueOrThrow({ where: { username: 'admin' } });
    expect(admin).toMatchObject({ admin: true, enabled: true, generated: false, fullName: 'Instance Administrator' });
    const integrations = await t.db.prisma.integration.findMany();
    expect(integrations).toHaveLength(1);
    expect(integrations[0]).toMatchObject({ appId: APP, type: 'api', active: true, ownerId: admin.id });
    // Encrypted at rest, and it opens to exactly the configured secret.
    expect(integrations[0]!.secretCipher).not.toContain(SECRET);
    expect(t.platform.secrets.open(integrations[0]!.secretCipher!)).toBe(SECRET);
  });

  it('the credentials authenticate over REST test:app and act as the administrator', async () => {
    const admin = await t.db.prisma.user.findUniqueOrThrow({ where: { username: 'admin' } });
    const r = await t.call('test:app', APP, SECRET);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ version: 'default', language: 'en', app: APP, user: admin.id, status: true });
    expect((await t.call('test:app', APP, `${SECRET}x`)).status).toBe(401);
  });

  it('is idempotent: a second run creates no second integration and no second user', async () => {
    expect(await bootstrap(t.platform)).toEqual({ created: false });
    expect(await t.db.prisma.integration.count()).toBe(1);
    expect(await t.db.prisma.user.count()).toBe(1);
    expect((await t.call('test:app', APP, SECRET)).status).toBe(200);
  });

  it('new credentials give the same administrator a second application', async () => {
    // A restart of the same instance with another BOOTSTRAP_APP.
    const config = loadConfig({ RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0', DATA_DIR: '/nonexistent', BOOTSTRAP_APP: 'second-app-id', BOOTSTRAP_SECRET: SECRET });
    const platform: Platform = { ...t.platform, config };
    expect(await bootstrap(platform)).toEqual({ created: true });
    expect(await t.db.prisma.user.count()).toBe(1);
    const owners = await t.db.prisma.integration.findMany({ select: { appId: true, owner: { select: { username: true } } }, orderBy: { createdAt: 'asc' } });
    expect(owners).toEqual([
      { appId: APP, owner: { username: 'admin' } },
      { appId: 'second-app-id', owner: { username: 'admin' } },
    ]);
  });
});

describe('without BOOTSTRAP_APP and BOOTSTRAP_SECRET', () => {
  it('generates credentials once on an empty database, and they authenticate', async () => {
    const t = await instance();
    const first = await bootstrap(t.platform);
    expect(first.created).toBe(true);
    expect(first.generated?.app).toMatch(/^[0-9a-z]{24}$/);
    expect(first.generated?.secret).toMatch(/^[0-9a-z]{48}$/);
    const { app, secret } = first.generated!;

    const admin = await t.db.prisma.user.findUniqueOrThrow({ where: { username: 'admin' } });
    expect(admin.admin).toBe(true);
    const me = await t.call('user:me', app, secret);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ user: admin.id, name: 'Instance Administrator', status: true, exam: false });

    // Shown once: a second start generates nothing and returns no credentials.
    expect(await bootstrap(t.platform)).toEqual({ created: false });
    expect(await t.db.prisma.integration.count()).toBe(1);
    expect(await t.db.prisma.user.count()).toBe(1);
  });

  it('does nothing on a database that already has an integration', async () => {
    const t = await instance();
    const owner = await createAccount(t.platform, { username: 'operator', email: 'op@example.com', firstName: 'Op', lastName: 'Erator', admin: true });
    await createApiIntegration(t.platform, owner, 'Existing');
    expect(await bootstrap(t.platform)).toEqual({ created: false });
    expect(await t.db.prisma.user.findMany({ select: { username: true } })).toEqual([{ username: 'operator' }]);
    expect(await t.db.prisma.integration.count()).toBe(1);
  });
});
