import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { createApiIntegration } from '../../src/services/bootstrap/bootstrap.service.ts';
import { UserDirectoryDocument } from '../../schema/operations/generated.ts';
import { ok } from './client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** Users managed by the administrator until there are `total`, each owning two integrations. */
async function growTo(total: number) {
  let count = await t.db.prisma.user.count();
  while (count < total) {
    count += 1;
    const member = await t.newCaller(`directory${count}`, { createdBy: t.admin });
    await createApiIntegration(t.platform, member.user, `directory${count} reports`);
  }
}

/** The directory query, counted. */
async function directory() {
  return countStatements(t, () => ok(t, UserDirectoryDocument, { first: 100 }));
}

describe('SQL statements of a nested query', () => {
  it('does not grow with the number of users: relations load once per level, not once per user', async () => {
    await growTo(3);
    const three = await directory();
    expect(three.result.users.edges).toHaveLength(3);

    await growTo(30);
    const thirty = await directory();
    expect(thirty.result.users.edges).toHaveLength(30);
    for (const { node } of thirty.result.users.edges) {
      expect(node.integrations.length, node.id).toBeGreaterThanOrEqual(1);
      if (node.id !== t.admin.user.id) {
        expect(node.integrations).toHaveLength(2);
        expect(node.manager).toEqual({ id: t.admin.user.id });
      }
    }

    expect(thirty.count, thirty.statements.join('\n')).toBe(three.count);
    // Credentials (integration, owner), the users, their integrations, their managers.
    expect(three.count, three.statements.join('\n')).toBeGreaterThanOrEqual(3);
    expect(three.count, three.statements.join('\n')).toBeLessThanOrEqual(5);
  });

  it('answers me from the authenticated viewer: credentials only for its own fields, one more statement for each relation level', async () => {
    const bare = await countStatements(t, () => t.gql('{ me { id name username admin } }'));
    const credentials = await countStatements(t, () => t.rpc('GET', 'user:me'));
    expect(bare.result.body.data.me).toMatchObject({ id: t.admin.user.id, name: 'admin Tester', admin: true });
    expect(bare.count, bare.statements.join('\n')).toBe(credentials.count);
    const nested = await countStatements(t, () => t.gql('{ me { id integrations { id } } }'));
    expect(nested.result.body.data.me.integrations).toContainEqual({ id: t.admin.integrationId });
    expect(nested.count, nested.statements.join('\n')).toBe(bare.count + 2);
  });

  it('counts every statement, writes and transactions included', async () => {
    const { count, statements } = await countStatements(t, () => t.db.prisma.$transaction(async (tx) => tx.user.count()));
    expect(count).toBe(3);
    expect(statements[0]).toBe('BEGIN');
    expect(statements[2]).toBe('COMMIT');
  });
});
