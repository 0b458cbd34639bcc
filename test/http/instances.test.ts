import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { seed } from '../helpers/seed.ts';
import { startReceiver, type Receiver } from '../jobs/receiver.ts';
import type { App } from '../../src/app.ts';
import type { Platform } from '../../src/context.ts';
import { deliverDueWebhooks } from '../../src/services/webhooks/delivery.ts';

/**
 * Two instances of the service over one database (each with its own connection pool on
 * PostgreSQL) and one Redis, as production runs them: the per-application limit holds for the
 * pair, a webhook event is delivered once, and a one-use login link is used once under
 * concurrent requests to both.
 */

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PER_MINUTE = 12;

let t: TestApp;
let other: { app: App; platform: Platform };
let rx: Receiver;

beforeAll(async () => {
  t = await createTestApp({ REDIS_URL, RATE_LIMIT_PER_SECOND: '1000', RATE_LIMIT_PER_MINUTE: String(PER_MINUTE), WEBHOOK_ALLOW_PRIVATE: 'true' });
  other = await t.anotherInstance();
  rx = await startReceiver();
});
afterAll(async () => {
  await rx?.close();
  await t?.close();
});

const bearer = (caller: Caller) => ({ authorization: `Bearer ${caller.app}:${caller.secret}` });

/** GET test:app on one instance. */
const ping = (app: App, as: Caller) => app.fetch(new Request(`${BASE_URL}/api/v1/test:app`, { headers: bearer(as) }));

describe('two instances', () => {
  it('limit an application as one: requests spread over both share its budget', async () => {
    const caller = await t.newCaller('spread');
    const remaining: number[] = [];
    for (let i = 0; i < PER_MINUTE; i++) {
      const r = await ping(i % 2 === 0 ? t.app : other.app, caller);
      expect(r.status).toBe(200);
      remaining.push(Number(r.headers.get('ratelimit-remaining')));
    }
    // One count for the pair: each request, on either instance, takes one from the same budget.
    expect(remaining).toEqual(Array.from({ length: PER_MINUTE }, (_, i) => PER_MINUTE - 1 - i));
    for (const app of [t.app, other.app]) {
      const refused = await ping(app, caller);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('service-api-error-code')).toBe('RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Another application still has its whole budget on both.
    const fresh = await t.newCaller('fresh');
    expect((await ping(other.app, fresh)).status).toBe(200);
  });

  it('deliver each webhook event once when both run their workers at the same time', async () => {
    const owner = await t.newCaller('hooks');
    const organization = (await seed(t).as(owner).organization({ title: 'Hooks' })).id;
    const created = await t.rpc('POST', 'organization:webhook', { organization, title: 'Feed', trigger_event: 'api', endpoint: rx.url() }, { as: owner });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const deliveries: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await t.rpc('POST', 'organization:webhook:trigger', { organization, webhook: created.body.webhook, data: JSON.stringify({ n: i }) }, { as: owner });
      expect(r.status).toBe(200);
      deliveries.push(r.body.delivery);
    }
    const sent = await Promise.all([deliverDueWebhooks(t.platform), deliverDueWebhooks(other.platform), deliverDueWebhooks(t.platform), deliverDueWebhooks(other.platform)]);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(6);
    expect(await Promise.all([deliverDueWebhooks(t.platform), deliverDueWebhooks(other.platform)])).toEqual([0, 0]);
    const ids = rx.requests.map((request) => String(request.headers['webhook-id']));
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    const rows = await t.db.prisma.webhookDelivery.findMany({ where: { id: { in: deliveries } } });
    expect(rows.map((row) => row.status)).toEqual(Array(6).fill('delivered'));
  });

  it('let a one-use login link in once, whichever instance the concurrent requests reach', async () => {
    const boss = await t.newCaller('boss');
    const user = await t.rpc('POST', 'user', { username: 'linked', first_name: 'Link', last_name: 'User', email: 'linked@example.com' }, { as: boss });
    expect(user.status, JSON.stringify(user.body)).toBe(200);
    const link = await t.rpc('POST', 'user:login', { user: user.body.user, logins: 1, short: false }, { as: boss });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    const opens = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? t.app : other.app).fetch(new Request(link.body.url, { redirect: 'manual' }))));
    const statuses = opens.map((r) => r.status);
    expect(statuses.filter((s) => s === 302)).toHaveLength(1);
    expect(opens.filter((r) => r.headers.get('set-cookie')?.startsWith('session='))).toHaveLength(1);
    expect(statuses.every((s) => s === 302 || (s >= 400 && s < 500))).toBe(true);
  });
});
