import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { dashboardSeed } from '../helpers/dashboard-seed.ts';
import { seed as serviceSeed } from '../helpers/seed.ts';
import { createApiIntegration } from '../../src/services/bootstrap/bootstrap.service.ts';
import {
  ClassesOverviewDocument,
  OrganizationCompetenciesDocument,
  OrganizationsOverviewDocument,
  UserDirectoryDocument,
  UserMembershipsDocument,
} from '../../schema/operations/generated.ts';
import { ok, send } from './client.ts';

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

/**
 * The dashboard's nested queries, counted for a short and a long list: every relation and rule
 * loads once per level for the whole list, so the two counts are equal.
 */
describe('SQL statements of the dashboard overviews', () => {
  const seed = () => dashboardSeed(t);

  /** Counts `run` with `small` and then `large` parents, `add` growing the data in between. */
  async function sameCount<T>(small: number, large: number, add: (from: number, to: number) => Promise<void>, run: () => Promise<T>) {
    await add(0, small);
    const few = await countStatements(t, run);
    await add(small, large);
    const many = await countStatements(t, run);
    expect(many.count, many.statements.join('\n')).toBe(few.count);
    return { few, many };
  }

  it('organizations with members, departments, classes, competencies, library and webhooks, for their owner', async () => {
    const owner = await t.newCaller('overview-owner');
    const { few, many } = await sameCount(
      2,
      8,
      async (from, to) => {
        for (let i = from; i < to; i++) await seed().organization(owner);
      },
      () => ok(t, OrganizationsOverviewDocument, { first: 100 }, { as: owner }),
    );
    expect(few.result.organizations.edges).toHaveLength(2);
    const organizations = many.result.organizations.edges.map((e) => e.node);
    expect(organizations).toHaveLength(8);
    for (const o of organizations) {
      expect(o.viewerRights).toEqual({ manager: true, canManageMembers: true, canReport: true });
      expect(o.members.edges).toHaveLength(3);
      expect(o.allDepartments.map((d) => [d.title, d.level, d.memberCount, d.leaders.length])).toEqual([
        ['Head office', 0, 1, 0],
        ['Branch', 1, 1, 1],
      ]);
      expect(o.classes).toHaveLength(1);
      expect(o.competencies.map((c) => [c.title, c.departments.length, c.members.length, c.documents.length])).toEqual([
        ['Safety', 1, 0, 1],
        ['Sales', 0, 1, 0],
      ]);
      expect(o.library).toHaveLength(1);
      expect(o.webhooks?.[0]?.deliveries).toHaveLength(2);
    }
  });

  it('organizations for a reporter who sees its own department: fewer members, no webhooks, the same count', async () => {
    const owner = await t.newCaller('overview-other-owner');
    const reporter = await t.newCaller('overview-reporter');
    const { few, many } = await sameCount(
      2,
      8,
      async (from, to) => {
        for (let i = from; i < to; i++) await seed().organization(owner, { caller: reporter, levels: { permissionOrganization: 'reporter', permissionMembers: 'department' } });
      },
      () => send(t, OrganizationsOverviewDocument, { first: 100 }, { as: reporter }),
    );
    expect(few.result.errors).toHaveLength(2);
    const { data, errors } = many.result;
    expect(errors?.map((e) => [e.extensions?.code, e.path?.at(-1)])).toEqual(Array(8).fill(['PERMISSION_DENIED', 'webhooks']));
    for (const { node: o } of data!.organizations.edges) {
      expect(o.viewerRights).toEqual({ manager: false, canManageMembers: false, canReport: true });
      // Itself and the other member of the branch; the user account only of itself.
      expect(o.members.edges.map((e) => e.node.user?.id ?? null)).toHaveLength(2);
      expect(o.members.edges.filter((e) => e.node.user).map((e) => e.node.userId)).toEqual([reporter.user.id]);
      expect(o.allDepartments.map((d) => d.memberCount)).toEqual([0, 2]);
      // The direct member of Sales is not in the reporter's department.
      expect(o.competencies.map((c) => c.members.length)).toEqual([0, 0]);
      expect(o.webhooks).toBeNull();
    }
  });

  it('managed users with their organizations and classes', async () => {
    const manager = await t.newCaller('overview-manager');
    const { few, many } = await sameCount(
      1,
      4,
      async (from, to) => {
        for (let i = from; i < to; i++) await seed().organization(manager);
      },
      () => ok(t, UserMembershipsDocument, { first: 100 }, { as: manager }),
    );
    expect(few.result.users.edges).toHaveLength(3);
    const users = many.result.users.edges.map((e) => e.node);
    expect(users).toHaveLength(12);
    for (const u of users) expect(u.organizations).toHaveLength(1);
    expect(users.filter((u) => u.classes.length === 1)).toHaveLength(8);
  });

  it('classes with members, assignments and submissions', async () => {
    const teacher: Caller = await t.newCaller('overview-teacher');
    const { many } = await sameCount(
      2,
      8,
      async (from, to) => {
        for (let i = from; i < to; i++) await seed().organization(teacher);
      },
      () => ok(t, ClassesOverviewDocument, { first: 100, members: 10 }, { as: teacher }),
    );
    const classes = many.result.classes.edges.map((e) => e.node);
    expect(classes).toHaveLength(8);
    for (const c of classes) {
      expect(c.members.totalCount).toBe(2);
      expect(c.assignments.map((a) => [a.status, a.submissions.map((s) => s.status)])).toEqual([['ACTIVE', ['SUBMITTED']]]);
    }
    // By title, as GET classes lists them.
    expect(classes.map((c) => c.title)).toEqual(classes.map((c) => c.title).sort());
  });

  it('the competencies page of an organization with requirements, status, members and documents', async () => {
    const { organizationId } = await seed().organization(t.admin);
    const { many } = await sameCount(
      2,
      10,
      async (from, to) => {
        const organization = serviceSeed(t).admin.organizationOf(organizationId);
        for (let i = Math.max(from, 2); i < to; i++) await (await organization.competency(`More ${String(i).padStart(2, '0')}`)).assign({ all: true });
      },
      () => ok(t, OrganizationCompetenciesDocument, { organization: organizationId }),
    );
    const page = many.result.node as { competencies: { status: { assigned: number } | null; requirements: unknown[] }[] };
    expect(page.competencies).toHaveLength(10);
    expect(page.competencies.every((c) => c.status !== null)).toBe(true);
  });
});
