import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { seed } from '../helpers/seed.ts';
import {
  AddClassMembersDocument,
  AssignmentSubmissionsDocument,
  ClassPageDocument,
  ClassesDocument,
  CreateClassAssignmentDocument,
  CreateClassDocument,
  DeleteClassAssignmentDocument,
  DeleteClassDocument,
  GradeAssignmentSubmissionDocument,
  NodeDocument,
  RemoveClassMembersDocument,
  StartAssignmentSubmissionDocument,
  SubmitAssignmentDocument,
  UpdateClassAssignmentDocument,
  UpdateClassDocument,
  UserClassesDocument,
  type CreateClassInput,
} from '../../schema/operations/generated.ts';
import { ISO, expectCode, ok, refused } from './client.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { seedClassCast } from '../helpers/class-seed.ts';

/**
 * Classes through GraphQL: the contract only reads classes and assignments, so creating,
 * changing and deleting them, and producing every assignment status, happens here, through the
 * same services and rules as REST.
 */

let t: TestApp;
let director: Caller;
let teacher: Caller;
let plain: Caller;
let stranger: Caller;
let ann: Caller;
let bob: Caller;
let orgId: string;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  ({ director, teacher, plain, stranger, ann, bob, orgId } = await seedClassCast(t));
});
afterAll(async () => t?.close());

let seq = 0;
async function createClass(as: Caller, input: Partial<CreateClassInput> = {}) {
  return (await ok(t, CreateClassDocument, { input: { title: `Class ${++seq}`, organization: orgId, ...input } }, { as })).createClass;
}

const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString();

async function createAssignment(as: Caller, classId: string, days: [number, number] = [-1, 1], active?: boolean) {
  const now = Date.now();
  const input = { class: classId, title: `Task ${++seq}`, starts: iso(now + days[0] * DAY), ends: iso(now + days[1] * DAY), active };
  return (await ok(t, CreateClassAssignmentDocument, { input }, { as })).createClassAssignment;
}

describe('createClass, updateClass, deleteClass', () => {
  it('creates a class owned by the caller in an organization it teaches, and answers every field', async () => {
    const made = await createClass(teacher, {
      title: 'Algebra',
      externalId: 'alg-1',
      description: 'Numbers',
      start: '2031-01-01T08:00:00.000Z',
      end: '2031-06-30T16:00:00.000Z',
    });
    expect(made).toEqual({
      id: expect.stringMatching(/^cls_/),
      title: 'Algebra',
      externalId: 'alg-1',
      start: '2031-01-01T08:00:00.000Z',
      end: '2031-06-30T16:00:00.000Z',
      link: `${BASE_URL}/classes/${made.id}`,
      description: 'Numbers',
      organization: { id: orgId },
      owner: { id: teacher.user.id },
    });
    // The contract reads it the same way.
    const r = await t.rpc('GET', 'class', { class: made.id }, { as: teacher });
    expect(r.body).toEqual({ class: made.id, id: 'alg-1', title: 'Algebra', start: '2031-01-01 08:00:00', end: '2031-06-30 16:00:00' });
    const audit = await t.db.prisma.auditEvent.findFirst({ where: { subject: made.id, action: 'class.create' } });
    expect(audit?.actorId).toBe(teacher.user.id);
  });

  it('lets anyone create a personal class, but only teachers and managers create one in an organization', async () => {
    const personal = await createClass(stranger, { organization: null });
    expect(personal.organization).toBeNull();
    const before = await t.db.prisma.class.count();
    expectCode(await refused(t, CreateClassDocument, { input: { title: 'Nope', organization: orgId } }, { as: plain }), 'PERMISSION_DENIED');
    expectCode(await refused(t, CreateClassDocument, { input: { title: 'Nope', organization: 'org_missing' } }, { as: teacher }), 'NOT_FOUND', 'organization');
    expectCode(await refused(t, CreateClassDocument, { input: { title: '' } }, { as: teacher }), 'INVALID_ARGUMENT', 'title');
    expectCode(
      await refused(t, CreateClassDocument, { input: { title: 'Backwards', start: '2031-02-01T00:00:00Z', end: '2031-01-01T00:00:00Z' } }, { as: teacher }),
      'INVALID_ARGUMENT',
      'end',
    );
    expectCode(await refused(t, CreateClassDocument, { input: { title: 'Long id', externalId: 'x'.repeat(65) } }, { as: teacher }), 'INVALID_ARGUMENT', 'externalId');
    expect(await t.db.prisma.class.count()).toBe(before);
  });

  it('updates only given fields, null clears optional ones, and only managers may', async () => {
    const cls = await createClass(director, { description: 'Old', externalId: 'old' });
    const updated = await ok(t, UpdateClassDocument, { input: { class: cls.id, title: 'Renamed', description: null, organization: null } }, { as: teacher });
    expect(updated.updateClass).toMatchObject({ id: cls.id, title: 'Renamed', externalId: 'old', description: null, organization: null });
    // Out of the organization, the teacher no longer manages it.
    expectCode(await refused(t, UpdateClassDocument, { input: { class: cls.id, title: 'Again' } }, { as: teacher }), 'NOT_FOUND');
    expectCode(await refused(t, UpdateClassDocument, { input: { class: cls.id, end: '2000-01-01T00:00:00Z', start: '2001-01-01T00:00:00Z' } }, { as: director }), 'INVALID_ARGUMENT', 'end');
    expectCode(await refused(t, UpdateClassDocument, { input: { class: 'cls_none', title: 'x' } }, { as: director }), 'NOT_FOUND', 'class');
    expect((await t.db.prisma.class.findUnique({ where: { id: cls.id } }))?.title).toBe('Renamed');
  });

  it('deletes a class with its memberships and assignments; others are refused', async () => {
    const cls = await createClass(teacher);
    await ok(t, AddClassMembersDocument, { class: cls.id, users: [ann.user.id] }, { as: teacher });
    await createAssignment(teacher, cls.id);
    expectCode(await refused(t, DeleteClassDocument, { class: cls.id }, { as: plain }), 'NOT_FOUND');
    expect((await ok(t, DeleteClassDocument, { class: cls.id }, { as: director })).deleteClass).toBe(cls.id);
    expect(await t.db.prisma.class.findUnique({ where: { id: cls.id } })).toBeNull();
    expect(await t.db.prisma.classMember.count({ where: { classId: cls.id } })).toBe(0);
    expect(await t.db.prisma.classAssignment.count({ where: { classId: cls.id } })).toBe(0);
  });
});

describe('reading classes', () => {
  it('lists visible classes as a connection with search, and node(id) is null for a class the caller may not see', async () => {
    const cls = await createClass(teacher, { title: 'Searchable geometry' });
    const found = await ok(t, ClassesDocument, { search: 'geometry' }, { as: director });
    expect(found.classes.edges.map((e) => e.node.id)).toEqual([cls.id]);
    expect((await ok(t, ClassesDocument, { search: 'geometry' }, { as: plain })).classes.edges).toEqual([]);
    expect((await ok(t, NodeDocument, { id: cls.id }, { as: stranger })).node).toBeNull();
    expect((await ok(t, NodeDocument, { id: cls.id }, { as: teacher })).node).toMatchObject({ id: cls.id });
    expectCode(await refused(t, ClassPageDocument, { id: cls.id }, { as: stranger }), 'NOT_FOUND');
  });

  it('shows managers every member with active/expires, and a member only itself', async () => {
    const cls = await createClass(teacher);
    await ok(t, AddClassMembersDocument, { class: cls.id, users: [ann.user.id, bob.user.id], expiresInDays: 2 }, { as: teacher });
    await t.db.prisma.classMember.update({ where: { classId_userId: { classId: cls.id, userId: bob.user.id } }, data: { approved: false } });
    const page = await ok(t, ClassPageDocument, { id: cls.id }, { as: teacher });
    expect(page.class.members.totalCount).toBe(2);
    const members = page.class.members.edges.map((e) => e.node);
    // Added together, so oldest first falls back to identification string order.
    expect(members.map((m) => [m.user.id, m.active, m.approved])).toEqual(
      [
        [ann.user.id, true, true],
        [bob.user.id, false, false],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    for (const m of members) expect(m.expires).toMatch(ISO);
    const own = await ok(t, ClassPageDocument, { id: cls.id }, { as: ann });
    expect(own.class.members.totalCount).toBe(1);
    expect(own.class.members.edges.map((e) => e.node.user.id)).toEqual([ann.user.id]);
    // An unapproved member does not see the class at all.
    expectCode(await refused(t, ClassPageDocument, { id: cls.id }, { as: bob }), 'NOT_FOUND');
  });

  it("shows a user's memberships on User.classes, filtered like GET user:classes", async () => {
    const seen = await createClass(director, { title: 'Director class' });
    const unseen = await createClass(stranger, { title: 'Stranger class', organization: null });
    await ok(t, AddClassMembersDocument, { class: seen.id, users: [bob.user.id] }, { as: director });
    // bob is unknown to the stranger, who could not enrol it: the administrator does.
    await seed(t).admin.classOf(unseen.id).members([bob], { expires: 1 });
    const byDirector = await ok(t, UserClassesDocument, { id: bob.user.id }, { as: director });
    expect(byDirector.user.classes.map((m) => m.class.id)).not.toContain(unseen.id);
    expect(byDirector.user.classes.find((m) => m.class.id === seen.id)).toEqual({
      class: { id: seen.id, title: 'Director class', link: `${BASE_URL}/classes/${seen.id}` },
      active: true,
      expires: null,
    });
    const own = await ok(t, UserClassesDocument, { id: 'me' }, { as: bob });
    expect(own.user.classes.map((m) => m.class.id)).toEqual(expect.arrayContaining([seen.id, unseen.id]));
    expect(own.user.classes.find((m) => m.class.id === unseen.id)?.expires).toMatch(ISO);
  });
});

describe('addClassMembers and removeClassMembers', () => {
  it('adds with an expiry, updates instead of duplicating, and notifies in the outbox', async () => {
    const cls = await createClass(teacher, { title: 'GraphQL notify' });
    const until = iso(Date.now() + 30 * DAY);
    const first = await ok(t, AddClassMembersDocument, { class: cls.id, users: [ann.user.id], expires: until, notify: true }, { as: teacher });
    expect(first.addClassMembers.members.edges.map((e) => e.node.expires)).toEqual([until]);
    const second = await ok(t, AddClassMembersDocument, { class: cls.id, users: [ann.user.id], expiresInDays: 3 }, { as: teacher });
    expect(second.addClassMembers.members.totalCount).toBe(1);
    const expires = Date.parse(second.addClassMembers.members.edges[0]!.node.expires!);
    expect(Math.abs(expires - (Date.now() + 3 * DAY))).toBeLessThan(60_000);
    const sent = await t.db.prisma.notification.findMany({ where: { subject: 'You are a member of GraphQL notify' } });
    expect(sent.map((n) => [n.channel, n.recipient])).toEqual([['email', 'annmember@example.com']]);
  });

  it('refuses both expiry forms at once, a past expiry, unknown users and non-managers, writing nothing', async () => {
    const cls = await createClass(teacher);
    const count = () => t.db.prisma.classMember.count({ where: { classId: cls.id } });
    const future = iso(Date.now() + DAY);
    expectCode(await refused(t, AddClassMembersDocument, { class: cls.id, users: [ann.user.id], expires: future, expiresInDays: 2 }, { as: teacher }), 'ARGUMENT_CONFLICT', 'expiresInDays');
    expectCode(await refused(t, AddClassMembersDocument, { class: cls.id, users: [ann.user.id], expires: iso(Date.now() - DAY) }, { as: teacher }), 'INVALID_ARGUMENT', 'expires');
    expectCode(await refused(t, AddClassMembersDocument, { class: cls.id, users: [ann.user.id, 'usr_ghost'], notify: true }, { as: teacher }), 'NOT_FOUND', 'users');
    expectCode(await refused(t, AddClassMembersDocument, { class: cls.id, users: [ann.user.id] }, { as: plain }), 'NOT_FOUND');
    expect(await count()).toBe(0);
    await ok(t, AddClassMembersDocument, { class: cls.id, users: [ann.user.id, bob.user.id] }, { as: teacher });
    const removed = await ok(t, RemoveClassMembersDocument, { class: cls.id, users: [ann.user.id] }, { as: teacher });
    expect(removed.removeClassMembers.members.edges.map((e) => e.node.user.id)).toEqual([bob.user.id]);
    expectCode(await refused(t, RemoveClassMembersDocument, { class: cls.id, users: [bob.user.id] }, { as: stranger }), 'NOT_FOUND');
    expect(await count()).toBe(1);
  });
});

describe('assignments and submissions', () => {
  it('creates, updates and deletes assignments in a class the caller manages', async () => {
    const cls = await createClass(teacher);
    const made = await createAssignment(teacher, cls.id, [-1, 5]);
    expect(made).toEqual({
      id: expect.stringMatching(/^asg_/),
      title: made.title,
      description: null,
      starts: expect.stringMatching(ISO),
      ends: expect.stringMatching(ISO),
      active: true,
      status: 'ACTIVE',
      link: `${BASE_URL}/classes/${cls.id}/assignments/${made.id}`,
      class: { id: cls.id },
    });
    const off = await ok(t, UpdateClassAssignmentDocument, { input: { assignment: made.id, active: false, description: 'Closed for now' } }, { as: teacher });
    expect(off.updateClassAssignment).toMatchObject({ active: false, status: 'INACTIVE', description: 'Closed for now' });
    expectCode(
      await refused(t, UpdateClassAssignmentDocument, { input: { assignment: made.id, ends: iso(Date.now() - 5 * DAY) } }, { as: teacher }),
      'INVALID_ARGUMENT',
      'ends',
    );
    expectCode(await refused(t, UpdateClassAssignmentDocument, { input: { assignment: made.id, title: 'x' } }, { as: plain }), 'NOT_FOUND');
    const now = Date.now();
    expectCode(
      await refused(t, CreateClassAssignmentDocument, { input: { class: cls.id, title: 'Backwards', starts: iso(now), ends: iso(now - DAY) } }, { as: teacher }),
      'INVALID_ARGUMENT',
      'ends',
    );
    expectCode(
      await refused(t, CreateClassAssignmentDocument, { input: { class: cls.id, title: 'Not mine', starts: iso(now), ends: iso(now + DAY) } }, { as: stranger }),
      'NOT_FOUND',
    );
    expect((await ok(t, DeleteClassAssignmentDocument, { assignment: made.id }, { as: director })).deleteClassAssignment).toBe(made.id);
    expect(await t.db.prisma.classAssignment.count({ where: { classId: cls.id } })).toBe(0);
  });

  it('moves a member through STARTED, SUBMITTED and GRADED, visible to the member through REST too', async () => {
    const cls = await createClass(teacher);
    await ok(t, AddClassMembersDocument, { class: cls.id, users: [ann.user.id, bob.user.id] }, { as: teacher });
    const task = await createAssignment(teacher, cls.id);
    const statusOf = async (as: Caller) =>
      (await t.rpc('GET', 'class:assignments', { class: cls.id }, { as })).body.assignments.find((a: { assignment: string }) => a.assignment === task.id).status;

    expect((await ok(t, StartAssignmentSubmissionDocument, { assignment: task.id }, { as: ann })).startAssignmentSubmission).toEqual({ id: task.id, status: 'STARTED' });
    // Starting again changes nothing.
    expect((await ok(t, StartAssignmentSubmissionDocument, { assignment: task.id }, { as: ann })).startAssignmentSubmission.status).toBe('STARTED');
    expect(await statusOf(ann)).toBe('STARTED');
    expect(await statusOf(bob)).toBe('ACTIVE');

    expectCode(await refused(t, GradeAssignmentSubmissionDocument, { assignment: task.id, user: ann.user.id, grade: 'B' }, { as: teacher }), 'NOT_SUBMITTED', 'user');
    expect((await ok(t, SubmitAssignmentDocument, { assignment: task.id }, { as: ann })).submitAssignment.status).toBe('SUBMITTED');
    expect(await statusOf(ann)).toBe('SUBMITTED');
    expectCode(await refused(t, SubmitAssignmentDocument, { assignment: task.id }, { as: ann }), 'ALREADY_SUBMITTED', 'assignment');
    expectCode(await refused(t, StartAssignmentSubmissionDocument, { assignment: task.id }, { as: ann }), 'ALREADY_SUBMITTED', 'assignment');

    // Bob submits without starting first.
    expect((await ok(t, SubmitAssignmentDocument, { assignment: task.id }, { as: bob })).submitAssignment.status).toBe('SUBMITTED');

    expectCode(await refused(t, GradeAssignmentSubmissionDocument, { assignment: task.id, user: bob.user.id, grade: 'A' }, { as: ann }), 'PERMISSION_DENIED');
    const graded = await ok(t, GradeAssignmentSubmissionDocument, { assignment: task.id, user: ann.user.id, grade: 'B+' }, { as: teacher });
    expect(graded.gradeAssignmentSubmission).toEqual({
      user: { id: ann.user.id },
      status: 'GRADED',
      grade: 'B+',
      submittedAt: expect.stringMatching(ISO),
      gradedAt: expect.stringMatching(ISO),
    });
    expect(await statusOf(ann)).toBe('GRADED');

    // Graded work keeps its status after the assignment is switched off; others see INACTIVE.
    await ok(t, UpdateClassAssignmentDocument, { input: { assignment: task.id, active: false } }, { as: teacher });
    expect(await statusOf(ann)).toBe('GRADED');
    const fresh = await t.newCaller('latecomer', { createdBy: director });
    await seed(t).admin.addMembers(orgId, [fresh]);
    await ok(t, AddClassMembersDocument, { class: cls.id, users: [fresh.user.id] }, { as: teacher });
    expect(await statusOf(fresh)).toBe('INACTIVE');

    // Managers see every submission; a member only its own.
    const all = await ok(t, AssignmentSubmissionsDocument, { id: task.id }, { as: teacher });
    const subs = all.node?.__typename === 'ClassAssignment' ? all.node.submissions : [];
    expect(subs.map((s) => [s.user.id, s.status, s.grade])).toEqual([
      [ann.user.id, 'GRADED', 'B+'],
      [bob.user.id, 'SUBMITTED', null],
    ]);
    const mine = await ok(t, AssignmentSubmissionsDocument, { id: task.id }, { as: bob });
    expect(mine.node?.__typename === 'ClassAssignment' && mine.node.submissions.map((s) => s.user.id)).toEqual([bob.user.id]);
  });

  it('accepts work only from active members, and only while the assignment is open', async () => {
    const cls = await createClass(teacher);
    await ok(t, AddClassMembersDocument, { class: cls.id, users: [ann.user.id, bob.user.id] }, { as: teacher });
    await t.db.prisma.classMember.update({ where: { classId_userId: { classId: cls.id, userId: bob.user.id } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const open = await createAssignment(teacher, cls.id);
    const future = await createAssignment(teacher, cls.id, [2, 4]);
    const over = await createAssignment(teacher, cls.id, [-4, -2]);
    const off = await createAssignment(teacher, cls.id, [-1, 1], false);
    for (const closed of [future, over, off]) {
      expectCode(await refused(t, StartAssignmentSubmissionDocument, { assignment: closed.id }, { as: ann }), 'ASSIGNMENT_INACTIVE', 'assignment');
      expectCode(await refused(t, SubmitAssignmentDocument, { assignment: closed.id }, { as: ann }), 'ASSIGNMENT_INACTIVE', 'assignment');
    }
    // An expired member no longer sees the class; the teacher is no member at all.
    expectCode(await refused(t, StartAssignmentSubmissionDocument, { assignment: open.id }, { as: bob }), 'NOT_FOUND');
    expectCode(await refused(t, SubmitAssignmentDocument, { assignment: open.id }, { as: teacher }), 'PERMISSION_DENIED');
    expectCode(await refused(t, SubmitAssignmentDocument, { assignment: 'asg_none' }, { as: ann }), 'NOT_FOUND', 'assignment');
    expect(await t.db.prisma.assignmentSubmission.count({ where: { assignment: { classId: cls.id } } })).toBe(0);
  });
});

describe('SQL statements', () => {
  it('loads a class page in the same number of statements whatever the number of members and assignments', async () => {
    const page = async (members: number, assignments: number) => {
      const cls = await createClass(teacher);
      const users = [];
      for (let i = 0; i < members; i++) users.push((await t.newCaller(`pagemember${++seq}`, { createdBy: teacher })).user.id);
      await ok(t, AddClassMembersDocument, { class: cls.id, users }, { as: teacher });
      for (let i = 0; i < assignments; i++) await createAssignment(teacher, cls.id);
      return countStatements(t, () => ok(t, ClassPageDocument, { id: cls.id, members: 100 }, { as: teacher }));
    };
    const small = await page(2, 1);
    const large = await page(25, 8);
    expect(small.result.class.members.edges).toHaveLength(2);
    expect(large.result.class.members.edges).toHaveLength(25);
    expect(large.result.class.assignments).toHaveLength(8);
    expect(large.count, large.statements.join('\n')).toBe(small.count);
  });
});
