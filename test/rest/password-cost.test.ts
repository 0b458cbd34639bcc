import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

/** Creates a user over REST and reads back its stored hash; the password must then assume it. */
async function created(t: TestApp, username: string) {
  const r = await t.rpc('POST', 'user', { username, first_name: 'Pat', last_name: 'Cost', email: `${username}@example.com`, password: 'Secret-Pw1' });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const stored = await t.db.prisma.user.findUniqueOrThrow({ where: { id: r.body.user } });
  const other = await t.newCaller(`${username}-other`);
  const assumed = await t.rpc('POST', 'user:assume', { user: username, password: 'Secret-Pw1' }, { as: other });
  expect(assumed.status, JSON.stringify(assumed.body)).toBe(200);
  return stored.passwordHash;
}

describe('the password hash cost', () => {
  it('is the cheap one in test apps, and the configured one otherwise', async () => {
    const t = await createTestApp();
    apps.push(t);
    expect(await created(t, 'cheap-user')).toMatch(/^scrypt\$16\$/);
    const admin = await t.db.prisma.user.findUniqueOrThrow({ where: { id: t.admin.user.id } });
    expect(admin.passwordHash).toMatch(/^scrypt\$16\$/);

    const production = await createTestApp({ PASSWORD_HASH_COST: '14' });
    apps.push(production);
    expect(await created(production, 'real-user')).toMatch(/^scrypt\$16384\$/);
  });
});
