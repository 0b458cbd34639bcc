import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { assumeTokenLoader } from '../../src/auth/assume-tokens.ts';
import { sha256 } from '../../src/auth/secrets.ts';
import { assumeUser, revokeAssumeToken } from '../../src/services/users/assume.service.ts';
import { seed } from '../helpers/seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('assume token lookup', () => {
  it('reads tokens with their users in one statement, the same records Prisma reads', async () => {
    const users = await Promise.all(['lookup1', 'lookup2', 'lookup3'].map((name) => t.newCaller(name)));
    // Values no service writes (a custom field holding a list): the loader must decode them as Prisma does.
    await t.db.prisma.user.update({
      where: { id: users[0]!.user.id },
      data: { birthdate: new Date('2001-02-03'), customFields: { badge: 'A1', nested: [1, true] }, features: { library: false }, phone: '+3612345678' },
    });
    // Issued by the administrator, who manages the users; the third is revoked.
    const admin = await seed(t).admin.ctx();
    const issued = [];
    for (const u of users) issued.push((await assumeUser(admin, { user: u.user.id })).token);
    const tokens = issued.map((token, i) => ({ hash: sha256(token), userId: users[i]!.user.id }));
    const revoking = Date.now();
    await revokeAssumeToken(admin, { token: issued[2] });
    const loader = assumeTokenLoader(t.db.prisma, 1);
    const unknown = sha256('no such token');
    const { result, count } = await countStatements(t, () => Promise.all([...tokens.map((token) => loader.add(token.hash)), loader.add(unknown)]));
    expect(count).toBe(1);
    expect(result.at(-1)).toBeNull();
    for (const [i, token] of tokens.entries()) {
      const expected = await t.db.prisma.assumeToken.findUnique({ where: { tokenHash: token.hash }, include: { user: true } });
      expect(result[i]).toEqual(expected);
    }
    expect(result[0]!.user).toMatchObject({ birthdate: new Date('2001-02-03'), customFields: { badge: 'A1', nested: [1, true] }, features: { library: false } });
    expect(result[2]!.revokedAt!.getTime()).toBeGreaterThanOrEqual(revoking);
    expect(result[2]!.revokedAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(result.slice(0, 2).map((r) => r!.revokedAt)).toEqual([null, null]);
  });
});
