import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { addMembers, createDepartment, createOrganization, expectError, levels, ok, people, refused } from '../helpers/organizations.ts';

/**
 * The organization and membership endpoints of the contract through HTTP: organization,
 * organizations, organization:members, organizations:members and user:organizations.
 */

let t: TestApp;
/** Creates the organizations of most tests, and so owns them. */
let owner: Caller;
/** Users created by owner, so owner may add them; each has its own application to act. */
let ann: Caller;
let ben: Caller;
let cat: Caller;
let dan: Caller;
/** Knows nothing of owner's organizations. */
let outsider: Caller;

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, outsider, ann, ben, cat, dan } = await people(t, ['ann', 'ben', 'cat', 'dan']));
});
afterAll(async () => t?.close());

const name = (c: Caller) => `${c.user.username} Tester`;
const membership = (organization: string, userId: string) =>
  t.db.prisma.organizationMember.findUnique({ where: { organizationId_userId: { organizationId: organization, userId } } });

describe('POST organization', () => {
  it('creates an organization owned by the caller and returns its identification string', async () => {
    const r = await t.rpc('POST', 'organization', { title: 'Acme' }, { as: owner });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ organization: expect.stringMatching(/^org_[0-9a-z]+$/) });
    const row = await t.db.prisma.organization.findUniqueOrThrow({ where: { id: r.body.organization } });
    expect(row).toMatchObject({ title: 'Acme', ownerId: owner.user.id, description: null, domain: null, website: null, email: null, phone: null, customFields: {} });
    // The creator manages it without being a member.
    expect(await t.db.prisma.organizationMember.count({ where: { organizationId: row.id } })).toBe(0);
  });

  it('stores description, website, email and phone', async () => {
    const id = await createOrganization(t, owner, { title: 'Full', description: 'All fields', website: 'https://full.example.com/about', email: 'info@full.example.com', phone: '+1 5550100' });
    const row = await t.db.prisma.organization.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ description: 'All fields', website: 'https://full.example.com/about', email: 'info@full.example.com', phone: '+1 5550100' });
  });

  it('refuses a missing or invalid argument with 403 naming it, writing nothing', async () => {
    await refused(t, () => t.rpc('POST', 'organization', {}, { as: owner }), 403, 'MISSING_ARGUMENT', 'title');
    await refused(t, () => t.rpc('POST', 'organization', { title: '   ' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'title');
    await refused(t, () => t.rpc('POST', 'organization', { title: 'x'.repeat(256) }, { as: owner }), 403, 'INVALID_ARGUMENT', 'title');
    await refused(t, () => t.rpc('POST', 'organization', { title: 'Bad', website: 'full.example.com' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'website');
    await refused(t, () => t.rpc('POST', 'organization', { title: 'Bad', email: 'not-an-email' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'email');
    await refused(t, () => t.rpc('POST', 'organization', { title: 'Bad', phone: '5550100' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'phone');
  });

  it('needs the privileged fields feature for domain (406 when off), and takes an FQDN without www', async () => {
    await refused(t, () => t.rpc('POST', 'organization', { title: 'Domain', domain: 'acme.example.com' }, { as: owner }), 406, 'FEATURE_DISABLED');
    await t.db.prisma.user.update({ where: { id: owner.user.id }, data: { features: { privileged_fields: true } } });
    try {
      await refused(t, () => t.rpc('POST', 'organization', { title: 'Domain', domain: 'www.acme.example.com' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'domain');
      await refused(t, () => t.rpc('POST', 'organization', { title: 'Domain', domain: 'localhost' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'domain');
      await refused(t, () => t.rpc('POST', 'organization', { title: 'Domain', domain: 'https://acme.example.com' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'domain');
      const id = await createOrganization(t, owner, { title: 'Domain', domain: 'Acme.Example.COM' });
      expect((await t.db.prisma.organization.findUniqueOrThrow({ where: { id } })).domain).toBe('acme.example.com');
    } finally {
      await t.db.prisma.user.update({ where: { id: owner.user.id }, data: { features: {} } });
    }
  });

  it('takes custom_{field} only when configured for organizations', async () => {
    // No service configures custom fields: they are set up in the database.
    await t.db.prisma.customField.create({ data: { id: 'cfd_orgregion', entity: 'organization', key: 'region', label: 'Region' } });
    await t.db.prisma.customField.create({ data: { id: 'cfd_userdept', entity: 'user', key: 'badge', label: 'Badge' } });
    await refused(t, () => t.rpc('POST', 'organization', { title: 'Custom', custom_color: 'red' }, { as: owner }), 403, 'UNKNOWN_FIELD', 'custom_color');
    // A field configured for users is not one of organizations.
    await refused(t, () => t.rpc('POST', 'organization', { title: 'Custom', custom_badge: '7' }, { as: owner }), 403, 'UNKNOWN_FIELD', 'custom_badge');
    const id = await createOrganization(t, owner, { title: 'Custom', custom_region: 'North' });
    expect((await t.db.prisma.organization.findUniqueOrThrow({ where: { id } })).customFields).toEqual({ region: 'North' });
  });
});

describe('GET organization and GET organizations', () => {
  let acme: string;
  let beta: string;
  beforeAll(async () => {
    acme = await createOrganization(t, owner, { title: 'Alpha Corp', description: 'The first' });
    beta = await createOrganization(t, owner, { title: 'Beta Corp' });
    await addMembers(t, owner, beta, [ann.user.id]);
  });

  it('returns organization, id, title, and description only when set', async () => {
    expect(await ok(t, 'GET', 'organization', { organization: acme }, owner)).toEqual({ organization: acme, id: null, title: 'Alpha Corp', description: 'The first' });
    const plain = await ok(t, 'GET', 'organization', { organization: beta }, ann);
    expect(plain).toEqual({ organization: beta, id: null, title: 'Beta Corp' });
    expect('description' in plain).toBe(false);
  });

  it('lets the owner, members and administrators read it, and nobody else', async () => {
    expect((await t.rpc('GET', 'organization', { organization: acme })).status).toBe(200);
    expectError(await t.rpc('GET', 'organization', { organization: acme }, { as: ann }), 403, 'NOT_FOUND');
    expectError(await t.rpc('GET', 'organization', { organization: beta }, { as: outsider }), 403, 'NOT_FOUND');
    expectError(await t.rpc('GET', 'organization', { organization: 'org_unknown000000' }, { as: owner }), 403, 'NOT_FOUND', 'organization');
    expectError(await t.rpc('GET', 'organization', {}, { as: owner }), 403, 'MISSING_ARGUMENT', 'organization');
  });

  it('lists owned organizations and those the caller is a member of as {organization, id, title}, by title', async () => {
    const own = await ok(t, 'GET', 'organizations', { limit: '100' }, owner);
    expect(Object.keys(own)).toEqual(['organizations']);
    expect(own.organizations).toContainEqual({ organization: acme, id: null, title: 'Alpha Corp' });
    const titles = own.organizations.map((o: any) => o.title);
    expect(titles).toEqual([...titles].sort());
    expect(await ok(t, 'GET', 'organizations', {}, ann)).toEqual({ organizations: [{ organization: beta, id: null, title: 'Beta Corp' }] });
    expect(await ok(t, 'GET', 'organizations', {}, outsider)).toEqual({ organizations: [] });
    // Administrators see every organization.
    const all = await ok(t, 'GET', 'organizations', { search: 'corp' }, t.admin);
    expect(all.organizations.map((o: any) => o.organization)).toEqual([acme, beta]);
  });

  it('pages with limit (default 16) and page, and searches titles ignoring page', async () => {
    const pager = await t.newCaller('pager');
    const ids: string[] = [];
    for (let i = 0; i < 18; i++) ids.push(await createOrganization(t, pager, { title: `Paged ${String(i).padStart(2, '0')}` }));
    const first = await ok(t, 'GET', 'organizations', {}, pager);
    expect(first.organizations.map((o: any) => o.organization)).toEqual(ids.slice(0, 16));
    expect((await ok(t, 'GET', 'organizations', { page: '2' }, pager)).organizations.map((o: any) => o.organization)).toEqual(ids.slice(16));
    expect((await ok(t, 'GET', 'organizations', { limit: '5', page: '2' }, pager)).organizations.map((o: any) => o.organization)).toEqual(ids.slice(5, 10));
    expect((await ok(t, 'GET', 'organizations', { search: 'paged 1', page: '3' }, pager)).organizations.map((o: any) => o.organization)).toEqual(ids.slice(10));
    expectError(await t.rpc('GET', 'organizations', { limit: '0' }, { as: pager }), 403, 'INVALID_ARGUMENT', 'limit');
  });
});

describe('PATCH and DELETE organization', () => {
  it('changes the title and custom fields (an empty value removes one); only given fields change', async () => {
    const id = await createOrganization(t, owner, { title: 'Before', description: 'Kept', custom_region: 'South' });
    const r = await ok(t, 'PATCH', 'organization', { organization: id, title: 'After' }, owner);
    expect(r).toEqual({ organization: id, id: null, title: 'After', description: 'Kept', success: true });
    await ok(t, 'PATCH', 'organization', { organization: id, custom_region: 'East' }, owner);
    expect((await t.db.prisma.organization.findUniqueOrThrow({ where: { id } })).customFields).toEqual({ region: 'East' });
    await ok(t, 'PATCH', 'organization', { organization: id, custom_region: '' }, owner);
    const row = await t.db.prisma.organization.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ title: 'After', description: 'Kept', customFields: {} });
  });

  it('refuses a title outside 1-255 characters and unknown custom fields, changing nothing', async () => {
    const id = await createOrganization(t, owner, { title: 'Strict' });
    await refused(t, () => t.rpc('PATCH', 'organization', { organization: id, title: '' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'title');
    await refused(t, () => t.rpc('PATCH', 'organization', { organization: id, title: 'y'.repeat(256) }, { as: owner }), 403, 'INVALID_ARGUMENT', 'title');
    await refused(t, () => t.rpc('PATCH', 'organization', { organization: id, custom_nothing: 'x' }, { as: owner }), 403, 'UNKNOWN_FIELD', 'custom_nothing');
    await refused(t, () => t.rpc('PATCH', 'organization', { organization: id, domain: 'strict.example.com' }, { as: owner }), 406, 'FEATURE_DISABLED');
  });

  it('lets only managers (administrators, the owner, organization admins) change or delete it', async () => {
    const id = await createOrganization(t, owner, { title: 'Guarded' });
    await addMembers(t, owner, id, [ann.user.id], { permission_organization: 'supervisor', permission_content: 'admin', permission_members: 'organization' });
    await addMembers(t, owner, id, [ben.user.id], { permission_organization: 'admin' });
    await refused(t, () => t.rpc('PATCH', 'organization', { organization: id, title: 'Mine' }, { as: ann }), 403, 'PERMISSION_DENIED');
    await refused(t, () => t.rpc('PATCH', 'organization', { organization: id, title: 'Mine' }, { as: outsider }), 403, 'NOT_FOUND');
    await refused(t, () => t.rpc('DELETE', 'organization', { organization: id }, { as: ann }), 403, 'PERMISSION_DENIED');
    expect((await ok(t, 'PATCH', 'organization', { organization: id, title: 'By admin member' }, ben)).title).toBe('By admin member');
    expect((await ok(t, 'PATCH', 'organization', { organization: id, title: 'By administrator' }, t.admin)).title).toBe('By administrator');
    expect(await ok(t, 'DELETE', 'organization', { organization: id }, ben)).toEqual({ organization: id, success: true });
    expect(await t.db.prisma.organization.findUnique({ where: { id } })).toBeNull();
    expect(await t.db.prisma.organizationMember.count({ where: { organizationId: id } })).toBe(0);
    expectError(await t.rpc('GET', 'organization', { organization: id }, { as: owner }), 403, 'NOT_FOUND', 'organization');
  });
});

describe('organization:members', () => {
  let org: string;
  beforeAll(async () => {
    org = await createOrganization(t, owner, { title: 'Members Inc' });
  });

  it('adds members with the default levels member/none/none and lists them as {user, name, department, permission}', async () => {
    const r = await addMembers(t, owner, org, [ann.user.id, ben.user.id]);
    const expected = [
      { user: ann.user.id, name: name(ann), department: null, permission: levels() },
      { user: ben.user.id, name: name(ben), department: null, permission: levels() },
    ];
    expect(r).toEqual({ organization: org, success: true, members: expected });
    // Exactly members: no top-level organization (strict clients reject fields the contract does not name).
    const listed = await ok(t, 'GET', 'organization:members', { organization: org }, owner);
    expect(listed).toEqual({ members: expected });
    expect(Object.keys(listed)).toEqual(['members']);
  });

  it('updates an existing membership instead of adding a second one; a POST states the whole membership', async () => {
    await addMembers(t, owner, org, [cat.user.id], { permission_organization: 'teacher', permission_content: 'view' });
    await addMembers(t, owner, org, [cat.user.id], { permission_organization: 'reporter', permission_members: 'department' });
    expect(await t.db.prisma.organizationMember.count({ where: { organizationId: org, userId: cat.user.id } })).toBe(1);
    // content falls back to its default: the call did not give it.
    expect(await membership(org, cat.user.id)).toMatchObject({ permOrganization: 'reporter', permContent: 'none', permMembers: 'department', departmentId: null });
  });

  it('accepts every documented level and refuses others naming the argument', async () => {
    for (const value of ['member', 'teacher', 'reporter', 'supervisor', 'admin']) {
      expect((await addMembers(t, owner, org, [dan.user.id], { permission_organization: value })).members[0].permission.organization).toBe(value);
    }
    for (const value of ['none', 'view', 'report', 'control', 'modify', 'grant', 'admin']) {
      expect((await addMembers(t, owner, org, [dan.user.id], { permission_content: value })).members[0].permission.content).toBe(value);
    }
    for (const value of ['none', 'department', 'organization']) {
      expect((await addMembers(t, owner, org, [dan.user.id], { permission_members: value })).members[0].permission.members).toBe(value);
    }
    const users = dan.user.id;
    await refused(t, () => t.rpc('POST', 'organization:members', { organization: org, users, permission_organization: 'owner' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'permission_organization');
    await refused(t, () => t.rpc('POST', 'organization:members', { organization: org, users, permission_content: 'edit' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'permission_content');
    await refused(t, () => t.rpc('POST', 'organization:members', { organization: org, users, permission_members: 'all' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'permission_members');
    await refused(t, () => t.rpc('POST', 'organization:members', { organization: org, users, notify: 'maybe' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'notify');
    await refused(t, () => t.rpc('POST', 'organization:members', { organization: org }, { as: owner }), 403, 'MISSING_ARGUMENT', 'users');
    await refused(t, () => t.rpc('POST', 'organization:members', { organization: org, users: `${users},usr_missing0000000` }, { as: owner }), 403, 'NOT_FOUND', 'users');
  });

  it('gives members of a department its levels, and refuses department combined with permission_ fields', async () => {
    await createDepartment(t, owner, org, 'Sales', { permission_organization: 'teacher', permission_content: 'report', permission_members: 'department' });
    const r = await addMembers(t, owner, org, [ann.user.id], { department: 'Sales' });
    expect(r.members).toEqual([{ user: ann.user.id, name: name(ann), department: 'Sales', permission: levels('teacher', 'report', 'department') }]);
    await refused(t, () => t.rpc('POST', 'organization:members', { organization: org, users: ben.user.id, department: 'Sales', permission_content: 'view' }, { as: owner }), 403, 'ARGUMENT_CONFLICT', 'department');
    await refused(t, () => t.rpc('POST', 'organization:members', { organization: org, users: ben.user.id, department: 'Nowhere' }, { as: owner }), 403, 'NOT_FOUND', 'department');
    // Without a department the member leaves it and takes the given levels.
    const out = await addMembers(t, owner, org, [ann.user.id]);
    expect(out.members[0]).toMatchObject({ department: null, permission: levels() });
  });

  it('lets only managers and supervisors write memberships, never above their own levels', async () => {
    const o = await createOrganization(t, owner, { title: 'Supervised' });
    await addMembers(t, owner, o, [ann.user.id], { permission_organization: 'supervisor', permission_content: 'view', permission_members: 'organization' });
    await addMembers(t, owner, o, [ben.user.id]);
    await addMembers(t, owner, o, [dan.user.id], { permission_organization: 'admin' });
    // A plain member manages nobody; an outsider cannot even see the organization.
    await refused(t, () => t.rpc('POST', 'organization:members', { organization: o, users: cat.user.id }, { as: ben }), 403, 'PERMISSION_DENIED');
    await refused(t, () => t.rpc('POST', 'organization:members', { organization: o, users: cat.user.id }, { as: outsider }), 403, 'NOT_FOUND');
    await refused(t, () => t.rpc('DELETE', 'organization:members', { organization: o, users: ann.user.id }, { as: ben }), 403, 'PERMISSION_DENIED');
    // A supervisor adds users it may read, up to its own levels.
    const added = await addMembers(t, ann, o, [ann.user.id, ben.user.id], { permission_organization: 'teacher', permission_content: 'view' });
    expect(added.members.map((m: any) => m.permission)).toEqual([levels('teacher', 'view'), levels('teacher', 'view')]);
    await addMembers(t, owner, o, [ann.user.id], { permission_organization: 'supervisor', permission_content: 'view', permission_members: 'organization' });
    await refused(t, () => t.rpc('POST', 'organization:members', { organization: o, users: ben.user.id, permission_organization: 'admin' }, { as: ann }), 403, 'PERMISSION_DENIED');
    await refused(t, () => t.rpc('POST', 'organization:members', { organization: o, users: ben.user.id, permission_content: 'modify' }, { as: ann }), 403, 'PERMISSION_DENIED');
    // Nor may it change or remove a member above it, or add a user it does not manage.
    await refused(t, () => t.rpc('POST', 'organization:members', { organization: o, users: dan.user.id }, { as: ann }), 403, 'PERMISSION_DENIED');
    await refused(t, () => t.rpc('DELETE', 'organization:members', { organization: o, users: dan.user.id }, { as: ann }), 403, 'PERMISSION_DENIED');
    // A user it may neither read nor see as a member is unknown to it.
    await refused(t, () => t.rpc('POST', 'organization:members', { organization: o, users: outsider.user.id }, { as: ann }), 403, 'NOT_FOUND', 'users');
    // The owner adds anyone it may read; an organization admin changes any member.
    await addMembers(t, dan, o, [ben.user.id], { permission_organization: 'reporter' });
    expect(await membership(o, ben.user.id)).toMatchObject({ permOrganization: 'reporter' });
  });

  it('shows each caller only the members it may see', async () => {
    const o = await createOrganization(t, owner, { title: 'Visibility' });
    await createDepartment(t, owner, o, 'Top', { permission_members: 'department' });
    await createDepartment(t, owner, o, 'Below', { parent: 'Top' });
    await createDepartment(t, owner, o, 'Aside');
    await addMembers(t, owner, o, [ann.user.id], { department: 'Top' });
    await addMembers(t, owner, o, [ben.user.id], { department: 'Below' });
    await addMembers(t, owner, o, [cat.user.id], { department: 'Aside' });
    await addMembers(t, owner, o, [dan.user.id], { permission_members: 'organization' });
    const seen = async (as: Caller) => (await ok(t, 'GET', 'organization:members', { organization: o }, as)).members.map((m: any) => m.user);
    const everyone = [ann, ben, cat, dan].map((c) => c.user.id);
    expect(await seen(owner)).toEqual(everyone);
    expect(await seen(t.admin)).toEqual(everyone);
    expect(await seen(dan)).toEqual(everyone);
    // `department`: its own department and those below it.
    expect(await seen(ann)).toEqual([ann.user.id, ben.user.id]);
    // `none`: itself only.
    expect(await seen(ben)).toEqual([ben.user.id]);
    // A leader sees the departments it leads and those below them.
    await ok(t, 'PATCH', 'organization:department', { organization: o, department: 'Top', leaders: cat.user.id }, owner);
    expect(await seen(cat)).toEqual([ann.user.id, ben.user.id, cat.user.id]);
    expectError(await t.rpc('GET', 'organization:members', { organization: o }, { as: outsider }), 403, 'NOT_FOUND');
  });

  it('with notify=true enqueues one message per added or updated member: email, or SMS with only a phone', async () => {
    const o = await createOrganization(t, owner, { title: 'Notified' });
    const texter = await t.newCaller('texter', { createdBy: owner });
    await t.db.prisma.user.update({ where: { id: texter.user.id }, data: { email: '', phone: '+44 7700900123' } });
    await addMembers(t, owner, o, [ann.user.id, texter.user.id], { notify: 'true' });
    await addMembers(t, owner, o, [ann.user.id], { notify: 'true', permission_organization: 'teacher' });
    await addMembers(t, owner, o, [ben.user.id]);
    const sent = await t.db.prisma.notification.findMany({ where: { body: { contains: o } } });
    const of = (c: Caller) => sent.filter((n) => n.userId === c.user.id).map((n) => [n.channel, n.recipient, n.subject, n.status]).sort();
    expect(sent).toHaveLength(3);
    expect(of(ann)).toEqual([
      ['email', ann.user.email, 'You are now a member of Notified', 'pending'],
      ['email', ann.user.email, 'Your membership of Notified was updated', 'pending'],
    ]);
    expect(of(texter)).toEqual([['sms', '+44 7700900123', 'You are now a member of Notified', 'pending']]);
    expect(of(ben)).toEqual([]);
    expect(sent[0]!.body).toContain(`${BASE_URL}/organizations/${o}`);
  });

  it('removes members (users who are not members are skipped) with their department leadership', async () => {
    const o = await createOrganization(t, owner, { title: 'Leaving' });
    await addMembers(t, owner, o, [ann.user.id, ben.user.id]);
    await createDepartment(t, owner, o, 'Led', { leaders: ann.user.id });
    const r = await ok(t, 'DELETE', 'organization:members', { organization: o, users: `${ann.user.id},${cat.user.id}` }, owner);
    expect(r).toEqual({ organization: o, success: true, users: [ann.user.id] });
    expect((await ok(t, 'GET', 'organization:members', { organization: o }, owner)).members.map((m: any) => m.user)).toEqual([ben.user.id]);
    expect(await t.db.prisma.departmentLeader.count({ where: { userId: ann.user.id, department: { organizationId: o } } })).toBe(0);
    await refused(t, () => t.rpc('DELETE', 'organization:members', { organization: o, users: 'usr_missing0000000' }, { as: owner }), 403, 'NOT_FOUND', 'users');
    await refused(t, () => t.rpc('DELETE', 'organization:members', { organization: o }, { as: owner }), 403, 'MISSING_ARGUMENT', 'users');
  });
});

describe('POST organizations:members', () => {
  it('adds users to several organizations: the department where it exists, the permission_ fields elsewhere', async () => {
    const withSales = await createOrganization(t, owner, { title: 'Many A' });
    const without = await createOrganization(t, owner, { title: 'Many B' });
    await createDepartment(t, owner, withSales, 'Sales', { permission_organization: 'reporter' });
    const r = await ok(t, 'POST', 'organizations:members', {
      organizations: `${withSales},${without}`,
      users: `${ann.user.id},${ben.user.id}`,
      department: 'Sales',
      permission_content: 'view',
    }, owner);
    expect(r).toEqual({
      success: true,
      memberships: [
        { organization: withSales, user: ann.user.id, name: name(ann), department: 'Sales', permission: levels('reporter') },
        { organization: withSales, user: ben.user.id, name: name(ben), department: 'Sales', permission: levels('reporter') },
        { organization: without, user: ann.user.id, name: name(ann), department: null, permission: levels('member', 'view') },
        { organization: without, user: ben.user.id, name: name(ben), department: null, permission: levels('member', 'view') },
      ],
    });
    // Again: updated, not duplicated.
    await ok(t, 'POST', 'organizations:members', { organizations: `${withSales},${without}`, users: ann.user.id }, owner);
    expect(await t.db.prisma.organizationMember.count({ where: { userId: ann.user.id, organizationId: { in: [withSales, without] } } })).toBe(2);
    expect(await membership(withSales, ann.user.id)).toMatchObject({ departmentId: null, permOrganization: 'member' });
  });

  it('refuses the whole call when one organization may not be managed', async () => {
    const mine = await createOrganization(t, owner, { title: 'Mine' });
    const theirs = await createOrganization(t, outsider, { title: 'Theirs' });
    await refused(t, () => t.rpc('POST', 'organizations:members', { organizations: `${mine},${theirs}`, users: ann.user.id }, { as: owner }), 403, 'NOT_FOUND');
    await refused(t, () => t.rpc('POST', 'organizations:members', { organizations: `${mine},org_missing0000000`, users: ann.user.id }, { as: owner }), 403, 'NOT_FOUND', 'organizations');
    await refused(t, () => t.rpc('POST', 'organizations:members', { users: ann.user.id }, { as: owner }), 403, 'MISSING_ARGUMENT', 'organizations');
  });
});

describe('user:organizations', () => {
  let one: string;
  let two: string;
  /** A user in no organization yet. */
  let eve: Caller;
  beforeAll(async () => {
    eve = await t.newCaller('eve', { createdBy: owner });
    one = await createOrganization(t, owner, { title: 'User Org One' });
    two = await createOrganization(t, owner, { title: 'User Org Two' });
    await createDepartment(t, owner, one, 'Support', { permission_content: 'control' });
    await createDepartment(t, owner, two, 'Support', { permission_content: 'view' });
  });

  it('adds a user to organizations and lists them with link, department and permission', async () => {
    const r = await ok(t, 'POST', 'user:organizations', { user: eve.user.id, organizations: `${two},${one}`, department: 'Support', notify: 'true' }, owner);
    const expected = [
      { organization: one, id: null, title: 'User Org One', link: `${BASE_URL}/organizations/${one}`, department: 'Support', permission: levels('member', 'control') },
      { organization: two, id: null, title: 'User Org Two', link: `${BASE_URL}/organizations/${two}`, department: 'Support', permission: levels('member', 'view') },
    ];
    expect(r).toEqual({ user: eve.user.id, success: true, organizations: expected });
    // Exactly organizations: no top-level user.
    const listed = await ok(t, 'GET', 'user:organizations', { user: eve.user.id }, owner);
    expect(listed).toEqual({ organizations: expected });
    expect(Object.keys(listed)).toEqual(['organizations']);
    // The user itself reads its own list (`me`); notify sent one message per organization.
    expect((await ok(t, 'GET', 'user:organizations', { user: 'me' }, eve)).organizations.map((o: any) => o.organization)).toContain(one);
    expect(await t.db.prisma.notification.count({ where: { userId: eve.user.id } })).toBeGreaterThanOrEqual(2);
  });

  it('follows the rules of organization:members: defaults, no department with permission_ fields', async () => {
    await refused(t, () => t.rpc('POST', 'user:organizations', { user: dan.user.id, organizations: one, department: 'Support', permission_organization: 'teacher' }, { as: owner }), 403, 'ARGUMENT_CONFLICT', 'department');
    await refused(t, () => t.rpc('POST', 'user:organizations', { user: dan.user.id, organizations: one, department: 'Ghost' }, { as: owner }), 403, 'NOT_FOUND', 'department');
    await refused(t, () => t.rpc('POST', 'user:organizations', { user: 'usr_missing0000000', organizations: one }, { as: owner }), 403, 'NOT_FOUND', 'user');
    await refused(t, () => t.rpc('POST', 'user:organizations', { user: dan.user.id, organizations: one }, { as: outsider }), 403, 'NOT_FOUND');
    const r = await ok(t, 'POST', 'user:organizations', { user: dan.user.id, organizations: one }, owner);
    expect(r.organizations).toEqual([expect.objectContaining({ organization: one, department: null, permission: levels() })]);
  });

  it('removes the user from organizations', async () => {
    expect(await ok(t, 'DELETE', 'user:organizations', { user: dan.user.id, organizations: `${one},${two}` }, owner)).toEqual({ user: dan.user.id, success: true, organizations: [one] });
    expect(await ok(t, 'GET', 'user:organizations', { user: dan.user.id }, owner)).toMatchObject({ organizations: expect.not.arrayContaining([expect.objectContaining({ organization: one })]) });
    await refused(t, () => t.rpc('DELETE', 'user:organizations', { user: eve.user.id, organizations: one }, { as: outsider }), 403, 'NOT_FOUND');
  });

  it('shows a user only to itself, its manager and administrators', async () => {
    // To anyone else the user is unknown, as a user of nothing.
    expectError(await t.rpc('GET', 'user:organizations', { user: eve.user.id }, { as: outsider }), 403, 'NOT_FOUND', 'user');
    expectError(await t.rpc('GET', 'user:organizations', { user: 'usr_missing0000000' }, { as: owner }), 403, 'NOT_FOUND', 'user');
    expect((await t.rpc('GET', 'user:organizations', { user: eve.user.id })).status).toBe(200);
  });
});
