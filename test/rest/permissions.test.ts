import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/organizations.ts';
import { addRule, builtTypes, refused, seedContent, type BuiltType } from '../helpers/permissions.ts';
import { levelsOf, type Level } from '../../src/auth/permissions.ts';
import { seed } from '../helpers/seed.ts';

/**
 * GET / POST / DELETE `<prefix>:permission` and POST `<prefix>:transfer` of the contract for the ten
 * content types: the exact output records, where an effective level comes from (ownership, rules,
 * organization membership, instance administration), who may check, grant, revoke and transfer,
 * and that a refused call writes nothing.
 */

let t: TestApp;
/** Owns the content and the organization `org`; created `bob` and `carol`. */
let alice: Caller;
let bob: Caller;
let carol: Caller;
/** Knows nobody and belongs to nothing. */
let outsider: Caller;
let org: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await t.newCaller('alice');
  bob = await t.newCaller('bob', { createdBy: alice });
  carol = await t.newCaller('carol', { createdBy: alice });
  outsider = await t.newCaller('outsider');
  org = (await seed(t).as(alice).organization({ title: 'Org' })).id;
});
afterAll(async () => t?.close());

const check = (type: string, content: string, user: Caller | string, permission: string, as: Caller) =>
  t.rpc('GET', `${type}:permission`, { [type]: content, user: typeof user === 'string' ? user : user.user.id, permission }, { as });
const grant = (type: string, content: string, user: Caller, permission: string, as: Caller) =>
  t.rpc('POST', `${type}:permission`, { [type]: content, user: user.user.id, permission }, { as });
const revoke = (type: string, content: string, user: Caller, permission: string, as: Caller) =>
  t.rpc('DELETE', `${type}:permission`, { [type]: content, user: user.user.id, permission }, { as });
const transfer = (type: string, content: string, user: Caller, as: Caller) => t.rpc('POST', `${type}:transfer`, { [type]: content, user: user.user.id }, { as });

/** The effective level of `user` on the content, read through the check endpoint as the owner. */
async function levelOf(type: BuiltType, content: string, user: Caller, as = alice): Promise<Level | null> {
  let held: Level | null = null;
  for (const level of levelsOf(type)) {
    const r = await check(type, content, user, level, as);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    if (r.body.status.permission) held = level;
  }
  return held;
}

const rules = (contentId: string) => t.db.prisma.permissionRule.findMany({ where: { contentId }, orderBy: [{ userId: 'asc' }, { level: 'asc' }] });

describe('GET <prefix>:permission', () => {
  it('answers exactly {user, content{type, code, id}, status{permission, rule}} for every type with records', async () => {
    for (const type of builtTypes) {
      const { id, externalId } = await seedContent(t, type, alice, org);
      const r = await check(type, id, alice, 'admin', alice);
      expect(r.status, `${type}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(r.body).toStrictEqual({ user: alice.user.id, content: { type, code: id, id: externalId }, status: { permission: true, rule: false } });
      expect(Object.keys(r.body)).toEqual(['user', 'content', 'status']);
    }
    // Without an external id, content.id is null.
    const bare = { id: await seed(t).as(alice).content('course', { title: 'Bare' }) };
    expect((await check('course', bare.id, 'me', 'view', alice)).body).toStrictEqual({
      user: alice.user.id,
      content: { type: 'course', code: bare.id, id: null },
      status: { permission: true, rule: false },
    });
  });

  it('knows no exam yet: every exam is unknown, for all four operations', async () => {
    await refused(t, () => check('exam', 'exm_anything', alice, 'view', alice), 403, 'NOT_FOUND', 'exam');
    await refused(t, () => grant('exam', 'exm_anything', bob, 'view', alice), 403, 'NOT_FOUND', 'exam');
    await refused(t, () => revoke('exam', 'exm_anything', bob, 'view', alice), 403, 'NOT_FOUND', 'exam');
    await refused(t, () => transfer('exam', 'exm_anything', bob, t.admin), 403, 'NOT_FOUND', 'exam');
  });

  it('tells the effective level (permission) apart from an exact rule (rule)', async () => {
    const { id } = await seedContent(t, 'course', alice);
    await addRule(t, 'course', id, bob, 'control');
    const status = async (permission: string) => (await check('course', id, bob, permission, alice)).body.status;
    // A higher level includes the lower ones; the rule flag names only the exact level.
    expect(await status('view')).toEqual({ permission: true, rule: false });
    expect(await status('control')).toEqual({ permission: true, rule: true });
    expect(await status('modify')).toEqual({ permission: false, rule: false });
    // Several rules: the highest counts.
    await addRule(t, 'course', id, bob, 'view');
    expect(await status('view')).toEqual({ permission: true, rule: true });
    expect(await levelOf('course', id, bob)).toBe('control');
    // The owner holds admin without any rule; a user with nothing holds nothing.
    expect(await levelOf('course', id, alice)).toBe('admin');
    expect(await levelOf('course', id, carol)).toBeNull();
  });

  it('accepts the levels of the type: finances only on events', async () => {
    const event = (await seedContent(t, 'event', alice)).id;
    const course = (await seedContent(t, 'course', alice)).id;
    expect(levelsOf('event')).toEqual(['view', 'report', 'control', 'modify', 'finances', 'grant', 'admin']);
    await addRule(t, 'event', event, bob, 'finances');
    expect((await check('event', event, bob, 'finances', alice)).body.status).toEqual({ permission: true, rule: true });
    // finances lies between modify and grant.
    expect((await check('event', event, bob, 'modify', alice)).body.status.permission).toBe(true);
    expect((await check('event', event, bob, 'grant', alice)).body.status.permission).toBe(false);
    await refused(t, () => check('course', course, bob, 'finances', alice), 403, 'INVALID_ARGUMENT', 'permission');
    await refused(t, () => grant('course', course, bob, 'finances', alice), 403, 'INVALID_ARGUMENT', 'permission');
    await refused(t, () => check('course', course, bob, 'owner', alice), 403, 'INVALID_ARGUMENT', 'permission');
  });

  it('refuses missing and unknown arguments, naming them', async () => {
    const { id } = await seedContent(t, 'video', alice);
    await refused(t, () => t.rpc('GET', 'video:permission', { user: bob.user.id, permission: 'view' }, { as: alice }), 403, 'MISSING_ARGUMENT', 'video');
    await refused(t, () => t.rpc('GET', 'video:permission', { video: id, permission: 'view' }, { as: alice }), 403, 'MISSING_ARGUMENT', 'user');
    await refused(t, () => t.rpc('GET', 'video:permission', { video: id, user: bob.user.id }, { as: alice }), 403, 'MISSING_ARGUMENT', 'permission');
    await refused(t, () => check('video', 'vid_unknown', bob, 'view', alice), 403, 'NOT_FOUND', 'video');
    await refused(t, () => check('video', id, 'usr_unknown', 'view', alice), 403, 'NOT_FOUND', 'user');
    // The parameter is the type's own: another type's id is unknown.
    await refused(t, () => check('scorm', id, bob, 'view', alice), 403, 'NOT_FOUND', 'scorm');
  });

  it('counts organization membership: the content level, the owner and admins, and teachers on classes', async () => {
    const members = { viewer: await t.newCaller('m-viewer'), reporter: await t.newCaller('m-reporter'), teacher: await t.newCaller('m-teacher'), orgAdmin: await t.newCaller('m-admin') };
    const admin = seed(t).admin;
    await admin.addMembers(org, [members.viewer], { permissionContent: 'view' });
    await admin.addMembers(org, [members.reporter], { permissionContent: 'report', permissionOrganization: 'reporter' });
    await admin.addMembers(org, [members.teacher], { permissionOrganization: 'teacher' });
    await admin.addMembers(org, [members.orgAdmin], { permissionOrganization: 'admin' });
    const course = (await seedContent(t, 'course', bob, org)).id;
    const cls = (await seedContent(t, 'class', bob, org)).id;
    const personal = (await seedContent(t, 'course', bob)).id;
    expect(await levelOf('course', course, members.viewer, bob)).toBe('view');
    expect(await levelOf('course', course, members.reporter, bob)).toBe('report');
    // A teacher's role carries modify on the organization's classes only.
    expect(await levelOf('course', course, members.teacher, bob)).toBeNull();
    expect(await levelOf('class', cls, members.teacher, bob)).toBe('modify');
    // A reporter ranks above a teacher: modify on classes beats its content level.
    expect(await levelOf('class', cls, members.reporter, bob)).toBe('modify');
    expect(await levelOf('course', course, members.orgAdmin, bob)).toBe('admin');
    // The organization's owner holds admin on its content without being a member.
    expect(await levelOf('course', course, alice, bob)).toBe('admin');
    // Content outside the organization gets nothing from it.
    expect(await levelOf('course', personal, members.orgAdmin, t.admin)).toBeNull();
    // On the organization itself every member views it; its admins (and owner) hold admin, and
    // the content level is not a level on the organization.
    expect(await levelOf('organization', org, members.reporter)).toBe('view');
    expect(await levelOf('organization', org, members.viewer)).toBe('view');
    expect(await levelOf('organization', org, members.orgAdmin)).toBe('admin');
    // Instance administrators hold admin everywhere.
    expect((await check('course', personal, 'me', 'admin', t.admin)).body.status).toEqual({ permission: true, rule: false });
  });

  it('lets anyone with view ask about itself, asking about another user needs grant', async () => {
    const { id } = await seedContent(t, 'scorm', alice);
    await refused(t, () => check('scorm', id, 'me', 'view', bob), 403, 'NOT_FOUND');
    await addRule(t, 'scorm', id, bob, 'modify');
    expect((await check('scorm', id, 'me', 'admin', bob)).body).toStrictEqual({
      user: bob.user.id,
      content: expect.objectContaining({ type: 'scorm', code: id }),
      status: { permission: false, rule: false },
    });
    expect((await check('scorm', id, bob, 'modify', bob)).body.status).toEqual({ permission: true, rule: true });
    const frank = await t.newCaller('frank', { createdBy: bob });
    await refused(t, () => check('scorm', id, frank, 'view', bob), 403, 'PERMISSION_DENIED');
    await addRule(t, 'scorm', id, bob, 'grant');
    expect((await check('scorm', id, frank, 'view', bob)).body.status).toEqual({ permission: false, rule: false });
  });

  it('names only the caller, users it manages, and the owner and members of the content organization', async () => {
    const inOrg = (await seedContent(t, 'tag', alice, org)).id;
    const personal = (await seedContent(t, 'tag', alice)).id;
    const colleague = await t.newCaller('colleague');
    await seed(t).admin.addMembers(org, [colleague]);
    // alice did not create the outsider, and it belongs to no organization of hers: it is unknown to her.
    await refused(t, () => check('tag', personal, outsider, 'view', alice), 403, 'NOT_FOUND', 'user');
    await refused(t, () => grant('tag', personal, outsider, 'view', alice), 403, 'NOT_FOUND', 'user');
    await refused(t, () => transfer('tag', personal, outsider, alice), 403, 'NOT_FOUND', 'user');
    // A member of the content's organization may be named, on that organization's content only.
    expect((await check('tag', inOrg, colleague, 'view', alice)).status).toBe(200);
    await refused(t, () => check('tag', personal, colleague, 'view', alice), 403, 'NOT_FOUND', 'user');
    // Instance administrators name anyone.
    expect((await check('tag', personal, outsider, 'view', t.admin)).body.status).toEqual({ permission: false, rule: false });
  });
});

describe('POST and DELETE <prefix>:permission', () => {
  it('grants: creates the rule once, answers {user, content, success}, and audits it', async () => {
    for (const type of builtTypes) {
      const { id, externalId } = await seedContent(t, type, alice, org);
      const r = await grant(type, id, bob, 'report', alice);
      expect(r.status, `${type}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body).toStrictEqual({ user: bob.user.id, content: { type, code: id, id: externalId }, success: true });
      // Granting again changes nothing and succeeds.
      expect((await grant(type, id, bob, 'report', alice)).body.success).toBe(true);
      expect(await rules(id)).toEqual([
        { contentType: type, contentId: id, userId: bob.user.id, level: 'report', grantedById: alice.user.id, createdAt: expect.any(Date) },
      ]);
      expect((await check(type, id, bob, 'report', alice)).body.status).toEqual({ permission: true, rule: true });
      const audit = await t.db.prisma.auditEvent.findMany({ where: { subject: id, action: `${type}.permission.grant` } });
      // Granting a rule that exists writes nothing, so only the first grant is recorded.
      expect(audit.map((a) => a.actorId)).toEqual([alice.user.id]);
    }
  });

  it('revokes: success tells whether a rule was removed; others stay', async () => {
    const { id } = await seedContent(t, 'class', alice);
    await addRule(t, 'class', id, bob, 'view');
    await addRule(t, 'class', id, bob, 'control');
    const r = await revoke('class', id, bob, 'control', alice);
    expect(r.status).toBe(200);
    expect(r.body).toStrictEqual({ user: bob.user.id, content: { type: 'class', code: id, id: expect.any(String) }, success: true });
    expect((await rules(id)).map((x) => x.level)).toEqual(['view']);
    const before = await t.db.prisma.auditEvent.count();
    expect((await revoke('class', id, bob, 'control', alice)).body.success).toBe(false);
    // Revoking a rule that does not exist writes nothing.
    expect(await t.db.prisma.auditEvent.count()).toBe(before);
    expect((await revoke('class', id, bob, 'view', alice)).body.success).toBe(true);
    expect(await rules(id)).toEqual([]);
  });

  it('needs grant, and nobody grants or revokes above its own level; an admin grants admin', async () => {
    const { id } = await seedContent(t, 'quiz', alice);
    await addRule(t, 'quiz', id, bob, 'modify');
    await refused(t, () => grant('quiz', id, carol, 'view', bob), 403, 'PERMISSION_DENIED');
    await refused(t, () => revoke('quiz', id, bob, 'modify', bob), 403, 'PERMISSION_DENIED');
    await addRule(t, 'quiz', id, bob, 'grant');
    // alice created carol, and the Quiz set is in no organization: to bob she is unknown.
    await refused(t, () => grant('quiz', id, carol, 'view', bob), 403, 'NOT_FOUND', 'user');
    const dave = await t.newCaller('dave', { createdBy: bob });
    expect((await grant('quiz', id, dave, 'view', bob)).body.success).toBe(true);
    // Up to its own level, not above.
    expect((await grant('quiz', id, dave, 'grant', bob)).body.success).toBe(true);
    await refused(t, () => grant('quiz', id, dave, 'admin', bob), 403, 'PERMISSION_DENIED');
    await addRule(t, 'quiz', id, dave, 'admin');
    await refused(t, () => revoke('quiz', id, dave, 'admin', bob), 403, 'PERMISSION_DENIED');
    expect((await revoke('quiz', id, dave, 'grant', bob)).body.success).toBe(true);
    // An admin (here the owner) grants admin, and an admin revokes it.
    expect((await grant('quiz', id, bob, 'admin', alice)).body.success).toBe(true);
    expect((await revoke('quiz', id, dave, 'admin', bob)).body.success).toBe(true);
    expect((await rules(id)).filter((r) => r.userId === dave.user.id).map((r) => r.level)).toEqual(['view']);
  });

  it('accepts every argument encoding and the literal me', async () => {
    const { id } = await seedContent(t, 'video', alice);
    expect((await t.rpc('POST', 'video:permission', { video: id, user: bob.user.id, permission: 'view' }, { as: alice, encoding: 'json' })).body.success).toBe(true);
    expect((await t.rpc('POST', 'video:permission', { video: id, user: 'me', permission: 'admin' }, { as: alice, encoding: 'multipart' })).body).toStrictEqual({
      user: alice.user.id,
      content: { type: 'video', code: id, id: expect.any(String) },
      success: true,
    });
    expect((await t.rpc('DELETE', 'video:permission', { video: id, user: bob.user.id, permission: 'view' }, { as: alice, encoding: 'query' })).body.success).toBe(true);
  });
});

describe('POST <prefix>:transfer', () => {
  it('makes the user the owner; the previous owner keeps only its rules; organization, rules and tags stay', async () => {
    for (const type of builtTypes) {
      const { id, externalId } = await seedContent(t, type, alice, org);
      await addRule(t, type, id, carol, 'view');
      const r = await transfer(type, id, bob, alice);
      expect(r.status, `${type}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body).toStrictEqual({ user: bob.user.id, content: { type, code: id, id: externalId }, success: true });
      expect(await levelOf(type, id, bob, bob)).toBe('admin');
      expect((await rules(id)).map((x) => [x.userId, x.level])).toEqual([[carol.user.id, 'view']]);
      expect(await t.db.prisma.auditEvent.count({ where: { subject: id, action: `${type}.transfer`, actorId: alice.user.id } })).toBe(1);
    }
    // alice still owns `org`, so she keeps admin on its content; on personal content she keeps nothing.
    const personal = (await seedContent(t, 'course', alice)).id;
    expect((await transfer('course', personal, bob, alice)).status).toBe(200);
    expect(await t.db.prisma.course.findUniqueOrThrow({ where: { id: personal } })).toMatchObject({ ownerId: bob.user.id, organizationId: null });
    await refused(t, () => check('course', personal, 'me', 'view', alice), 403, 'NOT_FOUND');
  });

  it('needs admin: grant is not enough', async () => {
    const { id } = await seedContent(t, 'event', alice);
    await addRule(t, 'event', id, bob, 'grant');
    await refused(t, () => transfer('event', id, carol, bob), 403, 'PERMISSION_DENIED');
    await refused(t, () => transfer('event', id, carol, outsider), 403, 'NOT_FOUND');
    await refused(t, () => t.rpc('POST', 'event:transfer', { event: id }, { as: alice }), 403, 'MISSING_ARGUMENT', 'user');
    await addRule(t, 'event', id, bob, 'admin');
    const erin = await t.newCaller('erin', { createdBy: bob });
    expect((await transfer('event', id, erin, bob)).body.success).toBe(true);
  });

  it('gives a transferred integration a new secret, and keeps the integration making the call', async () => {
    const owned = await t.newCaller('int-owner', { createdBy: alice });
    // alice transfers the application `owned` calls with: its old credentials stop working.
    await addRule(t, 'integration', owned.integrationId, alice, 'admin');
    expect((await t.rpc('GET', 'user:me', {}, { as: owned })).status).toBe(200);
    expect((await transfer('integration', owned.integrationId, bob, alice)).body.success).toBe(true);
    const moved = await t.db.prisma.integration.findUniqueOrThrow({ where: { id: owned.integrationId } });
    expect(moved.ownerId).toBe(bob.user.id);
    expect(moved.appId).toBe(owned.app);
    expectError(await t.rpc('GET', 'user:me', {}, { as: owned }), 401, 'INVALID_CREDENTIALS');
    // The new owner reads the new secret.
    const keys = await t.rpc('GET', 'integration:keys', { integration: owned.integrationId }, { as: bob });
    expect(keys.body).toEqual({ app: owned.app, secret: expect.any(String) });
    expect(keys.body.secret).not.toBe(owned.secret);
    // The integration making the call is not transferred.
    await refused(t, () => transfer('integration', alice.integrationId, bob, alice), 403, 'PERMISSION_DENIED');
  });

  it('makes the new owner of an organization its manager; members keep their memberships', async () => {
    const o = (await seedContent(t, 'organization', alice)).id;
    await seed(t).as(alice).addMembers(o, [carol], { permissionContent: 'view' });
    await refused(t, () => t.rpc('PATCH', 'organization', { organization: o, title: 'Mine now' }, { as: bob }), 403, 'NOT_FOUND');
    expect((await transfer('organization', o, bob, alice)).body.success).toBe(true);
    expect((await t.rpc('PATCH', 'organization', { organization: o, title: 'Mine now' }, { as: bob })).status).toBe(200);
    expect((await t.rpc('GET', 'organization:members', { organization: o }, { as: bob })).body.members.map((m: { user: string }) => m.user)).toEqual([carol.user.id]);
    await refused(t, () => t.rpc('GET', 'organization', { organization: o }, { as: alice }), 403, 'NOT_FOUND');
  });
});

describe('the one policy in the existing services', () => {
  it('lets rules open organizations, classes and integrations: read with view, change with modify, delete with admin', async () => {
    const o = (await seedContent(t, 'organization', alice)).id;
    await addRule(t, 'organization', o, bob, 'view');
    expect((await t.rpc('GET', 'organization', { organization: o }, { as: bob })).body.organization).toBe(o);
    expect((await t.rpc('GET', 'organizations', {}, { as: bob })).body.organizations.map((x: { organization: string }) => x.organization)).toContain(o);
    await refused(t, () => t.rpc('PATCH', 'organization', { organization: o, title: 'No' }, { as: bob }), 403, 'PERMISSION_DENIED');
    await addRule(t, 'organization', o, bob, 'modify');
    expect((await t.rpc('PATCH', 'organization', { organization: o, title: 'Renamed' }, { as: bob })).status).toBe(200);
    await refused(t, () => t.rpc('DELETE', 'organization', { organization: o }, { as: bob }), 403, 'PERMISSION_DENIED');
    await addRule(t, 'organization', o, bob, 'admin');
    expect((await t.rpc('DELETE', 'organization', { organization: o }, { as: bob })).status).toBe(200);
    // Deleting content deletes its rules.
    expect(await rules(o)).toEqual([]);
  });

  it('keeps integration keys to the owner and administrators, whatever the level', async () => {
    const { id } = await seedContent(t, 'integration', alice);
    await addRule(t, 'integration', id, bob, 'admin');
    expect((await t.rpc('GET', 'integration', { integration: id }, { as: bob })).body.integration).toBe(id);
    expect((await t.rpc('PATCH', 'integration', { integration: id, active: 'false' }, { as: bob })).body.active).toBe(false);
    await refused(t, () => t.rpc('GET', 'integration:keys', { integration: id }, { as: bob }), 403, 'PERMISSION_DENIED');
    await refused(t, () => t.rpc('POST', 'integration:keys', { integration: id }, { as: bob }), 403, 'PERMISSION_DENIED');
    // Moving it to another organization stays with the owner and administrators too.
    await refused(t, () => t.rpc('PATCH', 'integration', { integration: id, organization: org }, { as: bob }), 403, 'PERMISSION_DENIED');
    expect((await t.rpc('DELETE', 'integration', { integration: id }, { as: bob })).status).toBe(200);
    expect(await rules(id)).toEqual([]);
  });

  it('keeps class members, grading and deleting at their levels', async () => {
    const { id } = await seedContent(t, 'class', alice);
    await addRule(t, 'class', id, bob, 'report');
    await seed(t).as(alice).classOf(id).members([carol]);
    // report: sees every member, manages none.
    expect((await t.rpc('GET', 'class:members', { class: id }, { as: bob })).body.members.map((m: { user: string }) => m.user)).toEqual([carol.user.id]);
    await refused(t, () => t.rpc('POST', 'class:members', { class: id, users: bob.user.id }, { as: bob }), 403, 'PERMISSION_DENIED');
    await addRule(t, 'class', id, bob, 'control');
    expect((await t.rpc('POST', 'class:members', { class: id, users: bob.user.id }, { as: bob })).status).toBe(200);
    // A plain view holder sees only itself among the members.
    const viewer = await t.newCaller('class-viewer', { createdBy: alice });
    await addRule(t, 'class', id, viewer, 'view');
    expect((await t.rpc('GET', 'class:members', { class: id }, { as: viewer })).body.members).toEqual([]);
  });
});
