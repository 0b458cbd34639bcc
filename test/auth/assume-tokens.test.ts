import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { assumeTokenLoader } from '../../src/auth/assume-tokens.ts';
import { sha256 } from '../../src/auth/secrets.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('assume token lookup', () => {
  it('reads tokens with their users in one statement, the same records Prisma reads', async () => {
    const users = await Promise.all(['lookup1', 'lookup2', 'lookup3'].map((name) => t.newCaller(name)));
    await t.db.prisma.user.update({
      where: { id: users[0]!.user.id },
      data: { birthdate: new Date('2001-02-03'), customFields: { badge: 'A1', nested: [1, true] }, features: { library: false }, phone: '+3612345678' },
    });
    const tokens = users.map((u, i) => ({ hash: sha256(`token-${i}`), userId: u.user.id }));
    await t.db.prisma.assumeToken.createMany({
      data: tokens.map((token, i) => ({
        id: `ast_lookup${i}`,
        tokenHash: token.hash,
        userId: token.userId,
        issuerId: t.admin.user.id,
        integrationId: t.admin.integrationId,
        expiresAt: new Date(Date.now() + 3_600_000),
        revokedAt: i === 2 ? new Date('2026-01-01T10:00:00.123Z') : null,
      })),
    });
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
    expect(result[2]!.revokedAt).toEqual(new Date('2026-01-01T10:00:00.123Z'));
  });
});
