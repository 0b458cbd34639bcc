import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { ISO, expectCode, ok, refused, send } from './client.ts';
import { addRule, builtTypes, seedContent, snapshot, type BuiltType } from '../helpers/permissions.ts';
import { seed } from '../helpers/seed.ts';
import { levelsOf, type Level } from '../../src/auth/permissions.ts';
import {
  ContentPermissionDocument,
  ContentRulesDocument,
  CourseDocument,
  CoursesDocument,
  CreateCourseDocument,
  CreateEventDocument,
  CreateScormDocument,
  CreateVideoDocument,
  DeleteCourseDocument,
  DeleteVideoDocument,
  EventsDocument,
  GrantPermissionDocument,
  RevokePermissionDocument,
  ScormsDocument,
  TransferContentDocument,
  UpdateCourseDocument,
  VideosDocument,
  type PermissionLevel,
} from '../../schema/operations/generated.ts';

/**
 * The GraphQL face of content permissions: Course, Event, Scorm and Video (create, list, read,
 * update, delete under the policy), the `permissions` field of every content type, the
 * `permission` query for dashboards, and grantPermission, revokePermission and transferContent,
 * with the same matrix of levels as the contract.
 */

let t: TestApp;
let owner: Caller;
let second: Caller;
/** A member of `org` with no content level: named by grants and transfers. */
let third: Caller;
/** A member of `org` with the content level modify. */
let editor: Caller;
/** Owner of another organization. */
let foreigner: Caller;
let org: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.newCaller('owner');
  second = await t.newCaller('second', { createdBy: owner });
  third = await t.newCaller('third');
  editor = await t.newCaller('editor');
  foreigner = await t.newCaller('foreigner');
  org = (await seed(t).as(owner).organization({ title: 'Home' })).id;
  await seed(t).as(foreigner).organization({ title: 'Abroad' });
  // The administrator adds them: a new member is a user the one adding it sees.
  await seed(t).admin.addMembers(org, [third]);
  await seed(t).admin.addMembers(org, [editor], { permissionContent: 'modify' });
});
afterAll(async () => t?.close());

const creators = { Course: CreateCourseDocument, Event: CreateEventDocument, Scorm: CreateScormDocument, Video: CreateVideoDocument };

/** The permission rules of any content as the caller sees them; null when it may not view the content. */
async function rulesSeen(id: string, as: Caller) {
  const node = (await ok(t, ContentRulesDocument, { id }, { as })).node as { permissions?: { userId: string; level: string; name: string; user: { id: string } | null }[] } | null;
  return node ? node.permissions! : null;
}

describe('Course, Event, Scorm and Video', () => {
  it('creates each owned by the caller, with every field', async () => {
    for (const [name, document] of Object.entries(creators)) {
      const data = await ok(t, document, { input: { title: `${name} one`, externalId: `${name}-1`, description: 'About', organization: org } }, { as: owner });
      const made = Object.values(data)[0] as { id: string };
      expect(made).toEqual({
        id: expect.stringMatching(/^(crs|evt|scm|vid)_[a-z0-9]+$/),
        title: `${name} one`,
        externalId: `${name}-1`,
        description: 'About',
        organization: { id: org },
        owner: { id: owner.user.id },
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      const audit = await t.db.prisma.auditEvent.findFirst({ where: { subject: made.id, action: `${name.toLowerCase()}.create` } });
      expect(audit?.actorId).toBe(owner.user.id);
    }
    // Optional fields default to null; the contract's check reads the record.
    const bare = (await ok(t, CreateVideoDocument, { input: { title: 'Bare' } }, { as: second })).createVideo;
    expect(bare).toMatchObject({ externalId: null, description: null, organization: null, owner: { id: second.user.id } });
    const r = await t.rpc('GET', 'video:permission', { video: bare.id, user: 'me', permission: 'admin' }, { as: second });
    expect(r.body).toEqual({ user: second.user.id, content: { type: 'video', code: bare.id, id: null }, status: { permission: true, rule: false } });
  });

  it('puts content only in an organization whose content the caller may change, and refuses bad input, creating nothing', async () => {
    const before = await snapshot(t);
    expectCode(await refused(t, CreateCourseDocument, { input: { title: 'X', organization: org } }, { as: third }), 'PERMISSION_DENIED');
    expectCode(await refused(t, CreateCourseDocument, { input: { title: 'X', organization: org } }, { as: foreigner }), 'NOT_FOUND');
    expectCode(await refused(t, CreateCourseDocument, { input: { title: 'X', organization: 'org_missing' } }, { as: owner }), 'NOT_FOUND', 'organization');
    expectCode(await refused(t, CreateCourseDocument, { input: { title: '' } }, { as: owner }), 'INVALID_ARGUMENT', 'title');
    expectCode(await refused(t, CreateCourseDocument, { input: { title: 'x'.repeat(256) } }, { as: owner }), 'INVALID_ARGUMENT', 'title');
    expectCode(await refused(t, CreateCourseDocument, { input: { title: 'X', externalId: '' } }, { as: owner }), 'INVALID_ARGUMENT', 'externalId');
    expectCode(await refused(t, CreateCourseDocument, { input: { title: 'X', externalId: 'x'.repeat(65) } }, { as: owner }), 'INVALID_ARGUMENT', 'externalId');
    expect(await snapshot(t)).toEqual(before);
    // A member with the content level modify may.
    expect((await ok(t, CreateCourseDocument, { input: { title: 'By editor', organization: org } }, { as: editor })).createCourse.organization).toEqual({ id: org });
  });

  it('lists what the caller may view, as connections with search', async () => {
    const mine = (await ok(t, CreateScormDocument, { input: { title: 'Searchable package', organization: org } }, { as: owner })).createScorm;
    const personal = (await ok(t, CreateScormDocument, { input: { title: 'Searchable private' } }, { as: owner })).createScorm;
    const ids = async (as: Caller, search?: string) => (await ok(t, ScormsDocument, { search, first: 100 }, { as })).scorms.edges.map((e) => e.node.id);
    expect(await ids(owner, 'searchable')).toEqual([mine.id, personal.id]);
    // The editor sees the organization's content, not the owner's personal content.
    expect(await ids(editor, 'SEARCHABLE')).toEqual([mine.id]);
    expect(await ids(second)).not.toContain(mine.id);
    await addRule(t, 'scorm', personal.id, second, 'view');
    expect(await ids(second, 'searchable')).toEqual([personal.id]);
    expect(await ids(foreigner)).toEqual([]);
    // Paging.
    const page = await ok(t, ScormsDocument, { first: 1, search: 'searchable' }, { as: owner });
    expect(page.scorms.pageInfo.hasNextPage).toBe(true);
    expect((await ok(t, ScormsDocument, { first: 1, after: page.scorms.pageInfo.endCursor, search: 'searchable' }, { as: owner })).scorms.edges.map((e) => e.node.id)).toEqual([personal.id]);
  });

  it('reads with view: node(id) is null and course(id) refused for others', async () => {
    const course = (await ok(t, CreateCourseDocument, { input: { title: 'Readable' } }, { as: owner })).createCourse;
    expect((await ok(t, CourseDocument, { id: course.id }, { as: owner })).course.id).toBe(course.id);
    expectCode(await refused(t, CourseDocument, { id: course.id }, { as: second }), 'NOT_FOUND');
    expectCode(await refused(t, CourseDocument, { id: 'crs_missing' }, { as: second }), 'NOT_FOUND', 'id');
    expect(await rulesSeen(course.id, second)).toBeNull();
    await addRule(t, 'course', course.id, second, 'view');
    expect((await ok(t, CourseDocument, { id: course.id }, { as: second })).course.title).toBe('Readable');
  });

  it('updates only given fields with modify; null clears; moving to an organization needs modify on its content', async () => {
    const course = (await ok(t, CreateCourseDocument, { input: { title: 'Old', externalId: 'old', description: 'Old text' } }, { as: owner })).createCourse;
    await addRule(t, 'course', course.id, second, 'control');
    const before = await snapshot(t);
    expectCode(await refused(t, UpdateCourseDocument, { input: { id: course.id, title: 'New' } }, { as: second }), 'PERMISSION_DENIED');
    expect(await snapshot(t)).toEqual(before);
    await addRule(t, 'course', course.id, second, 'modify');
    const updated = (await ok(t, UpdateCourseDocument, { input: { id: course.id, title: 'New', description: null } }, { as: second })).updateCourse;
    expect(updated).toMatchObject({ id: course.id, title: 'New', externalId: 'old', description: null, organization: null, owner: { id: owner.user.id } });
    // second may change the course but may not put content into `org`; the owner may.
    expectCode(await refused(t, UpdateCourseDocument, { input: { id: course.id, organization: org } }, { as: second }), 'NOT_FOUND');
    expect((await ok(t, UpdateCourseDocument, { input: { id: course.id, organization: org } }, { as: owner })).updateCourse.organization).toEqual({ id: org });
    // Now in `org`, the editor (content level modify) changes it too, and may take it out.
    expect((await ok(t, UpdateCourseDocument, { input: { id: course.id, organization: null } }, { as: editor })).updateCourse.organization).toBeNull();
    expectCode(await refused(t, UpdateCourseDocument, { input: { id: course.id, title: 'Again' } }, { as: editor }), 'NOT_FOUND');
    expectCode(await refused(t, UpdateCourseDocument, { input: { id: course.id, title: '' } }, { as: owner }), 'INVALID_ARGUMENT', 'title');
  });

  it('deletes with admin, with its rules and tag attachments', async () => {
    const video = (await ok(t, CreateVideoDocument, { input: { title: 'Doomed' } }, { as: owner })).createVideo;
    await addRule(t, 'video', video.id, second, 'grant');
    const tag = await seedContent(t, 'tag', owner);
    await seed(t).as(owner).attachTag('video', video.id, tag.id);
    expectCode(await refused(t, DeleteVideoDocument, { id: video.id }, { as: second }), 'PERMISSION_DENIED');
    expect(await t.db.prisma.video.count({ where: { id: video.id } })).toBe(1);
    expect((await ok(t, DeleteVideoDocument, { id: video.id }, { as: owner })).deleteVideo).toBe(video.id);
    expect(await t.db.prisma.video.count({ where: { id: video.id } })).toBe(0);
    expect(await t.db.prisma.permissionRule.count({ where: { contentId: video.id } })).toBe(0);
    expect(await t.db.prisma.contentTag.count({ where: { contentId: video.id } })).toBe(0);
    expectCode(await refused(t, DeleteCourseDocument, { id: 'crs_missing' }, { as: owner }), 'NOT_FOUND', 'id');
  });
});

describe('permissions field and permission query', () => {
  it('shows every rule to a caller holding grant, otherwise only its own, by name then level', async () => {
    for (const type of builtTypes) {
      const { id } = await seedContent(t, type, owner, org);
      await addRule(t, type, id, third, 'view');
      await addRule(t, type, id, second, 'modify');
      await addRule(t, type, id, second, 'view');
      const all = await rulesSeen(id, owner);
      expect(all!.map((r) => [r.name, r.level]), type).toEqual([
        ['second Tester', 'view'],
        ['second Tester', 'modify'],
        ['third Tester', 'view'],
      ]);
      // The owner reads the account of a user it created, not of others.
      expect(all!.map((r) => r.user)).toEqual([{ id: second.user.id }, { id: second.user.id }, null]);
      expect((await rulesSeen(id, second))!.map((r) => r.level)).toEqual(['view', 'modify']);
      await addRule(t, type, id, second, 'grant');
      expect((await rulesSeen(id, second))!.map((r) => r.userId)).toEqual([second.user.id, second.user.id, second.user.id, third.user.id]);
    }
  });

  it('loads the rules of a whole list in the same number of statements', async () => {
    const lister = await t.newCaller('lister');
    const query = `{ videos(first: 100) { edges { node { id permissions { userId level } } } } }`;
    const count = async () => (await countStatements(t, () => t.gql(query, {}, { as: lister }))).count;
    for (let i = 0; i < 2; i++) await addRule(t, 'video', (await seedContent(t, 'video', lister)).id, second, 'view');
    const few = await count();
    for (let i = 0; i < 6; i++) await addRule(t, 'video', (await seedContent(t, 'video', lister)).id, second, 'view');
    const all = (await t.gql(query, {}, { as: lister })).body.data.videos.edges;
    expect(all).toHaveLength(8);
    expect(all.every((e: { node: { permissions: unknown[] } }) => e.node.permissions.length === 1)).toBe(true);
    expect(await count()).toBe(few);
  });

  it('answers what a user can do: level, every level held and its rules; the caller by default', async () => {
    const { id } = await seedContent(t, 'event', owner, org);
    await addRule(t, 'event', id, second, 'finances');
    await addRule(t, 'event', id, second, 'view');
    const mine = (await ok(t, ContentPermissionDocument, { contentType: 'event', content: id }, { as: second })).permission;
    expect(mine).toEqual({ contentType: 'event', content: id, user: second.user.id, level: 'finances', levels: ['view', 'report', 'control', 'modify', 'finances'], rules: ['view', 'finances'] });
    expect((await ok(t, ContentPermissionDocument, { contentType: 'event', content: id, user: second.user.id }, { as: owner })).permission.level).toBe('finances');
    // Organization membership counts; so do ownership and nothing.
    expect((await ok(t, ContentPermissionDocument, { contentType: 'event', content: id, user: editor.user.id }, { as: owner })).permission).toMatchObject({ level: 'modify', rules: [] });
    expect((await ok(t, ContentPermissionDocument, { contentType: 'event', content: id, user: third.user.id }, { as: owner })).permission).toMatchObject({ level: null, levels: [], rules: [] });
    // Asking about another user needs grant; content of another organization is refused.
    expectCode(await refused(t, ContentPermissionDocument, { contentType: 'event', content: id, user: third.user.id }, { as: second }), 'PERMISSION_DENIED');
    expectCode(await refused(t, ContentPermissionDocument, { contentType: 'event', content: id }, { as: foreigner }), 'NOT_FOUND');
    expectCode(await refused(t, ContentPermissionDocument, { contentType: 'event', content: 'evt_missing' }, { as: owner }), 'NOT_FOUND', 'content');
    expectCode(await refused(t, ContentPermissionDocument, { contentType: 'exam', content: 'exm_any' }, { as: t.admin }), 'NOT_FOUND', 'content');
  });
});

describe('grantPermission, revokePermission, transferContent', () => {
  it('answer {contentType, content, user, success}, as the contract does', async () => {
    const { id } = await seedContent(t, 'quiz', owner);
    const args = { contentType: 'quiz' as const, content: id, user: second.user.id, permission: 'report' as const };
    expect((await ok(t, GrantPermissionDocument, args, { as: owner })).grantPermission).toEqual({ contentType: 'quiz', content: id, user: second.user.id, success: true });
    expect((await t.rpc('GET', 'quiz:permission', { quiz: id, user: second.user.id, permission: 'report' }, { as: owner })).body.status).toEqual({ permission: true, rule: true });
    expect((await ok(t, RevokePermissionDocument, args, { as: owner })).revokePermission.success).toBe(true);
    expect((await ok(t, RevokePermissionDocument, args, { as: owner })).revokePermission.success).toBe(false);
    expect((await ok(t, TransferContentDocument, { contentType: 'quiz', content: id, user: second.user.id }, { as: owner })).transferContent).toEqual({
      contentType: 'quiz',
      content: id,
      user: second.user.id,
      success: true,
    });
    expect((await t.db.prisma.quizSet.findUniqueOrThrow({ where: { id } })).ownerId).toBe(second.user.id);
  });

  it('refuses a level the type does not have and unknown arguments, naming them', async () => {
    const { id } = await seedContent(t, 'course', owner);
    const before = await snapshot(t);
    expectCode(await refused(t, GrantPermissionDocument, { contentType: 'course', content: id, user: second.user.id, permission: 'finances' }, { as: owner }), 'INVALID_ARGUMENT', 'permission');
    expectCode(await refused(t, GrantPermissionDocument, { contentType: 'course', content: 'crs_none', user: second.user.id, permission: 'view' }, { as: owner }), 'NOT_FOUND', 'content');
    expectCode(await refused(t, GrantPermissionDocument, { contentType: 'course', content: id, user: 'usr_none', permission: 'view' }, { as: owner }), 'NOT_FOUND', 'user');
    // A user the caller may not name is unknown to it.
    expectCode(await refused(t, TransferContentDocument, { contentType: 'course', content: id, user: foreigner.user.id }, { as: owner }), 'NOT_FOUND', 'user');
    expect(await snapshot(t)).toEqual(before);
  });

  /*
   * Which levels a holder of each level may grant, written out: one mark per level of the scale,
   * lowest first (`+` granted, `.` PERMISSION_DENIED). Holders of grant and admin may also revoke;
   * only admin holders transfer.
   */
  const scale = ['view', 'report', 'control', 'modify', 'grant', 'admin'] as const;
  const grants: Record<string, string> = {
    //         view report control modify grant admin
    view:     '. . . . . .',
    report:   '. . . . . .',
    control:  '. . . . . .',
    modify:   '. . . . . .',
    grant:    '+ + + + + .',
    admin:    '+ + + + + +',
  };
  const moneyScale = ['view', 'report', 'control', 'modify', 'finances', 'grant', 'admin'] as const;
  const moneyGrants: Record<string, string> = {
    //         view report control modify finances grant admin
    view:     '. . . . . . .',
    report:   '. . . . . . .',
    control:  '. . . . . . .',
    modify:   '. . . . . . .',
    finances: '. . . . . . .',
    grant:    '+ + + + + + .',
    admin:    '+ + + + + + +',
  };
  const tableOf = (type: BuiltType): { levels: readonly Level[]; grants: Record<string, string> } =>
    type === 'event' ? { levels: moneyScale, grants: moneyGrants } : { levels: scale, grants };

  describe.each(builtTypes)('%s', (type: BuiltType) => {
    it('follow the level of the caller: grant and revoke up to its own level with grant, transfer with admin', async () => {
      const { levels, grants: grantsOf } = tableOf(type);
      expect(levelsOf(type)).toEqual(levels);
      for (const held of levels) {
        const { id } = await seedContent(t, type, owner, org);
        if (type === 'organization') await seed(t).admin.addMembers(id, [third]);
        await ok(t, GrantPermissionDocument, { contentType: type, content: id, user: second.user.id, permission: held }, { as: owner });
        const label = `${type} ${held}`;
        const summary = (await ok(t, ContentPermissionDocument, { contentType: type, content: id }, { as: second })).permission;
        expect(summary.level, label).toBe(held);
        expect(summary.levels, label).toEqual(levels.slice(0, levels.indexOf(held) + 1));
        const granting = held === 'grant' || held === 'admin';
        const change = (level: Level) => ({ contentType: type, content: id, user: third.user.id, permission: level as PermissionLevel });
        const before = await snapshot(t);
        const marks = grantsOf[held]!.split(' ');
        expect(marks, label).toHaveLength(levels.length);
        for (const [i, level] of levels.entries()) {
          const r = await send(t, GrantPermissionDocument, change(level), { as: second });
          const allowed = marks[i] === '+';
          if (allowed) expect(r.data?.grantPermission.success, `${label}: grant ${level}`).toBe(true);
          else expect(r.errors?.[0]?.extensions?.code, `${label}: grant ${level}`).toBe('PERMISSION_DENIED');
        }
        if (!granting) expect(await snapshot(t), label).toEqual(before);
        const r = await send(t, RevokePermissionDocument, change('view'), { as: second });
        if (granting) expect(r.data?.revokePermission.success, label).toBe(true);
        else expect(r.errors?.[0]?.extensions?.code, label).toBe('PERMISSION_DENIED');
        const transfer = await send(t, TransferContentDocument, { contentType: type, content: id, user: third.user.id }, { as: second });
        if (held === 'admin') expect(transfer.data?.transferContent.success, label).toBe(true);
        else expect(transfer.errors?.[0]?.extensions?.code, label).toBe('PERMISSION_DENIED');
      }
    });

    it('refuse a user of another organization everything, and hide the content from it', async () => {
      const { id } = await seedContent(t, type, owner, org);
      const target = id;
      const before = await snapshot(t);
      expectCode(await refused(t, ContentPermissionDocument, { contentType: type, content: target }, { as: foreigner }), 'NOT_FOUND');
      expectCode(await refused(t, GrantPermissionDocument, { contentType: type, content: target, user: 'me', permission: 'view' }, { as: foreigner }), 'NOT_FOUND');
      expectCode(await refused(t, RevokePermissionDocument, { contentType: type, content: target, user: 'me', permission: 'view' }, { as: foreigner }), 'NOT_FOUND');
      expectCode(await refused(t, TransferContentDocument, { contentType: type, content: target, user: 'me' }, { as: foreigner }), 'NOT_FOUND');
      expect(await rulesSeen(target, foreigner)).toBeNull();
      expect(await snapshot(t)).toEqual(before);
    });
  });
});

describe('lists of the four types', () => {
  it('hold only what the caller may view', async () => {
    const nobody = await t.newCaller('nobody');
    const lists = { course: CoursesDocument, event: EventsDocument, scorm: ScormsDocument, video: VideosDocument } as const;
    for (const [type, document] of Object.entries(lists) as [keyof typeof lists, (typeof lists)[keyof typeof lists]][]) {
      const inOrg = await seedContent(t, type, owner, org);
      const personal = await seedContent(t, type, owner);
      const ids = async (as: Caller) => {
        const data = (await ok(t, document as typeof CoursesDocument, { first: 1000 }, { as })) as unknown as Record<string, { edges: { node: { id: string } }[] }>;
        return data[`${type}s`]!.edges.map((e) => e.node.id);
      };
      expect(await ids(editor)).toContain(inOrg.id);
      expect(await ids(editor)).not.toContain(personal.id);
      expect(await ids(nobody)).toEqual([]);
      expect(await ids(foreigner)).not.toContain(inOrg.id);
    }
  });
});
