import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { levels, people } from '../helpers/organizations.ts';
import {
  AddOrganizationMembersDocument,
  CreateDepartmentDocument,
  CreateOrganizationDocument,
  DeleteDepartmentDocument,
  DeleteOrganizationDocument,
  DepartmentNodeDocument,
  OrganizationDocument,
  OrganizationMembersDocument,
  OrganizationsDocument,
  RemoveOrganizationMembersDocument,
  UpdateDepartmentDocument,
  UpdateOrganizationDocument,
  UserOrganizationsDocument,
} from '../../schema/operations/generated.ts';
import { ISO, expectCode, ok, refused, send } from './client.ts';

/**
 * Organizations, memberships and departments through GraphQL: the dashboard's operations, the
 * same rules as the REST contract (one service), and the reads' SQL cost.
 */

let t: TestApp;
let owner: Caller;
let ann: Caller;
let ben: Caller;
let outsider: Caller;

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, outsider, ann, ben } = await people(t, ['ann', 'ben']));
});
afterAll(async () => t?.close());

const name = (c: Caller) => `${c.user.username} Tester`;

async function createOrganization(title: string, as = owner) {
  return (await ok(t, CreateOrganizationDocument, { input: { title } }, { as })).createOrganization.id;
}
async function createDepartment(organization: string, title: string, extra: Record<string, unknown> = {}) {
  return (await ok(t, CreateDepartmentDocument, { input: { organization, title, ...extra } }, { as: owner })).createDepartment;
}
async function addMembers(organizations: string[], users: string[], extra: Record<string, unknown> = {}) {
  return (await ok(t, AddOrganizationMembersDocument, { input: { organizations, users, ...extra } }, { as: owner })).addOrganizationMembers;
}

describe('organizations', () => {
  it('creates an organization owned by the caller, with every field', async () => {
    const data = await ok(t, CreateOrganizationDocument, {
      input: { title: 'Graph Co', description: 'Made in GraphQL', externalId: 'GC-1', website: 'https://graph.example.com', email: 'hi@graph.example.com', phone: '+1 5550199', customFields: null },
    }, { as: owner });
    expect(data.createOrganization).toEqual({
      id: expect.stringMatching(/^org_/),
      externalId: 'GC-1',
      title: 'Graph Co',
      description: 'Made in GraphQL',
      domain: null,
      website: 'https://graph.example.com',
      email: 'hi@graph.example.com',
      phone: '+1 5550199',
      customFields: {},
      viewerRights: { manager: true },
    });
    expect((await t.db.prisma.organization.findUniqueOrThrow({ where: { id: data.createOrganization.id } })).ownerId).toBe(owner.user.id);
  });

  it('refuses what POST organization refuses, with the same codes', async () => {
    expectCode(await refused(t, CreateOrganizationDocument, { input: { title: '' } }, { as: owner }), 'INVALID_ARGUMENT', 'title');
    expectCode(await refused(t, CreateOrganizationDocument, { input: { title: 'X', website: 'nope' } }, { as: owner }), 'INVALID_ARGUMENT', 'website');
    const e = await refused(t, CreateOrganizationDocument, { input: { title: 'X', domain: 'x.example.com' } }, { as: owner });
    expectCode(e, 'FEATURE_DISABLED');
    expect(e.extensions?.status).toBe(406);
  });

  it('updates only given fields, null clears optional ones; only managers may', async () => {
    const id = (await ok(t, CreateOrganizationDocument, { input: { title: 'Upd', description: 'Old', website: 'https://old.example.com' } }, { as: owner })).createOrganization.id;
    const data = await ok(t, UpdateOrganizationDocument, { input: { organization: id, title: 'Updated', description: null } }, { as: owner });
    expect(data.updateOrganization).toEqual({ id, externalId: null, title: 'Updated', description: null, website: 'https://old.example.com', customFields: {} });
    await addMembers([id], [ann.user.id]);
    expectCode(await refused(t, UpdateOrganizationDocument, { input: { organization: id, title: 'Mine' } }, { as: ann }), 'PERMISSION_DENIED');
    expectCode(await refused(t, DeleteOrganizationDocument, { organization: id }, { as: ann }), 'PERMISSION_DENIED');
    expect((await ok(t, DeleteOrganizationDocument, { organization: id }, { as: owner })).deleteOrganization).toBe(id);
    expect(await t.db.prisma.organization.findUnique({ where: { id } })).toBeNull();
  });

  it('lists the organizations of the caller by title, with its rights', async () => {
    const a = await createOrganization('List A');
    const b = await createOrganization('List B');
    await addMembers([b], [ann.user.id], { permission: { organization: 'supervisor' } });
    const mine = await ok(t, OrganizationsDocument, { search: 'list' }, { as: ann });
    expect(mine.organizations.edges.map((e) => [e.node.id, e.node.title, e.node.viewerRights])).toEqual([
      [b, 'List B', { manager: false, canManageMembers: true, canReport: true }],
    ]);
    const all = await ok(t, OrganizationsDocument, { search: 'list', first: 1 }, { as: owner });
    expect(all.organizations.edges.map((e) => e.node.id)).toEqual([a]);
    expect(all.organizations.pageInfo.hasNextPage).toBe(true);
    const next = await ok(t, OrganizationsDocument, { search: 'list', first: 1, after: all.organizations.pageInfo.endCursor }, { as: owner });
    expect(next.organizations.edges.map((e) => e.node.id)).toEqual([b]);
    expect((await ok(t, OrganizationsDocument, { search: 'list' }, { as: outsider })).organizations.edges).toEqual([]);
    expectCode(await refused(t, OrganizationDocument, { id: a }, { as: outsider }), 'NOT_FOUND');
    expectCode(await refused(t, OrganizationDocument, { id: 'org_missing0000000' }, { as: owner }), 'NOT_FOUND', 'organization');
  });
});

describe('departments and members', () => {
  let org: string;
  beforeAll(async () => {
    org = await createOrganization('Tree Co');
    await addMembers([org], [ann.user.id, ben.user.id]);
  });

  it('creates departments and shows them as a tree and as a list in hierarchy order', async () => {
    const root = await createDepartment(org, 'Root', { externalId: 'R', permission: { organization: 'teacher', members: 'department' }, leaders: [ann.user.id] });
    expect(root).toEqual({
      id: expect.stringMatching(/^dep_/),
      title: 'Root',
      externalId: 'R',
      level: 0,
      memberCount: 0,
      permission: levels('teacher', 'none', 'department'),
      leaders: [{ userId: ann.user.id, name: name(ann) }],
      parent: null,
    });
    await createDepartment(org, 'Zulu', { parent: 'R' });
    const alpha = await createDepartment(org, 'Alpha', { parent: root.id });
    expect(alpha).toMatchObject({ level: 1, parent: { title: 'Root' } });
    await createDepartment(org, 'Deep', { parent: 'Alpha' });
    await createDepartment(org, 'Another root');
    await addMembers([org], [ben.user.id], { department: 'Deep' });

    const page = (await ok(t, OrganizationDocument, { id: org }, { as: owner })).organization!;
    expect(page.link).toBe(`${BASE_URL}/organizations/${org}`);
    expect(page.createdAt).toMatch(ISO);
    expect(page.departments.map((d) => [d.title, d.children.map((c) => [c.title, c.children.map((g) => g.title)])])).toEqual([
      ['Another root', []],
      ['Root', [['Alpha', ['Deep']], ['Zulu', []]]],
    ]);
    expect(page.allDepartments.map((d) => [d.title, d.level, d.parent?.title ?? null, d.memberCount])).toEqual([
      ['Another root', 0, null, 0],
      ['Root', 0, null, 0],
      ['Alpha', 1, 'Root', 0],
      ['Deep', 2, 'Alpha', 1],
      ['Zulu', 1, 'Root', 0],
    ]);
  });

  it('refuses a cycle, a taken title and a non-member leader with the REST codes', async () => {
    expectCode(await refused(t, UpdateDepartmentDocument, { input: { organization: org, department: 'Root', parent: 'Deep' } }, { as: owner }), 'DEPARTMENT_CYCLE', 'parent');
    expectCode(await refused(t, CreateDepartmentDocument, { input: { organization: org, title: 'Root' } }, { as: owner }), 'TITLE_TAKEN', 'title');
    expectCode(await refused(t, CreateDepartmentDocument, { input: { organization: org, title: 'New', leaders: [outsider.user.id] } }, { as: owner }), 'NOT_A_MEMBER', 'leaders');
    expectCode(await refused(t, CreateDepartmentDocument, { input: { organization: org, title: 'By member' } }, { as: ann }), 'PERMISSION_DENIED');
  });

  it('updates a department: null parent moves it to the root, null leaders removes them, new levels reach its members', async () => {
    const moved = (await ok(t, UpdateDepartmentDocument, { input: { organization: org, department: 'Alpha', parent: null, permission: { content: 'view' } } }, { as: owner })).updateDepartment;
    expect(moved).toMatchObject({ title: 'Alpha', level: 0, parent: null, permission: levels('member', 'view') });
    const deep = (await ok(t, UpdateDepartmentDocument, { input: { organization: org, department: 'Deep', permission: { organization: 'reporter', members: 'department' } } }, { as: owner })).updateDepartment;
    expect(deep).toMatchObject({ level: 1, memberCount: 1, permission: levels('reporter', 'none', 'department') });
    const members = (await ok(t, OrganizationMembersDocument, { id: org }, { as: owner })).organization!.members.edges.map((e) => e.node);
    expect(members.find((m) => m.userId === ben.user.id)).toMatchObject({ department: { title: 'Deep' }, permission: levels('reporter', 'none', 'department') });
    const root = (await ok(t, UpdateDepartmentDocument, { input: { organization: org, department: 'R', leaders: null, externalId: null } }, { as: owner })).updateDepartment;
    expect(root).toMatchObject({ title: 'Root', externalId: null, leaders: [] });
  });

  it('lists members as a connection with department and permission; the user only when readable', async () => {
    const first = (await ok(t, OrganizationMembersDocument, { id: org, first: 1 }, { as: owner })).organization!.members;
    expect(first.edges.map((e) => e.node.userId)).toEqual([ann.user.id]);
    expect(first.edges[0]!.node).toMatchObject({ name: name(ann), department: null, permission: levels(), user: { id: ann.user.id, email: ann.user.email } });
    expect(first.edges[0]!.node.createdAt).toMatch(ISO);
    const rest = (await ok(t, OrganizationMembersDocument, { id: org, first: 10, after: first.pageInfo.endCursor }, { as: owner })).organization!.members;
    expect(rest.edges.map((e) => e.node.userId)).toEqual([ben.user.id]);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    // ben (a reporter seeing its department) sees its department, but the user account only of itself.
    await addMembers([org], [ann.user.id], { department: 'Deep' });
    const seen = (await ok(t, OrganizationMembersDocument, { id: org }, { as: ben })).organization!.members.edges.map((e) => e.node);
    expect(seen.map((m) => [m.userId, m.user?.id ?? null])).toEqual([
      [ann.user.id, null],
      [ben.user.id, ben.user.id],
    ]);
  });

  it('adds memberships with the REST rules and shows them on the user', async () => {
    const other = await createOrganization('Second Co');
    expectCode(await refused(t, AddOrganizationMembersDocument, { input: { organizations: [org], users: [ann.user.id], department: 'Deep', permission: { content: 'view' } } }, { as: owner }), 'ARGUMENT_CONFLICT', 'department');
    // The department must exist in every organization.
    expectCode(await refused(t, AddOrganizationMembersDocument, { input: { organizations: [org, other], users: [ann.user.id], department: 'Deep' } }, { as: owner }), 'NOT_FOUND', 'department');
    expectCode(await refused(t, AddOrganizationMembersDocument, { input: { organizations: [org], users: [ann.user.id] } }, { as: ben }), 'PERMISSION_DENIED');
    const added = await addMembers([org, other], [ann.user.id], { permission: { organization: 'teacher' }, notify: true });
    expect(added.map((m) => [m.organization.id, m.userId, m.department, m.permission])).toEqual([
      [other, ann.user.id, null, levels('teacher')],
      [org, ann.user.id, null, levels('teacher')],
    ]);
    expect(await t.db.prisma.organizationMember.count({ where: { userId: ann.user.id, organizationId: { in: [org, other] } } })).toBe(2);
    const user = (await ok(t, UserOrganizationsDocument, { id: ann.user.id }, { as: owner })).user;
    expect(user.organizations.filter((m) => [org, other].includes(m.organization.id)).map((m) => [m.organization.title, m.organization.link, m.permission.organization])).toEqual([
      ['Second Co', `${BASE_URL}/organizations/${other}`, 'teacher'],
      ['Tree Co', `${BASE_URL}/organizations/${org}`, 'teacher'],
    ]);
    // A user the owner neither reads nor sees as a member is unknown to it.
    expectCode(await refused(t, RemoveOrganizationMembersDocument, { organizations: [org, other], users: [ann.user.id, outsider.user.id] }, { as: owner }), 'NOT_FOUND', 'users');
    expect((await ok(t, RemoveOrganizationMembersDocument, { organizations: [org, other], users: [ann.user.id] }, { as: owner })).removeOrganizationMembers).toBe(2);
    expect((await ok(t, RemoveOrganizationMembersDocument, { organizations: [other], users: [ann.user.id] }, { as: owner })).removeOrganizationMembers).toBe(0);
  });

  it('deletes a department: children move up to its parent, members stay without department and levels', async () => {
    await createDepartment(org, 'Leaf', { parent: 'Deep' });
    const deep = (await t.db.prisma.department.findFirstOrThrow({ where: { organizationId: org, title: 'Deep' } })).id;
    expect((await ok(t, DeleteDepartmentDocument, { organization: org, department: 'Deep' }, { as: owner })).deleteDepartment).toBe(deep);
    const leaf = (await t.db.prisma.department.findFirstOrThrow({ where: { organizationId: org, title: 'Leaf' } })).id;
    const node = (await ok(t, DepartmentNodeDocument, { id: leaf }, { as: owner })).node;
    expect(node).toMatchObject({ __typename: 'Department', title: 'Leaf', level: 1, parent: { title: 'Alpha' }, organization: { id: org } });
    const members = (await ok(t, OrganizationMembersDocument, { id: org }, { as: owner })).organization!.members.edges.map((e) => e.node);
    expect(members.find((m) => m.userId === ben.user.id)).toMatchObject({ department: null, permission: levels() });
    // Node lookups follow the read rule.
    expect((await ok(t, DepartmentNodeDocument, { id: leaf }, { as: outsider })).node).toBeNull();
  });
});

describe('SQL statements of the organization page', () => {
  it('do not grow with the number of departments and members', async () => {
    const org = await createOrganization('Counted');
    const page = async () => {
      return countStatements(t, () => ok(t, OrganizationDocument, { id: org }, { as: owner }));
    };
    const grow = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        await createDepartment(org, `Dept ${String(i).padStart(2, '0')}`, i % 3 ? { parent: `Dept ${String(i - (i % 3)).padStart(2, '0')}` } : {});
      }
    };
    await grow(0, 3);
    await addMembers([org], [ann.user.id], { department: 'Dept 01' });
    const small = await page();
    expect(small.result.organization!.allDepartments).toHaveLength(3);
    await grow(3, 15);
    await addMembers([org], [ben.user.id], { department: 'Dept 13' });
    const large = await page();
    expect(large.result.organization!.allDepartments).toHaveLength(15);
    expect(large.result.organization!.allDepartments.find((d) => d.title === 'Dept 13')).toMatchObject({ level: 1, memberCount: 1 });
    expect(large.count, large.statements.join('\n')).toBe(small.count);
  });
});

describe('errors reach GraphQL as the service raised them', () => {
  it('names the argument of a bad level', async () => {
    const r = await send(t, CreateDepartmentDocument, { input: { organization: 'org_missing0000000', title: 'X' } }, { as: owner });
    expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', argument: 'organization', status: 403 });
  });
});
