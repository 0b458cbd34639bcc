import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { send } from '../graphql/client.ts';
import { allows, builtTypes, seedContent, snapshot, type BuiltType } from '../helpers/permissions.ts';
import { levelsOf, rank, type Level } from '../../src/auth/permissions.ts';
import { newId } from '../../src/ids.ts';
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
 * rule or by the content level of its organization membership. A user of another organization
 * gets 403 for every read and write, and lists hold only what the caller may view. Every refused
 * call is a 403 PERMISSION_DENIED that writes nothing.
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
  org = (await t.db.prisma.organization.create({ data: { id: newId('Organization'), title: 'Home', ownerId: owner.user.id } })).id;
  otherOrg = (await t.db.prisma.organization.create({ data: { id: newId('Organization'), title: 'Abroad', ownerId: foreigner.user.id } })).id;
  await t.db.prisma.organizationMember.createMany({
    data: [
      { organizationId: org, userId: staff.user.id },
      { organizationId: org, userId: third.user.id },
      { organizationId: otherOrg, userId: foreigner.user.id, permOrganization: 'admin', permContent: 'admin', permMembers: 'organization' },
    ],
  });
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

/** One thing a holder may try on a piece of content, and the level it needs (null: never allowed). */
interface Probe {
  name: string;
  needs: Level | null;
  run: (as: Caller, id: string) => Promise<Outcome>;
}

const minimal = {
  course: { get: CourseDocument, update: UpdateCourseDocument, list: CoursesDocument },
  event: { get: EventDocument, update: UpdateEventDocument, list: EventsDocument },
  scorm: { get: ScormDocument, update: UpdateScormDocument, list: ScormsDocument },
  video: { get: VideoDocument, update: UpdateVideoDocument, list: VideosDocument },
};

const minimalProbes = (type: keyof typeof minimal): Probe[] => [
  { name: `GraphQL ${type}`, needs: 'view', run: (as, id) => graphql(minimal[type].get, { id }, as) },
  { name: `GraphQL update ${type}`, needs: 'modify', run: (as, id) => graphql(minimal[type].update, { input: { id, title: 'Changed' } }, as) },
];

/** What each type offers beyond the permission operations: a read and the writes, with their levels. */
const typeProbes: Record<BuiltType, Probe[]> = {
  class: [
    { name: 'GET class', needs: 'view', run: (as, id) => rest('GET', 'class', { class: id }, as) },
    { name: 'POST class:members', needs: 'control', run: (as, id) => rest('POST', 'class:members', { class: id, users: third.user.id }, as) },
    { name: 'GraphQL updateClass', needs: 'modify', run: (as, id) => graphql(UpdateClassDocument, { input: { class: id, title: 'Changed' } }, as) },
  ],
  course: minimalProbes('course'),
  exam: [
    { name: 'GET exam', needs: 'view', run: (as, id) => rest('GET', 'exam', { exam: id }, as) },
    { name: 'GET exam:status', needs: 'view', run: (as, id) => rest('GET', 'exam:status', { exam: id }, as) },
    { name: 'GET exam:users', needs: 'report', run: (as, id) => rest('GET', 'exam:users', { exam: id }, as) },
    { name: 'POST exam:users', needs: 'control', run: (as, id) => rest('POST', 'exam:users', { exam: id, users: as.user.id }, as) },
    { name: 'PATCH exam', needs: 'modify', run: (as, id) => rest('PATCH', 'exam', { exam: id, title: 'Changed' }, as) },
    { name: 'POST exam:summary', needs: 'modify', run: (as, id) => rest('POST', 'exam:summary', { exam: id, summary: 'Summary' }, as) },
  ],
  event: minimalProbes('event'),
  integration: [
    { name: 'GET integration', needs: 'view', run: (as, id) => rest('GET', 'integration', { integration: id }, as) },
    { name: 'PATCH integration', needs: 'modify', run: (as, id) => rest('PATCH', 'integration', { integration: id, active: 'false' }, as) },
    // The keys act as the owner: no level opens them.
    { name: 'GET integration:keys', needs: null, run: (as, id) => rest('GET', 'integration:keys', { integration: id }, as) },
  ],
  organization: [
    { name: 'GET organization', needs: 'view', run: (as, id) => rest('GET', 'organization', { organization: id }, as) },
    { name: 'PATCH organization', needs: 'modify', run: (as, id) => rest('PATCH', 'organization', { organization: id, title: 'Changed' }, as) },
  ],
  quiz: [
    { name: 'GET quiz', needs: 'view', run: (as, id) => rest('GET', 'quiz', { quiz: id }, as) },
    { name: 'PATCH quiz', needs: 'modify', run: (as, id) => rest('PATCH', 'quiz', { quiz: id, title: 'Changed' }, as) },
  ],
  scorm: minimalProbes('scorm'),
  tag: [
    { name: 'GET tag', needs: 'view', run: (as, id) => rest('GET', 'tag', { tag: id }, as) },
    { name: 'GraphQL updateTag', needs: 'modify', run: (as, id) => graphql(UpdateTagDocument, { input: { tag: id, title: 'Changed' } }, as) },
  ],
  video: minimalProbes('video'),
};

/** The permission operations, for a holder of `held`; transfer comes last, as it changes the owner. */
function permissionProbes(type: BuiltType, held: Level): Probe[] {
  const scale = levelsOf(type);
  const call = (method: string, endpoint: string, user: string, permission?: string) => (as: Caller, id: string) =>
    rest(method, `${type}:${endpoint}`, { [type]: id, user, ...(permission ? { permission } : {}) }, as);
  const above = scale[rank(type, held) + 1];
  return [
    { name: 'check itself', needs: 'view', run: call('GET', 'permission', 'me', 'view') },
    { name: 'check another user', needs: 'grant', run: call('GET', 'permission', third.user.id, 'view') },
    { name: 'grant view', needs: 'grant', run: call('POST', 'permission', third.user.id, 'view') },
    { name: `grant ${held} (its own level)`, needs: 'grant', run: call('POST', 'permission', third.user.id, held) },
    ...(above ? [{ name: `grant ${above} (above its own level)`, needs: null, run: call('POST', 'permission', third.user.id, above) }] : []),
    { name: 'revoke view', needs: 'grant', run: call('DELETE', 'permission', third.user.id, 'view') },
    ...typeProbes[type],
    { name: 'transfer', needs: 'admin', run: call('POST', 'transfer', third.user.id) },
  ];
}

/** A new piece of `type` in `org`; an organization is its own content, with `third` as a member. */
async function piece(type: BuiltType): Promise<string> {
  const { id } = await seedContent(t, type, owner, org);
  if (type === 'organization') await t.db.prisma.organizationMember.create({ data: { organizationId: id, userId: third.user.id } });
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
  it('a rule holder can do what its level allows, and nothing more', async () => {
    for (const held of levelsOf(type)) {
      const id = await piece(type);
      // The owner grants the level through the contract.
      const granted = await t.rpc('POST', `${type}:permission`, { [type]: id, user: second.user.id, permission: held }, { as: owner });
      expect(granted.body).toMatchObject({ user: second.user.id, success: true });
      const probes = permissionProbes(type, held);
      await expectMatrix(type, second, id, (p) => p.needs !== null && allows(type, held, p.needs), probes, `${type} rule ${held}`);
    }
  });

  it.skipIf(type === 'organization')('an organization member holds its content level on the organization content', async () => {
    // (On the organization itself, members hold view whatever their content level: permissions.test.ts.)
    for (const held of levelsOf(type).filter((l) => l !== 'finances')) {
      await t.db.prisma.organizationMember.update({ where: { organizationId_userId: { organizationId: org, userId: staff.user.id } }, data: { permContent: held } });
      const id = await piece(type);
      const probes = permissionProbes(type, held);
      await expectMatrix(type, staff, id, (p) => p.needs !== null && allows(type, held, p.needs), probes, `${type} member ${held}`);
    }
  });

  it('a user of another organization gets the answer of an unknown id for every read and write', async () => {
    const id = type === 'organization' ? org : await piece(type);
    // A caller who may not view the content learns nothing of it: 403 NOT_FOUND, as for an id of nothing.
    await expectMatrix(type, foreigner, id, () => false, permissionProbes(type, 'admin'), `${type} foreigner`, () => 'NOT_FOUND');
    // Its own organization's content is its to manage.
    const own = type === 'organization' ? otherOrg : (await seedContent(t, type, owner, otherOrg)).id;
    expect((await rest('GET', `${type}:permission`, { [type]: own, user: 'me', permission: 'admin' }, foreigner)).detail).toContain('"permission":true');
  });

  it('lists hold only what the caller may view', async () => {
    const granted = await seedContent(t, type, owner);
    const hidden = await seedContent(t, type, owner);
    const inOrg = await piece(type);
    await t.db.prisma.permissionRule.create({ data: { contentType: type, contentId: granted.id, userId: second.user.id, level: 'view' } });
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
