import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { addMembers, createDepartment, createOrganization, expectError, levels, ok, people, refused } from '../helpers/organizations.ts';
import { seed } from '../helpers/seed.ts';

/**
 * organization:departments and organization:department through HTTP: the tree (parent by name or
 * external id, levels, hierarchy order), leaders, visible member counts, permission levels given
 * to members, and what deleting a department or moving a member does to memberships and
 * competency assignments.
 */

let t: TestApp;
let owner: Caller;
let ann: Caller;
let ben: Caller;
let cat: Caller;
let outsider: Caller;
/** Six more users of owner, for the leader limit. */
const crowd: Caller[] = [];

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, outsider, ann, ben, cat } = await people(t, ['ann', 'ben', 'cat']));
  for (let i = 0; i < 6; i++) crowd.push(await t.newCaller(`crowd${i}`, { createdBy: owner }));
});
afterAll(async () => t?.close());

const name = (c: Caller) => `${c.user.username} Tester`;
const getDepartment = (organization: string, department: string, as = owner) => ok(t, 'GET', 'organization:department', { organization, department }, as);
const listDepartments = (organization: string, as = owner) => ok(t, 'GET', 'organization:departments', { organization }, as);
const membership = (organization: string, userId: string) =>
  t.db.prisma.organizationMember.findUniqueOrThrow({ where: { organizationId_userId: { organizationId: organization, userId } } });

describe('POST and GET organization:department', () => {
  let org: string;
  beforeAll(async () => {
    org = await createOrganization(t, owner, { title: 'Departments' });
    await addMembers(t, owner, org, [ann.user.id, ben.user.id]);
  });

  it('creates a root department with the default levels and returns organization, department, id', async () => {
    expect(await createDepartment(t, owner, org, 'Finance')).toEqual({ organization: org, department: 'Finance', id: null });
    expect(await getDepartment(org, 'Finance')).toEqual({
      organization: org,
      department: 'Finance',
      id: null,
      parent: null,
      level: 0,
      permission: levels(),
      members: 0,
      leaders: [],
    });
  });

  it('takes an external id, a parent by name or external id, levels and leaders', async () => {
    expect(await createDepartment(t, owner, org, 'Operations', { id: 'OPS-1' })).toEqual({ organization: org, department: 'Operations', id: 'OPS-1' });
    await createDepartment(t, owner, org, 'Logistics', { parent: 'OPS-1', permission_organization: 'teacher', permission_content: 'report', permission_members: 'department', leaders: `${ben.user.id},${ann.user.id}` });
    await createDepartment(t, owner, org, 'Trucks', { parent: 'Logistics', id: 'TRK' });
    expect(await getDepartment(org, 'TRK')).toMatchObject({ department: 'Trucks', id: 'TRK', parent: 'Logistics', level: 2 });
    expect(await getDepartment(org, 'Logistics')).toEqual({
      organization: org,
      department: 'Logistics',
      id: null,
      parent: 'Operations',
      level: 1,
      permission: levels('teacher', 'report', 'department'),
      members: 0,
      leaders: [
        { user: ann.user.id, name: name(ann) },
        { user: ben.user.id, name: name(ben) },
      ],
    });
  });

  it('refuses a title that is taken, empty or too long, an id over 64 characters and an unknown parent', async () => {
    await refused(t, () => t.rpc('POST', 'organization:department', { organization: org, title: 'Finance' }, { as: owner }), 403, 'TITLE_TAKEN', 'title');
    await refused(t, () => t.rpc('POST', 'organization:department', { organization: org }, { as: owner }), 403, 'MISSING_ARGUMENT', 'title');
    await refused(t, () => t.rpc('POST', 'organization:department', { organization: org, title: ' ' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'title');
    await refused(t, () => t.rpc('POST', 'organization:department', { organization: org, title: 'd'.repeat(256) }, { as: owner }), 403, 'INVALID_ARGUMENT', 'title');
    await refused(t, () => t.rpc('POST', 'organization:department', { organization: org, title: 'Long id', id: 'i'.repeat(65) }, { as: owner }), 403, 'INVALID_ARGUMENT', 'id');
    await refused(t, () => t.rpc('POST', 'organization:department', { organization: org, title: 'Dup id', id: 'OPS-1' }, { as: owner }), 403, 'ID_TAKEN', 'id');
    await refused(t, () => t.rpc('POST', 'organization:department', { organization: org, title: 'Orphan', parent: 'Nowhere' }, { as: owner }), 403, 'NOT_FOUND', 'parent');
    await refused(t, () => t.rpc('POST', 'organization:department', { organization: org, title: 'Bad level', permission_members: 'all' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'permission_members');
    // The same title is fine in another organization.
    const other = await createOrganization(t, owner, { title: 'Other' });
    expect(await createDepartment(t, owner, other, 'Finance')).toEqual({ organization: other, department: 'Finance', id: null });
  });

  it('takes at most 5 leaders, each a member of the organization', async () => {
    await refused(t, () => t.rpc('POST', 'organization:department', { organization: org, title: 'Led', leaders: cat.user.id }, { as: owner }), 403, 'NOT_A_MEMBER', 'leaders');
    await addMembers(t, owner, org, crowd.map((c) => c.user.id));
    const six = crowd.map((c) => c.user.id).join(',');
    await refused(t, () => t.rpc('POST', 'organization:department', { organization: org, title: 'Led', leaders: six }, { as: owner }), 403, 'INVALID_ARGUMENT', 'leaders');
    const five = crowd.slice(0, 5).map((c) => c.user.id);
    await createDepartment(t, owner, org, 'Led', { leaders: five.join(',') });
    expect((await getDepartment(org, 'Led')).leaders.map((l: any) => l.user).sort()).toEqual([...five].sort());
  });

  it('refuses unknown departments and callers who are not managers', async () => {
    expectError(await t.rpc('GET', 'organization:department', { organization: org, department: 'Ghost' }, { as: owner }), 403, 'NOT_FOUND', 'department');
    expectError(await t.rpc('GET', 'organization:department', { organization: org }, { as: owner }), 403, 'MISSING_ARGUMENT', 'department');
    expectError(await t.rpc('GET', 'organization:department', { organization: org, department: 'Finance' }, { as: outsider }), 403, 'NOT_FOUND');
    // Members read departments; only managers write them.
    expect((await getDepartment(org, 'Finance', ann)).department).toBe('Finance');
    await refused(t, () => t.rpc('POST', 'organization:department', { organization: org, title: 'By member' }, { as: ann }), 403, 'PERMISSION_DENIED');
    await refused(t, () => t.rpc('PATCH', 'organization:department', { organization: org, department: 'Finance', title: 'By member' }, { as: ann }), 403, 'PERMISSION_DENIED');
    await refused(t, () => t.rpc('DELETE', 'organization:department', { organization: org, department: 'Finance' }, { as: ann }), 403, 'PERMISSION_DENIED');
  });
});

describe('GET organization:departments', () => {
  it('lists departments in hierarchy order (depth first, siblings by title) with levels and parents', async () => {
    const org = await createOrganization(t, owner, { title: 'Tree' });
    // Created out of order on purpose.
    for (const [title, parent] of [['Zeta', ''], ['Beta', 'Alpha'], ['Alpha', ''], ['Gamma', 'Beta'], ['Delta', 'Alpha'], ['Eta', 'Zeta'], ['Omega', '']] as [string, string][]) {
      if (parent && !(await t.db.prisma.department.findFirst({ where: { organizationId: org, title: parent } }))) await createDepartment(t, owner, org, parent);
      if (!(await t.db.prisma.department.findFirst({ where: { organizationId: org, title } }))) await createDepartment(t, owner, org, title, parent ? { parent } : {});
    }
    const r = await listDepartments(org);
    expect(Object.keys(r)).toEqual(['organization', 'departments']);
    expect(r.organization).toBe(org);
    expect(r.departments.map((d: any) => [d.department, d.parent, d.level])).toEqual([
      ['Alpha', null, 0],
      ['Beta', 'Alpha', 1],
      ['Gamma', 'Beta', 2],
      ['Delta', 'Alpha', 1],
      ['Omega', null, 0],
      ['Zeta', null, 0],
      ['Eta', 'Zeta', 1],
    ]);
    for (const d of r.departments) expect(Object.keys(d).sort()).toEqual(['department', 'id', 'leaders', 'level', 'members', 'parent', 'permission']);
    expect(await listDepartments(await createOrganization(t, owner, { title: 'Empty' }))).toMatchObject({ departments: [] });
  });

  it('counts the members of each department that the caller may see', async () => {
    const org = await createOrganization(t, owner, { title: 'Counting' });
    await createDepartment(t, owner, org, 'North');
    await createDepartment(t, owner, org, 'South', { permission_members: 'department' });
    await addMembers(t, owner, org, [ann.user.id, ben.user.id], { department: 'North' });
    await addMembers(t, owner, org, [cat.user.id], { department: 'South' });
    const counts = async (as: Caller) => Object.fromEntries((await listDepartments(org, as)).departments.map((d: any) => [d.department, d.members]));
    expect(await counts(owner)).toEqual({ North: 2, South: 1 });
    // ann (members: none) sees only itself; cat (members: department) sees its department.
    expect(await counts(ann)).toEqual({ North: 1, South: 0 });
    expect(await counts(cat)).toEqual({ North: 0, South: 1 });
    expectError(await t.rpc('GET', 'organization:departments', { organization: org }, { as: outsider }), 403, 'NOT_FOUND');
  });
});

describe('PATCH organization:department', () => {
  let org: string;
  beforeAll(async () => {
    org = await createOrganization(t, owner, { title: 'Patching' });
    await createDepartment(t, owner, org, 'Root', { id: 'R' });
    await createDepartment(t, owner, org, 'Child', { parent: 'Root', id: 'C' });
    await createDepartment(t, owner, org, 'Grandchild', { parent: 'Child' });
    await addMembers(t, owner, org, [ann.user.id, ben.user.id, cat.user.id]);
  });

  it('changes only the given fields and answers with the department record', async () => {
    const r = await ok(t, 'PATCH', 'organization:department', { organization: org, department: 'C', title: 'Kid' }, owner);
    expect(r).toEqual({ organization: org, success: true, department: 'Kid', id: 'C', parent: 'Root', level: 1, permission: levels(), members: 0, leaders: [] });
    await ok(t, 'PATCH', 'organization:department', { organization: org, department: 'Kid', id: '' }, owner);
    expect(await getDepartment(org, 'Kid')).toMatchObject({ id: null, parent: 'Root' });
    await ok(t, 'PATCH', 'organization:department', { organization: org, department: 'Kid', id: 'K2', title: 'Child' }, owner);
    expect(await getDepartment(org, 'K2')).toMatchObject({ department: 'Child', id: 'K2' });
  });

  it('moves a department to the root with an empty parent, and below another by name or id', async () => {
    await ok(t, 'PATCH', 'organization:department', { organization: org, department: 'Child', parent: '' }, owner);
    expect((await listDepartments(org)).departments.map((d: any) => [d.department, d.level])).toEqual([['Child', 0], ['Grandchild', 1], ['Root', 0]]);
    await ok(t, 'PATCH', 'organization:department', { organization: org, department: 'Child', parent: 'R' }, owner);
    expect((await listDepartments(org)).departments.map((d: any) => [d.department, d.level])).toEqual([['Root', 0], ['Child', 1], ['Grandchild', 2]]);
  });

  it('refuses the department itself or one below it as parent (DEPARTMENT_CYCLE), and a taken title', async () => {
    await refused(t, () => t.rpc('PATCH', 'organization:department', { organization: org, department: 'Root', parent: 'Root' }, { as: owner }), 403, 'DEPARTMENT_CYCLE', 'parent');
    await refused(t, () => t.rpc('PATCH', 'organization:department', { organization: org, department: 'Root', parent: 'Grandchild' }, { as: owner }), 403, 'DEPARTMENT_CYCLE', 'parent');
    await refused(t, () => t.rpc('PATCH', 'organization:department', { organization: org, department: 'Child', parent: 'Grandchild', title: 'Renamed' }, { as: owner }), 403, 'DEPARTMENT_CYCLE', 'parent');
    await refused(t, () => t.rpc('PATCH', 'organization:department', { organization: org, department: 'Child', title: 'Root' }, { as: owner }), 403, 'TITLE_TAKEN', 'title');
    await refused(t, () => t.rpc('PATCH', 'organization:department', { organization: org, department: 'Child', title: '' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'title');
    await refused(t, () => t.rpc('PATCH', 'organization:department', { organization: org, department: 'Ghost', title: 'x' }, { as: owner }), 403, 'NOT_FOUND', 'department');
  });

  it('replaces leaders (empty removes all), at most 5 and all members', async () => {
    await ok(t, 'PATCH', 'organization:department', { organization: org, department: 'Root', leaders: `${ann.user.id},${ben.user.id}` }, owner);
    await ok(t, 'PATCH', 'organization:department', { organization: org, department: 'Root', leaders: cat.user.id }, owner);
    expect((await getDepartment(org, 'Root')).leaders).toEqual([{ user: cat.user.id, name: name(cat) }]);
    await refused(t, () => t.rpc('PATCH', 'organization:department', { organization: org, department: 'Root', leaders: outsider.user.id }, { as: owner }), 403, 'NOT_A_MEMBER', 'leaders');
    await refused(t, () => t.rpc('PATCH', 'organization:department', { organization: org, department: 'Root', leaders: crowd.map((c) => c.user.id).join(',') }, { as: owner }), 403, 'INVALID_ARGUMENT', 'leaders');
    await ok(t, 'PATCH', 'organization:department', { organization: org, department: 'Root', leaders: '' }, owner);
    expect((await getDepartment(org, 'Root')).leaders).toEqual([]);
  });

  it('gives changed levels to the members of the department at once', async () => {
    await addMembers(t, owner, org, [ann.user.id, ben.user.id], { department: 'Child' });
    await ok(t, 'PATCH', 'organization:department', { organization: org, department: 'Child', permission_organization: 'reporter', permission_members: 'department' }, owner);
    const members = (await ok(t, 'GET', 'organization:members', { organization: org }, owner)).members;
    expect(members.filter((m: any) => m.department === 'Child').map((m: any) => m.permission)).toEqual([levels('reporter', 'none', 'department'), levels('reporter', 'none', 'department')]);
    // Members elsewhere keep theirs; the new levels work at once (ann now sees its department).
    expect(await membership(org, cat.user.id)).toMatchObject({ permOrganization: 'member', permMembers: 'none' });
    expect((await ok(t, 'GET', 'organization:members', { organization: org }, ann)).members.map((m: any) => m.user).sort()).toEqual([ann.user.id, ben.user.id].sort());
  });
});

describe('competencies through departments', () => {
  let org: string;
  /** Competencies held by a member: assigned to all, to it directly, or to its department. */
  async function held(userId: string): Promise<string[]> {
    const m = await membership(org, userId);
    const competencies = await t.db.prisma.competency.findMany({
      where: {
        organizationId: org,
        OR: [{ assignAll: true }, { members: { some: { userId } } }, ...(m.departmentId ? [{ departments: { some: { departmentId: m.departmentId } } }] : [])],
      },
      orderBy: { title: 'asc' },
    });
    return competencies.map((c) => c.title);
  }
  /** A competency of the organization assigned to all, to departments (by name) or to members. */
  const competency = async (title: string, assignment: { all?: boolean; departments?: string[]; members?: string[] } = {}) => {
    const made = await seed(t).as(owner).organizationOf(org).competency(title);
    await made.assign(assignment);
    return made.id;
  };
  let direct: string;
  const departmentId = async (title: string) => (await t.db.prisma.department.findFirstOrThrow({ where: { organizationId: org, title } })).id;

  beforeAll(async () => {
    org = await createOrganization(t, owner, { title: 'Competent' });
    await createDepartment(t, owner, org, 'Old', { permission_organization: 'teacher', permission_content: 'view' });
    await createDepartment(t, owner, org, 'Sub', { parent: 'Old' });
    await createDepartment(t, owner, org, 'New');
    await addMembers(t, owner, org, [ann.user.id, ben.user.id], { department: 'Old' });
    await ok(t, 'PATCH', 'organization:department', { organization: org, department: 'Old', leaders: ben.user.id }, owner);
    await competency('Everyone', { all: true });
    await competency('OldOnly', { departments: ['Old'] });
    await competency('Both', { departments: ['Old', 'New'] });
    direct = await competency('Direct', { departments: ['Old'], members: [ann.user.id] });
    await competency('NewOnly', { departments: ['New'] });
  });

  it('moving a member to another department loses what it held only through the old one', async () => {
    expect(await held(ann.user.id)).toEqual(['Both', 'Direct', 'Everyone', 'OldOnly']);
    await addMembers(t, owner, org, [ann.user.id], { department: 'New' });
    expect(await membership(org, ann.user.id)).toMatchObject({ departmentId: await departmentId('New'), permOrganization: 'member', permContent: 'none' });
    expect(await held(ann.user.id)).toEqual(['Both', 'Direct', 'Everyone', 'NewOnly']);
  });

  it('deleting a department keeps its members without department and levels, drops its assignments, moves children up', async () => {
    const old = await departmentId('Old');
    const r = await ok(t, 'DELETE', 'organization:department', { organization: org, department: 'Old' }, owner);
    expect(r).toEqual({ organization: org, department: 'Old', id: null, success: true });
    expect(await membership(org, ben.user.id)).toMatchObject({ departmentId: null, permOrganization: 'member', permContent: 'none', permMembers: 'none' });
    expect(await held(ben.user.id)).toEqual(['Everyone']);
    expect(await t.db.prisma.competencyDepartment.count({ where: { departmentId: old } })).toBe(0);
    expect(await t.db.prisma.departmentLeader.count({ where: { departmentId: old } })).toBe(0);
    // Direct assignments are not the department's: they stay.
    expect(await t.db.prisma.competencyMember.count({ where: { competencyId: direct, userId: ann.user.id } })).toBe(1);
    expect((await listDepartments(org)).departments.map((d: any) => [d.department, d.parent, d.level])).toEqual([['New', null, 0], ['Sub', null, 0]]);
    expect((await ok(t, 'GET', 'organization:members', { organization: org }, owner)).members.find((m: any) => m.user === ben.user.id)).toEqual({
      user: ben.user.id,
      name: name(ben),
      department: null,
      permission: levels(),
    });
    await refused(t, () => t.rpc('DELETE', 'organization:department', { organization: org, department: 'Old' }, { as: owner }), 403, 'NOT_FOUND', 'department');
  });

  it('a deleted middle department hands its children to its parent', async () => {
    await createDepartment(t, owner, org, 'Middle', { parent: 'New' });
    await createDepartment(t, owner, org, 'Leaf', { parent: 'Middle' });
    await ok(t, 'DELETE', 'organization:department', { organization: org, department: 'Middle' }, owner);
    expect(await getDepartment(org, 'Leaf')).toMatchObject({ parent: 'New', level: 1 });
  });
});
