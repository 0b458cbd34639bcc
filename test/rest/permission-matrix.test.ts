import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { send } from '../graphql/client.ts';
import { addRule, builtTypes, seedContent, snapshot, type BuiltType } from '../helpers/permissions.ts';
import { seed, type ClassHandle } from '../helpers/seed.ts';
import { levelsOf, type Level } from '../../src/auth/permissions.ts';
import {
  CourseDocument,
  CoursesDocument,
  EventDocument,
  EventsDocument,
  ScormDocument,
  ScormsDocument,
  UpdateClassDocument,
  UpdateCourseDocument,
  UpdateEventDocument,
  UpdateScormDocument,
  UpdateTagDocument,
  UpdateVideoDocument,
  VideoDocument,
  VideosDocument,
} from '../../schema/operations/generated.ts';

/**
 * The permission matrix through HTTP: for each content type with records and each level, what a second user,
 * calling through its own application, can and cannot do once it holds that level, by an explicit
 * rule or by the content level of its organization membership, as the tables below state it. A
 * user of another organization gets 403 for every read and write, and lists hold only what the
 * caller may view. Every refused call is a 403 PERMISSION_DENIED that writes nothing. Then the
 * actions no content level decides, for an ordinary member, a manager and an administrator.
 */

let t: TestApp;
/** Owns the content and `org`. */
let owner: Caller;
/** Holds a level through a rule. Created by `owner`, so the owner may name it. */
let second: Caller;
/** A member of `org` whose content level varies. */
let staff: Caller;
/** A member of `org` with no level: the user the probes grant to, check and transfer to. */
let third: Caller;
/** Owner and admin of another organization, with every level there. */
let foreigner: Caller;
let org: string;
let otherOrg: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.newCaller('owner');
  second = await t.newCaller('second', { createdBy: owner });
  staff = await t.newCaller('staff');
  third = await t.newCaller('third');
  foreigner = await t.newCaller('foreigner');
  org = (await seed(t).as(owner).organization({ title: 'Home' })).id;
  otherOrg = (await seed(t).as(foreigner).organization({ title: 'Abroad' })).id;
  // The administrator adds them: a new member is a user the one adding it sees.
  await seed(t).admin.addMembers(org, [staff, third]);
  await seed(t).admin.addMembers(otherOrg, [foreigner], { permissionOrganization: 'admin', permissionContent: 'admin', permissionMembers: 'organization' });
});
afterAll(async () => t?.close());

interface Outcome {
  ok: boolean;
  code: string | null | undefined;
  detail: string;
}

async function rest(method: string, endpoint: string, args: Record<string, unknown>, as: Caller): Promise<Outcome> {
  const r = await t.rpc(method, endpoint, args, { as });
  return { ok: r.status === 200, code: r.status === 403 ? r.code : `HTTP ${r.status}`, detail: `${r.status} ${JSON.stringify(r.body)}` };
}

async function graphql(document: Parameters<typeof send>[1], variables: Record<string, unknown>, as: Caller): Promise<Outcome> {
  const r = await send(t, document, variables as never, { as });
  return { ok: !r.errors && r.status === 200, code: r.errors?.[0]?.extensions?.code, detail: JSON.stringify(r.errors ?? r.data) };
}

/** One thing a holder may try on a piece of content; the tables below say who may. */
interface Probe {
  name: string;
  run: (as: Caller, id: string) => Promise<Outcome>;
}

const minimal = {
  course: { get: CourseDocument, update: UpdateCourseDocument, list: CoursesDocument },
  event: { get: EventDocument, update: UpdateEventDocument, list: EventsDocument },
  scorm: { get: ScormDocument, update: UpdateScormDocument, list: ScormsDocument },
  video: { get: VideoDocument, update: UpdateVideoDocument, list: VideosDocument },
};

const minimalProbes = (type: keyof typeof minimal): Probe[] => [
  { name: 'GraphQL read', run: (as, id) => graphql(minimal[type].get, { id }, as) },
  { name: 'GraphQL update', run: (as, id) => graphql(minimal[type].update, { input: { id, title: 'Changed' } }, as) },
];

/** What each type offers beyond the permission operations: a read and the writes, with their levels. */
const typeProbes: Record<BuiltType, Probe[]> = {
  class: [
    { name: 'GET class', run: (as, id) => rest('GET', 'class', { class: id }, as) },
    { name: 'POST class:members', run: (as, id) => rest('POST', 'class:members', { class: id, users: third.user.id }, as) },
    { name: 'GraphQL updateClass', run: (as, id) => graphql(UpdateClassDocument, { input: { class: id, title: 'Changed' } }, as) },
  ],
  course: minimalProbes('course'),
  exam: [
    { name: 'GET exam', run: (as, id) => rest('GET', 'exam', { exam: id }, as) },
    { name: 'GET exam:status', run: (as, id) => rest('GET', 'exam:status', { exam: id }, as) },
    { name: 'GET exam:users', run: (as, id) => rest('GET', 'exam:users', { exam: id }, as) },
    { name: 'POST exam:users', run: (as, id) => rest('POST', 'exam:users', { exam: id, users: as.user.id }, as) },
    { name: 'PATCH exam', run: (as, id) => rest('PATCH', 'exam', { exam: id, title: 'Changed' }, as) },
    { name: 'POST exam:summary', run: (as, id) => rest('POST', 'exam:summary', { exam: id, summary: 'Summary' }, as) },
  ],
  event: minimalProbes('event'),
  integration: [
    { name: 'GET integration', run: (as, id) => rest('GET', 'integration', { integration: id }, as) },
    { name: 'PATCH integration', run: (as, id) => rest('PATCH', 'integration', { integration: id, active: 'false' }, as) },
    // The keys act as the owner: no level opens them.
    { name: 'GET integration:keys', run: (as, id) => rest('GET', 'integration:keys', { integration: id }, as) },
  ],
  organization: [
    { name: 'GET organization', run: (as, id) => rest('GET', 'organization', { organization: id }, as) },
    { name: 'PATCH organization', run: (as, id) => rest('PATCH', 'organization', { organization: id, title: 'Changed' }, as) },
  ],
  quiz: [
    { name: 'GET quiz', run: (as, id) => rest('GET', 'quiz', { quiz: id }, as) },
    { name: 'PATCH quiz', run: (as, id) => rest('PATCH', 'quiz', { quiz: id, title: 'Changed' }, as) },
  ],
  scorm: minimalProbes('scorm'),
  tag: [
    { name: 'GET tag', run: (as, id) => rest('GET', 'tag', { tag: id }, as) },
    { name: 'GraphQL updateTag', run: (as, id) => graphql(UpdateTagDocument, { input: { tag: id, title: 'Changed' } }, as) },
  ],
  video: minimalProbes('video'),
};

/**
 * The permission operations, for a holder of `held` (`above`: the next level of the scale, none
 * for the top one); transfer comes last, as it changes the owner.
 */
function permissionProbes(type: BuiltType, held: Level, above: Level | undefined): Probe[] {
  const call = (method: string, endpoint: string, user: string, permission?: string) => (as: Caller, id: string) =>
    rest(method, `${type}:${endpoint}`, { [type]: id, user, ...(permission ? { permission } : {}) }, as);
  return [
    { name: 'check itself', run: call('GET', 'permission', 'me', 'view') },
    { name: 'check another user', run: call('GET', 'permission', third.user.id, 'view') },
    { name: 'grant view', run: call('POST', 'permission', third.user.id, 'view') },
    { name: 'grant its own level', run: call('POST', 'permission', third.user.id, held) },
    ...(above ? [{ name: 'grant the level above its own', run: call('POST', 'permission', third.user.id, above) }] : []),
    { name: 'revoke view', run: call('DELETE', 'permission', third.user.id, 'view') },
    ...typeProbes[type],
    { name: 'transfer', run: call('POST', 'transfer', third.user.id) },
  ];
}

/*
 * What a holder of each level may do, written out by hand. One mark per level of the type's
 * scale, lowest first: `+` allowed, `.` refused (PERMISSION_DENIED), `-` no such call at that
 * level (nothing lies above the top level).
 */
const scale = ['view', 'report', 'control', 'modify', 'grant', 'admin'] as const;
const moneyScale = ['view', 'report', 'control', 'modify', 'finances', 'grant', 'admin'] as const;

//                                             view report control modify grant admin
const permissionRows = {
  'check itself':                              '+ + + + + +',
  'check another user':                        '. . . . + +',
  'grant view':                                '. . . . + +',
  'grant its own level':                       '. . . . + +',
  'grant the level above its own':             '. . . . . -',
  'revoke view':                               '. . . . + +',
  transfer:                                    '. . . . . +',
};
const readAndModify = {
  'GraphQL read':                              '+ + + + + +',
  'GraphQL update':                            '. . . + + +',
};

const matrix: Record<BuiltType, { levels: readonly Level[]; rows: Record<string, string> }> = {
  class: {
    levels: scale,
    rows: {
      ...permissionRows,
      'GET class':                             '+ + + + + +',
      'POST class:members':                    '. . + + + +',
      'GraphQL updateClass':                   '. . . + + +',
    },
  },
  course: { levels: scale, rows: { ...permissionRows, ...readAndModify } },
  exam: {
    levels: scale,
    rows: {
      ...permissionRows,
      'GET exam':                              '+ + + + + +',
      'GET exam:status':                       '+ + + + + +',
      'GET exam:users':                        '. + + + + +',
      'POST exam:users':                       '. . + + + +',
      'PATCH exam':                            '. . . + + +',
      'POST exam:summary':                     '. . . + + +',
    },
  },
  //                                           view report control modify finances grant admin
  event: {
    levels: moneyScale,
    rows: {
      'check itself':                          '+ + + + + + +',
      'check another user':                    '. . . . . + +',
      'grant view':                            '. . . . . + +',
      'grant its own level':                   '. . . . . + +',
      'grant the level above its own':         '. . . . . . -',
      'revoke view':                           '. . . . . + +',
      transfer:                                '. . . . . . +',
      'GraphQL read':                          '+ + + + + + +',
      'GraphQL update':                        '. . . + + + +',
    },
  },
  integration: {
    levels: scale,
    rows: {
      ...permissionRows,
      'GET integration':                       '+ + + + + +',
      'PATCH integration':                     '. . . + + +',
      // The keys act as the owner: no level opens them.
      'GET integration:keys':                  '. . . . . .',
    },
  },
  organization: {
    levels: scale,
    rows: {
      ...permissionRows,
      'GET organization':                      '+ + + + + +',
      'PATCH organization':                    '. . . + + +',
    },
  },
  quiz: {
    levels: scale,
    rows: {
      ...permissionRows,
      'GET quiz':                              '+ + + + + +',
      'PATCH quiz':                            '. . . + + +',
    },
  },
  scorm: { levels: scale, rows: { ...permissionRows, ...readAndModify } },
  tag: {
    levels: scale,
    rows: {
      ...permissionRows,
      'GET tag':                               '+ + + + + +',
      'GraphQL updateTag':                     '. . . + + +',
    },
  },
  video: { levels: scale, rows: { ...permissionRows, ...readAndModify } },
};

/** The probes for a holder of `held`, each with whether the table allows it; every row names a probe. */
function expectations(type: BuiltType, held: Level): { probes: Probe[]; allowed: (probe: Probe) => boolean } {
  const { levels, rows } = matrix[type];
  const column = levels.indexOf(held);
  const probes = permissionProbes(type, held, levels[column + 1]);
  const marks = new Map(Object.entries(rows).map(([name, row]) => [name, row.split(' ')]));
  for (const [name, row] of marks) expect(row.length, `${type} ${name}: one mark per level`).toBe(levels.length);
  const present = [...marks].filter(([, row]) => row[column] !== '-').map(([name]) => name);
  expect(probes.map((p) => p.name).sort(), `${type} ${held}: the table and the probes name the same calls`).toEqual(present.sort());
  return { probes, allowed: (probe) => marks.get(probe.name)![column] === '+' };
}

/** A new piece of `type` in `org`; an organization is its own content, with `third` as a member. */
async function piece(type: BuiltType): Promise<string> {
  const { id } = await seedContent(t, type, owner, org);
  if (type === 'organization') await seed(t).admin.addMembers(id, [third]);
  return id;
}

/**
 * Runs every probe as `as` on `id`: first those that must be refused (each a 403 with the code
 * `refusal` gives, PERMISSION_DENIED by default, and together they write nothing), then those that
 * must succeed.
 */
async function expectMatrix(
  type: BuiltType,
  as: Caller,
  id: string,
  allowed: (probe: Probe) => boolean,
  probes: Probe[],
  label: string,
  refusal: (probe: Probe) => string = () => 'PERMISSION_DENIED',
) {
  const refused = probes.filter((p) => !allowed(p));
  const before = await snapshot(t);
  for (const probe of refused) {
    const r = await probe.run(as, id);
    expect(r.ok, `${label}: ${probe.name} must be refused: ${r.detail}`).toBe(false);
    expect(r.code, `${label}: ${probe.name}: ${r.detail}`).toBe(refusal(probe));
  }
  expect(await snapshot(t), `${label}: a refused call wrote something`).toEqual(before);
  for (const probe of probes.filter(allowed)) {
    const r = await probe.run(as, id);
    expect(r.ok, `${label}: ${probe.name} must be allowed: ${r.detail}`).toBe(true);
  }
}

/** The identification strings of the caller's list of `type` (first 1000). */
async function listed(type: BuiltType, as: Caller): Promise<string[]> {
  if (type in minimal) {
    const r = await send(t, minimal[type as keyof typeof minimal].list, { first: 1000 }, { as });
    expect(r.errors).toBeUndefined();
    return (r.data as { [k: string]: { edges: { node: { id: string } }[] } })[`${type}s`]!.edges.map((e) => e.node.id);
  }
  const [endpoint, key] = ({ class: ['classes', 'classes'], exam: ['exams', 'exams'], integration: ['integrations', 'integrations'], organization: ['organizations', 'organizations'], tag: ['tags', 'tags'], quiz: ['quizes', 'quizes'] } as const)[
    type as 'class' | 'exam' | 'integration' | 'organization' | 'tag' | 'quiz'
  ];
  const r = await t.rpc('GET', endpoint, { limit: 1000 }, { as });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body[key] as Record<string, string>[]).map((row) => row[type]!);
}

describe.each(builtTypes)('%s', (type) => {
  it('its scale is the one the table states', () => {
    expect(levelsOf(type)).toEqual(matrix[type].levels);
  });

  it('a rule holder can do what its level allows, and nothing more', async () => {
    for (const held of matrix[type].levels) {
      const id = await piece(type);
      // The owner grants the level through the contract.
      const granted = await t.rpc('POST', `${type}:permission`, { [type]: id, user: second.user.id, permission: held }, { as: owner });
      expect(granted.body).toMatchObject({ user: second.user.id, success: true });
      const { probes, allowed } = expectations(type, held);
      await expectMatrix(type, second, id, allowed, probes, `${type} rule ${held}`);
    }
  });

  it.skipIf(type === 'organization')('an organization member holds its content level on the organization content', async () => {
    // (On the organization itself, members hold view whatever their content level: permissions.test.ts.)
    // A membership's content level answers like a rule of that level (no membership gives finances).
    for (const held of matrix[type].levels.filter((l) => l !== 'finances')) {
      await t.db.prisma.organizationMember.update({ where: { organizationId_userId: { organizationId: org, userId: staff.user.id } }, data: { permContent: held } });
      const id = await piece(type);
      const { probes, allowed } = expectations(type, held);
      await expectMatrix(type, staff, id, allowed, probes, `${type} member ${held}`);
    }
  });

  it('a user of another organization gets the answer of an unknown id for every read and write', async () => {
    const id = type === 'organization' ? org : await piece(type);
    // A caller who may not view the content learns nothing of it: 403 NOT_FOUND, as for an id of nothing.
    await expectMatrix(type, foreigner, id, () => false, permissionProbes(type, 'admin', undefined), `${type} foreigner`, () => 'NOT_FOUND');
    // Its own organization's content is its to manage.
    // Content of someone else there (the administrator may put content in any organization).
    const own = type === 'organization' ? otherOrg : (await seedContent(t, type, t.admin, otherOrg)).id;
    expect((await rest('GET', `${type}:permission`, { [type]: own, user: 'me', permission: 'admin' }, foreigner)).detail).toContain('"permission":true');
  });

  it('lists hold only what the caller may view', async () => {
    const granted = await seedContent(t, type, owner);
    const hidden = await seedContent(t, type, owner);
    const inOrg = await piece(type);
    await addRule(t, type, granted.id, second, 'view', owner);
    const seen = await listed(type, second);
    expect(seen).toContain(granted.id);
    expect(seen).not.toContain(hidden.id);
    expect(seen).not.toContain(inOrg);
    const abroad = await listed(type, foreigner);
    expect(abroad).not.toContain(granted.id);
    expect(abroad).not.toContain(inOrg);
    expect(abroad).not.toContain(org);
    // A member of the organization with a content level sees its content (an organization: its members see it).
    await t.db.prisma.organizationMember.update({ where: { organizationId_userId: { organizationId: org, userId: staff.user.id } }, data: { permContent: 'view' } });
    const member = await listed(type, staff);
    expect(member).toContain(type === 'organization' ? org : inOrg);
    expect(member).not.toContain(hidden.id);
    // Instance administrators see everything.
    expect(await listed(type, t.admin)).toEqual(expect.arrayContaining([granted.id, hidden.id, inOrg]));
  });
});

/*
 * Actions no content level decides, for four callers of one organization: an ordinary member
 * (role member; content level modify, so it may change the organization's content, and an active
 * member of its class), a supervisor (manages every member, content level none), a manager (an
 * admin of the organization) and an instance administrator. `ok`: allowed; otherwise the
 * refusal's code (403), and a refused call writes nothing. The member rows name the target:
 * "a member" has the default levels (member, none, none); "an admin member" is an admin of the
 * organization, above the supervisor; "a user the manager created" belongs to no organization.
 * The supervisor, a teacher and more, holds modify on the organization's classes (so sees the
 * assignment it may not hand work in for), but no level on its exams.
 */
type CallerName = 'member' | 'supervisor' | 'manager' | 'administrator';
const callerNames = ['member', 'supervisor', 'manager', 'administrator'] as const;
//                                                          member               supervisor           manager              administrator
const byCaller: Record<string, Record<CallerName, string>> = {
  'POST exam:settings freeze_round':                     { member: 'PERMISSION_DENIED', supervisor: 'NOT_FOUND', manager: 'ok', administrator: 'ok' },
  'POST exam:settings hide_ingame_results':              { member: 'ok', supervisor: 'NOT_FOUND', manager: 'ok', administrator: 'ok' },
  'PATCH organization':                                  { member: 'PERMISSION_DENIED', supervisor: 'PERMISSION_DENIED', manager: 'ok', administrator: 'ok' },
  'POST organization:department':                        { member: 'PERMISSION_DENIED', supervisor: 'PERMISSION_DENIED', manager: 'ok', administrator: 'ok' },
  'POST organization:members':                           { member: 'PERMISSION_DENIED', supervisor: 'ok', manager: 'ok', administrator: 'ok' },
  'POST organization:members making a member admin':     { member: 'PERMISSION_DENIED', supervisor: 'PERMISSION_DENIED', manager: 'ok', administrator: 'ok' },
  'POST organization:members on an admin member':        { member: 'PERMISSION_DENIED', supervisor: 'PERMISSION_DENIED', manager: 'ok', administrator: 'ok' },
  'DELETE organization:members on a member':             { member: 'PERMISSION_DENIED', supervisor: 'ok', manager: 'ok', administrator: 'ok' },
  'DELETE organization:members on an admin member':      { member: 'PERMISSION_DENIED', supervisor: 'PERMISSION_DENIED', manager: 'ok', administrator: 'ok' },
  'GraphQL submitAssignment':                            { member: 'ok', supervisor: 'PERMISSION_DENIED', manager: 'PERMISSION_DENIED', administrator: 'PERMISSION_DENIED' },
  'POST user:name on itself':                            { member: 'ok', supervisor: 'ok', manager: 'ok', administrator: 'ok' },
  'PATCH user on itself':                                { member: 'PERMISSION_DENIED', supervisor: 'PERMISSION_DENIED', manager: 'PERMISSION_DENIED', administrator: 'ok' },
  'POST user:name on a user the manager created':        { member: 'NOT_FOUND', supervisor: 'NOT_FOUND', manager: 'ok', administrator: 'ok' },
  'PATCH user on a user the manager created':            { member: 'NOT_FOUND', supervisor: 'NOT_FOUND', manager: 'ok', administrator: 'ok' },
  // Without a password: the application's owner itself, the user's creator and administrators (user:assume).
  'POST user:assume on itself':                          { member: 'ok', supervisor: 'ok', manager: 'ok', administrator: 'ok' },
  'POST user:assume on a user the manager created':      { member: 'MISSING_ARGUMENT', supervisor: 'MISSING_ARGUMENT', manager: 'ok', administrator: 'ok' },
  'GraphQL setFeature':                                  { member: 'ADMIN_ONLY', supervisor: 'ADMIN_ONLY', manager: 'ADMIN_ONLY', administrator: 'ok' },
  'GraphQL notifications':                               { member: 'PERMISSION_DENIED', supervisor: 'PERMISSION_DENIED', manager: 'PERMISSION_DENIED', administrator: 'ok' },
};

const outcomeOf = (r: Outcome) => (r.ok ? 'ok' : (r.code ?? r.detail));

async function gqlText(query: string, variables: Record<string, unknown>, as: Caller): Promise<Outcome> {
  const r = await t.gql(query, variables, { as });
  const errors = r.body.errors as { extensions?: { code?: string } }[] | undefined;
  return { ok: !errors && r.status === 200, code: errors?.[0]?.extensions?.code, detail: JSON.stringify(r.body) };
}

describe('actions decided by who the caller is', () => {
  let home: string;
  const callers = {} as Record<CallerName, Caller>;
  let departments = 0;
  let classOfHome: ClassHandle;

  beforeAll(async () => {
    callers.member = await t.newCaller('plain-member');
    callers.supervisor = await t.newCaller('organization-supervisor');
    callers.manager = await t.newCaller('organization-manager');
    callers.administrator = t.admin;
    home = (await seed(t).as(owner).organization({ title: 'Managed' })).id;
    const admin = seed(t).admin;
    await admin.addMembers(home, [callers.member], { permissionOrganization: 'member', permissionContent: 'modify' });
    await admin.addMembers(home, [callers.supervisor], { permissionOrganization: 'supervisor', permissionMembers: 'organization' });
    await admin.addMembers(home, [callers.manager], { permissionOrganization: 'admin' });
    await admin.addMembers(home, [third]);
    classOfHome = await seed(t).as(owner).class({ organization: home });
    await classOfHome.members([callers.member]);
  });

  /** A new member of the organization with `levels`, for a call that changes or removes it. */
  const newMember = async (levels: Record<string, string> = {}) => {
    const user = await seed(t).as(owner).managedUser();
    await seed(t).as(owner).addMembers(home, [user], levels);
    return user.id;
  };

  /** What a call acts on, made before the snapshot: a fresh one for each caller. */
  const targets: Record<string, () => Promise<string>> = {
    'POST organization:members making a member admin': () => newMember(),
    'POST organization:members on an admin member': () => newMember({ permissionOrganization: 'admin' }),
    'DELETE organization:members on a member': () => newMember(),
    'DELETE organization:members on an admin member': () => newMember({ permissionOrganization: 'admin' }),
    'GraphQL submitAssignment': () => classOfHome.assignment(),
    'POST user:name on a user the manager created': async () => (await seed(t).as(callers.manager).managedUser()).id,
    'PATCH user on a user the manager created': async () => (await seed(t).as(callers.manager).managedUser()).id,
    'POST user:assume on a user the manager created': async () => (await seed(t).as(callers.manager).managedUser()).id,
  };

  /** The calls; `exam` is a new exam of the organization, so that one caller's change is not the next one's no-op. */
  const calls: Record<string, (as: Caller, exam: string, target: string) => Promise<Outcome>> = {
    'POST exam:settings freeze_round': (as, exam) => rest('POST', 'exam:settings', { exam, freeze_round: true }, as),
    'POST exam:settings hide_ingame_results': (as, exam) => rest('POST', 'exam:settings', { exam, hide_ingame_results: true }, as),
    'PATCH organization': (as) => rest('PATCH', 'organization', { organization: home, title: `Managed ${++departments}` }, as),
    'POST organization:department': (as) => rest('POST', 'organization:department', { organization: home, title: `Department ${++departments}` }, as),
    'POST organization:members': (as) => rest('POST', 'organization:members', { organization: home, users: third.user.id }, as),
    'POST organization:members making a member admin': (as, _exam, user) =>
      rest('POST', 'organization:members', { organization: home, users: user, permission_organization: 'admin' }, as),
    'POST organization:members on an admin member': (as, _exam, user) => rest('POST', 'organization:members', { organization: home, users: user }, as),
    'DELETE organization:members on a member': (as, _exam, user) => rest('DELETE', 'organization:members', { organization: home, users: user }, as),
    'DELETE organization:members on an admin member': (as, _exam, user) => rest('DELETE', 'organization:members', { organization: home, users: user }, as),
    'GraphQL submitAssignment': (as, _exam, assignment) =>
      gqlText('mutation ($assignment: ID!) { submitAssignment(assignment: $assignment) { id } }', { assignment }, as),
    'POST user:name on itself': (as) => rest('POST', 'user:name', { user: 'me', first_name: 'Renamed', last_name: `Caller ${++departments}` }, as),
    'PATCH user on itself': (as) => rest('PATCH', 'user', { user: 'me', active: true }, as),
    'POST user:name on a user the manager created': (as, _exam, user) => rest('POST', 'user:name', { user, first_name: 'Renamed', last_name: 'User' }, as),
    'PATCH user on a user the manager created': (as, _exam, user) => rest('PATCH', 'user', { user, active: false }, as),
    'POST user:assume on itself': (as) => rest('POST', 'user:assume', { user: as.user.id }, as),
    'POST user:assume on a user the manager created': (as, _exam, user) => rest('POST', 'user:assume', { user }, as),
    'GraphQL setFeature': (as) => gqlText('mutation { setFeature(feature: journeys, enabled: true) { feature } }', {}, as),
    'GraphQL notifications': (as) => gqlText('{ notifications(first: 1) { edges { node { id } } } }', {}, as),
  };

  it.each(Object.keys(byCaller))('%s', async (name) => {
    for (const caller of callerNames) {
      const expected = byCaller[name]![caller];
      const exam = (await seedContent(t, 'exam', owner, home)).id;
      const target = (await targets[name]?.()) ?? '';
      const before = await snapshot(t);
      const r = await calls[name]!(callers[caller], exam, target);
      expect(outcomeOf(r), `${name} as ${caller}: ${r.detail}`).toBe(expected);
      if (expected !== 'ok') expect(await snapshot(t), `${name} as ${caller}: a refused call wrote something`).toEqual(before);
    }
  });
});
