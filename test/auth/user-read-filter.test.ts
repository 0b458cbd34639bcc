import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { contextOf, seed } from '../helpers/seed.ts';
import { userPolicy } from '../../src/auth/policy.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/**
 * `userPolicy.readWhere` is `user:read` as a filter (lists and relations use it, single lookups
 * the rule): for every viewer the database must match exactly the users the rule admits.
 */
describe('user:read and its filter', () => {
  it('match the same users for an administrator and for ordinary viewers, and the ones expected', async () => {
    const reader = await t.newCaller('filter-reader');
    const other = await t.newCaller('filter-other');
    const users: Record<string, { id: string }> = {
      admin: t.admin.user,
      reader: reader.user,
      other: other.user,
      'made by reader': (await seed(t).as(reader).managedAccount('filter-mine')).user,
      'made by other': (await seed(t).as(other).managedAccount('filter-theirs')).user,
      'made by admin': (await seed(t).admin.managedAccount('filter-admins')).user,
    };
    const nameOf = new Map(Object.entries(users).map(([name, u]) => [u.id, name]));
    const rows = await t.db.prisma.user.findMany({ where: { id: { in: [...nameOf.keys()] } } });

    const seen = async (caller: Caller) => {
      const { viewer } = await contextOf(t, caller);
      const filtered = await t.db.prisma.user.findMany({ where: { AND: [userPolicy.readWhere(viewer), { id: { in: [...nameOf.keys()] } }] }, select: { id: true } });
      const names = (list: { id: string }[]) => list.map((u) => nameOf.get(u.id)!).sort();
      return { filter: names(filtered), rule: names(rows.filter((u) => userPolicy.read(viewer, u))) };
    };

    const everyone = ['admin', 'made by admin', 'made by other', 'made by reader', 'other', 'reader'];
    expect(await seen(t.admin)).toEqual({ filter: everyone, rule: everyone });
    expect(await seen(reader)).toEqual({ filter: ['made by reader', 'reader'], rule: ['made by reader', 'reader'] });
    expect(await seen(other)).toEqual({ filter: ['made by other', 'other'], rule: ['made by other', 'other'] });
  });
});
