import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { daysAgo } from '../helpers/competency-seed.ts';
import { seed, type OrganizationHandle, type UserHandle } from '../helpers/seed.ts';
import { newId } from '../../src/ids.ts';
import {
  CompetencyDocument,
  ComplianceDashboardDocument,
  CreateCompetencyDocument,
  CreateLibraryDocumentDocument,
  CreateRequirementDocument,
  DeleteCompetencyDocument,
  DeleteLibraryDocumentDocument,
  DeleteRequirementDocument,
  OrganizationCompetenciesDocument,
  RecordRequirementProgressDocument,
  SetCompetencyAssignmentsDocument,
  UpdateCompetencyDocument,
  UpdateLibraryDocumentDocument,
  UpdateRequirementDocument,
} from '../../schema/operations/generated.ts';
import { ISO, expectCode, ok, refused, send } from './client.ts';

let t: TestApp;
let org: OrganizationHandle;
let leader: Caller;
let member: Caller;
let trainer: Caller;
let outsider: Caller;
let colleague: UserHandle;

beforeAll(async () => {
  t = await createTestApp();
  org = await seed(t).admin.organization({ title: 'Acme' });
  const ops = await org.department('Ops');
  await org.department('Sales', { id: 'S-1' });
  leader = await t.newCaller('gq-leader');
  member = await t.newCaller('gq-member');
  trainer = await t.newCaller('gq-trainer');
  outsider = await t.newCaller('gq-outsider');
  colleague = await seed(t).user('colleague');
  await org.members([leader, trainer]);
  await org.members([member, colleague], { department: ops });
  await org.leaders(ops, [leader]);
});
afterAll(async () => t?.close());

const zero = { completed: 0, progress: 0, waiting: 0, expired: 0, due: 0, overdue: 0, outdated: 0 };

/** Everything an administrator sets up, through GraphQL only. */
describe('setting up competencies', () => {
  let competency: string;
  let handbook: string;
  const requirement = {} as Record<'exam' | 'cls' | 'doc' | 'journey' | 'training' | 'plain', string>;

  it('creates library documents', async () => {
    const created = await ok(t, CreateLibraryDocumentDocument, { input: { organization: org.id, title: 'Handbook', prefix: 'HR' } });
    expect(created.createLibraryDocument).toEqual({ id: expect.stringMatching(/^doc_/), title: 'Handbook', prefix: 'HR', archived: false });
    handbook = created.createLibraryDocument!.id;
    const updated = await ok(t, UpdateLibraryDocumentDocument, { input: { document: handbook, prefix: '', archived: true } });
    expect(updated.updateLibraryDocument).toEqual({ id: handbook, title: 'Handbook', prefix: null, archived: true });
    await ok(t, UpdateLibraryDocumentDocument, { input: { document: handbook, archived: false } });
  });

  it('creates a competency with attached documents', async () => {
    const r = await ok(t, CreateCompetencyDocument, { input: { organization: org.id, title: 'Safety', externalId: 'SAF', documents: [handbook] } });
    const c = r.createCompetency!;
    competency = c.id;
    expect(c).toMatchObject({
      externalId: 'SAF',
      title: 'Safety',
      description: null,
      assignments: { all: false, departments: 0, members: 0 },
      departments: [],
      members: [],
      documents: [{ id: handbook, title: 'Handbook', prefix: null, archived: false }],
      requirements: [],
      status: { assigned: 0, ...zero },
    });
    const taken = await refused(t, CreateCompetencyDocument, { input: { organization: org.id, title: 'Again', externalId: 'SAF' } });
    expectCode(taken, 'EXTERNAL_ID_TAKEN', 'externalId');
    const unknown = await refused(t, CreateCompetencyDocument, { input: { organization: org.id, title: 'X', documents: ['doc_nothing'] } });
    expectCode(unknown, 'NOT_FOUND', 'documents');
    expect(await t.db.prisma.competency.count({ where: { organizationId: org.id } })).toBe(1);
  });

  it('refuses writes by members who do not manage the organization, changing nothing', async () => {
    // Members see the organization and its competencies; to an outsider both are unknown.
    for (const [as, code] of [[member, 'PERMISSION_DENIED'], [leader, 'PERMISSION_DENIED'], [outsider, 'NOT_FOUND']] as const) {
      const e = await refused(t, CreateCompetencyDocument, { input: { organization: org.id, title: 'Mine' } }, { as });
      expectCode(e, code);
      expectCode(await refused(t, UpdateCompetencyDocument, { input: { competency, title: 'Renamed' } }, { as }), code);
    }
    expect((await t.db.prisma.competency.findUniqueOrThrow({ where: { id: competency } })).title).toBe('Safety');
    expect(await t.db.prisma.competency.count({ where: { organizationId: org.id } })).toBe(1);
  });

  it('adds requirements of every type with their fields', async () => {
    const klass = await org.class({ title: 'First aid', externalId: 'FA' });
    const add = async (input: Record<string, unknown>) =>
      (await ok(t, CreateRequirementDocument, { input: { competency, ...input } as any })).createRequirement!;

    // Exams are content of the registration: a requirement must name an exam of the organization (or of none).
    const quiz = await seed(t).admin.quizSet({ title: 'Safety quiz' });
    const period = { start: new Date('2027-01-01T00:00:00Z'), end: new Date('2027-12-31T00:00:00Z') };
    const realExam = await quiz.exam({ title: 'Safety exam', id: 'SE', organization: org.id, ...period });
    expectCode(await refused(t, CreateRequirementDocument, { input: { competency, type: 'exam', content: 'exm_external1' } as any }), 'NOT_FOUND', 'content');
    const exam = await add({ type: 'exam', title: 'Exam', content: realExam.id, deadlineType: 'days', deadlineDays: 30, validityDays: 365 });
    expect(exam).toMatchObject({
      type: 'exam', priority: 0, deadline: { type: 'days', date: null, days: 30 }, validityDays: 365, content: realExam.id, exam: { id: realExam.id, externalId: 'SE', title: 'Safety exam' },
    });
    const cls = await add({ type: 'class', content: klass.id, optional: true, description: 'In person' });
    expect(cls).toMatchObject({ priority: 1, optional: true, description: 'In person', class: { id: klass.id, externalId: 'FA', title: 'First aid' }, deadline: null });
    const doc = await add({ type: 'document', content: handbook, deadlineType: 'date', deadlineDate: '2027-03-01', documents: [handbook] });
    expect(doc).toMatchObject({ document: { id: handbook, title: 'Handbook', prefix: null, archived: false }, deadline: { type: 'date', date: '2027-03-01', days: null }, documents: [{ id: handbook, title: 'Handbook' }] });
    const journey = await add({ type: 'journey', content: 'exm_start0001', outcomes: ['pass'] });
    expect(journey).toMatchObject({ content: 'exm_start0001', journey: null, exam: null });
    const training = await add({ type: 'todo', title: 'Training', todoType: 'training', todoAttachments: true, todoEducators: [trainer.user.id], todoFields: ['Date'] });
    expect(training.todo).toEqual({ type: 'training', attachments: true, educators: [{ id: trainer.user.id, name: 'gq-trainer Tester' }], fields: ['Date'] });
    expect(training.changedAt).toMatch(ISO);
    const plain = await add({ type: 'todo', title: 'Read the rules', priority: 10 });
    expect(plain.todo).toEqual({ type: 'default', attachments: false, educators: null, fields: null });
    Object.assign(requirement, { exam: exam.id, cls: cls.id, doc: doc.id, journey: journey.id, training: training.id, plain: plain.id });

    const read = await ok(t, CompetencyDocument, { id: competency });
    const node = read.node as any;
    expect(node.requirements.map((r: any) => r.type)).toEqual(['exam', 'class', 'document', 'journey', 'todo', 'todo']);
    expect(node.requirements.map((r: any) => r.priority)).toEqual([0, 1, 2, 3, 4, 10]);
    expect(node.organization).toEqual({ id: org.id, title: 'Acme' });
  });

  it('refuses requirement fields that do not fit the type or the deadline, naming them', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ type: 'class', content: 'cls_unknown' }, 'NOT_FOUND', 'content'],
      [{ type: 'exam' }, 'MISSING_ARGUMENT', 'content'],
      [{ type: 'todo', content: handbook }, 'ARGUMENT_CONFLICT', 'content'],
      [{ type: 'exam', content: 'exm_x', outcomes: ['pass'] }, 'ARGUMENT_CONFLICT', 'outcomes'],
      [{ type: 'exam', content: 'exm_x', todoType: 'training' }, 'ARGUMENT_CONFLICT', 'todoType'],
      [{ type: 'todo', todoEducators: [trainer.user.id] }, 'ARGUMENT_CONFLICT', 'todoEducators'],
      [{ type: 'todo', todoFields: ['Date'] }, 'ARGUMENT_CONFLICT', 'todoFields'],
      [{ type: 'todo', todoType: 'training', todoEducators: ['usr_nobody'] }, 'NOT_FOUND', 'todoEducators'],
      [{ type: 'todo', deadlineType: 'date', deadlineDays: 3 }, 'ARGUMENT_CONFLICT', 'deadlineDays'],
      [{ type: 'todo', deadlineType: 'days' }, 'MISSING_ARGUMENT', 'deadlineDays'],
      [{ type: 'todo', deadlineType: 'days', deadlineDays: 0 }, 'INVALID_ARGUMENT', 'deadlineDays'],
      [{ type: 'todo', documents: ['doc_nothing'] }, 'NOT_FOUND', 'documents'],
    ];
    const before = await t.db.prisma.requirement.count();
    for (const [input, code, argument] of cases) {
      const e = await refused(t, CreateRequirementDocument, { input: { competency, ...input } as any });
      expectCode(e, code, argument);
    }
    expect(await t.db.prisma.requirement.count()).toBe(before);
  });

  it('assigns to all members, departments and members, each part replacing the current one', async () => {
    const set = (input: Record<string, unknown>) => ok(t, SetCompetencyAssignmentsDocument, { input: { competency, ...input } as any });
    let c = (await set({ departments: ['Ops', 'S-1'], members: [trainer.user.id] })).setCompetencyAssignments!;
    expect(c.assignments).toEqual({ all: false, departments: 2, members: 1 });
    expect(c.departments.map((d) => d.title)).toEqual(['Ops', 'Sales']);
    expect(c.members).toEqual([{ id: trainer.user.id, name: 'gq-trainer Tester' }]);
    c = (await set({ departments: ['Ops'] })).setCompetencyAssignments!;
    expect(c.assignments).toEqual({ all: false, departments: 1, members: 1 });
    c = (await set({ all: true, members: [] })).setCompetencyAssignments!;
    expect(c.assignments).toEqual({ all: true, departments: 1, members: 0 });
    c = (await set({ all: false, members: [trainer.user.id] })).setCompetencyAssignments!;
    expect(c.assignments).toEqual({ all: false, departments: 1, members: 1 });

    expectCode(await refused(t, SetCompetencyAssignmentsDocument, { input: { competency, departments: ['Nowhere'] } }), 'NOT_FOUND', 'departments');
    expectCode(await refused(t, SetCompetencyAssignmentsDocument, { input: { competency, members: [outsider.user.id] } }), 'NOT_FOUND', 'members');
    expect(await t.db.prisma.competencyDepartment.count({ where: { competencyId: competency } })).toBe(1);
    expect(await t.db.prisma.competencyMember.count({ where: { competencyId: competency } })).toBe(1);
    // Ops (member, colleague) and the trainer directly.
    expect(((await ok(t, CompetencyDocument, { id: competency })).node as any).status.assigned).toBe(3);
  });

  it('records progress: members start, submit and self-complete; reviewers complete and date completions', async () => {
    const record = (input: Record<string, unknown>, as: Caller = member) => send(t, RecordRequirementProgressDocument, { input: input as any }, { as });
    const started = await record({ requirement: requirement.training, status: 'waiting' });
    expect(started.data?.recordRequirementProgress).toEqual({ requirement: requirement.training, user: member.user.id, status: 'waiting', completedAt: null });
    // A training is completed by its educator, not by the member.
    expectCode((await record({ requirement: requirement.training, status: 'completed' })).errors![0]!, 'PERMISSION_DENIED');
    const done = await record({ requirement: requirement.training, user: member.user.id, status: 'completed' }, trainer);
    expect(done.data?.recordRequirementProgress?.completedAt).toMatch(ISO);
    // Reading a document needs no review.
    expect((await record({ requirement: requirement.doc, status: 'completed' })).data?.recordRequirementProgress?.status).toBe('completed');
    // Members record for themselves only; reviewers date completions, not in the future.
    expectCode((await record({ requirement: requirement.plain, user: colleague.id, status: 'progress' })).errors![0]!, 'PERMISSION_DENIED');
    expectCode((await record({ requirement: requirement.plain, status: 'completed', completedAt: '2026-01-01T00:00:00Z' })).errors![0]!, 'PERMISSION_DENIED');
    const dated = await record({ requirement: requirement.exam, user: colleague.id, status: 'completed', completedAt: daysAgo(400).toISOString() }, leader);
    expect(dated.data?.recordRequirementProgress?.status).toBe('completed');
    const future = await record({ requirement: requirement.exam, user: colleague.id, status: 'completed', completedAt: '2099-01-01T00:00:00Z' }, leader);
    expectCode(future.errors![0]!, 'INVALID_ARGUMENT', 'completedAt');
    // The leader does not lead the trainer's department (none).
    expectCode((await record({ requirement: requirement.plain, user: trainer.user.id, status: 'completed' }, leader)).errors![0]!, 'PERMISSION_DENIED');
    expectCode((await record({ requirement: requirement.plain, user: outsider.user.id, status: 'progress' }, t.admin)).errors![0]!, 'NOT_MEMBER', 'user');
    expectCode((await record({ requirement: requirement.plain, status: 'progress' }, leader)).errors![0]!, 'NOT_ASSIGNED', 'requirement');
    const cleared = await record({ requirement: requirement.doc, status: 'none' });
    expect(cleared.errors).toBeUndefined();
    expect(cleared.data?.recordRequirementProgress).toBeNull();
    expect(await t.db.prisma.requirementProgress.count({ where: { requirementId: requirement.doc } })).toBe(0);

    // member: training completed, nothing else; colleague: exam expired; trainer: nothing.
    const status = ((await ok(t, CompetencyDocument, { id: competency })).node as any).status;
    expect(status).toEqual({ assigned: 3, ...zero, expired: 1, due: 2 });
  });

  it('outdates completions when what must be done changes', async () => {
    const title = await ok(t, UpdateRequirementDocument, { input: { requirement: requirement.training, title: 'Training 2026', validityDays: 0 } });
    const before = (await t.db.prisma.requirement.findUniqueOrThrow({ where: { id: requirement.training } })).changedAt;
    expect(title.updateRequirement).toMatchObject({ title: 'Training 2026', validityDays: null });
    expect(new Date(title.updateRequirement!.changedAt).getTime()).toBe(before.getTime());
    await t.db.prisma.requirementProgress.updateMany({ where: { requirementId: requirement.training }, data: { completedAt: daysAgo(1) } });
    const renewed = await ok(t, UpdateRequirementDocument, { input: { requirement: requirement.training, renew: true } });
    expect(new Date(renewed.updateRequirement!.changedAt).getTime()).toBeGreaterThan(before.getTime());
    const status = ((await ok(t, CompetencyDocument, { id: competency })).node as any).status;
    expect(status.outdated).toBe(1);
    const moved = await ok(t, UpdateRequirementDocument, { input: { requirement: requirement.training, todoType: 'document' } });
    expect(moved.updateRequirement!.todo).toEqual({ type: 'document', attachments: true, educators: null, fields: ['Date'] });
    const conflict = await refused(t, UpdateRequirementDocument, { input: { requirement: requirement.exam, deadlineDate: '2027-01-01' } });
    expectCode(conflict, 'ARGUMENT_CONFLICT', 'deadlineDate');
  });

  it('shows the status only to those who report, and requirements to every member', async () => {
    const asMember = (await ok(t, CompetencyDocument, { id: competency }, { as: member })).node as any;
    expect(asMember.status).toBeNull();
    expect(asMember.requirements).toHaveLength(6);
    const asLeader = (await ok(t, CompetencyDocument, { id: competency }, { as: leader })).node as any;
    expect(asLeader.status.assigned).toBe(2);
    expect((await ok(t, CompetencyDocument, { id: competency }, { as: outsider })).node).toBeNull();
  });

  it('lists the competencies and the library of an organization', async () => {
    const r = (await ok(t, OrganizationCompetenciesDocument, { organization: org.id })).node as any;
    expect(r.competencies.map((c: any) => c.title)).toEqual(['Safety']);
    expect(r.library).toEqual([{ id: handbook, title: 'Handbook', prefix: null, archived: false, createdAt: expect.stringMatching(ISO) }]);
    const refusedList = await send(t, OrganizationCompetenciesDocument, { organization: org.id }, { as: member });
    expectCode(refusedList.errors![0]!, 'PERMISSION_DENIED');
  });

  it('deleting a library document detaches it; a requirement pointing at it reads it as unavailable', async () => {
    await ok(t, DeleteLibraryDocumentDocument, { document: handbook });
    const node = (await ok(t, CompetencyDocument, { id: competency })).node as any;
    expect(node.documents).toEqual([]);
    const doc = node.requirements.find((r: any) => r.id === requirement.doc);
    expect(doc).toMatchObject({ content: handbook, document: null, documents: [] });
    expect((await t.db.prisma.competency.findUniqueOrThrow({ where: { id: competency } })).documentIds).toEqual([]);
  });

  it('deletes requirements and competencies', async () => {
    expect((await ok(t, DeleteRequirementDocument, { requirement: requirement.plain })).deleteRequirement).toBe(requirement.plain);
    expect(await t.db.prisma.requirement.count({ where: { competencyId: competency } })).toBe(5);
    expectCode(await refused(t, DeleteCompetencyDocument, { competency }, { as: leader }), 'PERMISSION_DENIED');
    expect((await ok(t, DeleteCompetencyDocument, { competency })).deleteCompetency).toBe(competency);
    expect(await t.db.prisma.requirement.count({ where: { competencyId: competency } })).toBe(0);
    expectCode(await refused(t, DeleteCompetencyDocument, { competency }), 'NOT_FOUND', 'competency');
  });

  it('answers FEATURE_DISABLED when competencies are off', async () => {
    await t.platform.settings.set('features', { competencies: false });
    try {
      expectCode(await refused(t, CreateCompetencyDocument, { input: { organization: org.id, title: 'Off' } }), 'FEATURE_DISABLED');
      const dash = await send(t, ComplianceDashboardDocument, { organization: org.id });
      expectCode(dash.errors![0]!, 'FEATURE_DISABLED');
    } finally {
      await t.platform.settings.set('features', {});
    }
  });
});

describe('the compliance dashboard', () => {
  /**
   * An organization with `n` departments, each with two members, one competency assigned to it and
   * some progress. The organization and the competency for all go through the services; the rows
   * that grow with `n` are written in bulk: through the services 50 departments' worth take some
   * 20 s, and the statement count needs the rows, not the way in.
   */
  async function organizationWith(n: number): Promise<OrganizationHandle> {
    const o = await seed(t).admin.organization({ title: `Dashboard ${n}` });
    const root = await o.department('Head office');
    const branches = Array.from({ length: n - 1 }, (_, i) => ({ id: newId('Department'), organizationId: o.id, title: `Branch ${String(i + 1).padStart(2, '0')}`, parentId: root }));
    await t.db.prisma.department.createMany({ data: branches });
    const departments = [root, ...branches.map((b) => b.id)];
    const users = Array.from({ length: n * 2 }, (_, i) => ({
      id: newId('User'),
      username: `dash${n}-${i}`,
      email: `dash${n}-${i}@example.com`,
      passwordHash: 'x',
      firstName: 'Dash',
      lastName: String(i),
      fullName: `Dash ${i}`,
      displayName: `Dash ${i}`,
    }));
    await t.db.prisma.user.createMany({ data: users });
    await t.db.prisma.organizationMember.createMany({ data: users.map((u, i) => ({ organizationId: o.id, userId: u.id, departmentId: departments[i >> 1]! })) });
    const all = await o.competency('Code of conduct');
    await all.assign({ all: true });
    const conduct = await all.requirement('todo');
    const skills = departments.map((d, i) => ({ id: newId('Competency'), organizationId: o.id, title: `Skill ${String(i).padStart(2, '0')}`, department: d }));
    await t.db.prisma.competency.createMany({ data: skills.map(({ department: _, ...c }) => c) });
    await t.db.prisma.competencyDepartment.createMany({ data: skills.map((c) => ({ competencyId: c.id, departmentId: c.department })) });
    await t.db.prisma.requirement.createMany({ data: skills.map((c) => ({ id: newId('Requirement'), competencyId: c.id, type: 'todo', deadlineType: 'days', deadlineDays: 10 })) });
    await t.db.prisma.requirementProgress.createMany({
      data: users.filter((_, i) => i % 2 === 0).map((u) => ({ requirementId: conduct, userId: u.id, status: 'completed', completedAt: new Date() })),
    });
    return o;
  }

  async function dashboard(o: OrganizationHandle) {
    return countStatements(t, () => ok(t, ComplianceDashboardDocument, { organization: o.id }));
  }

  it('answers in the same number of SQL statements for 5 and 50 departments', async () => {
    const five = await dashboard(await organizationWith(5));
    const fifty = await dashboard(await organizationWith(50));
    const small = (five.result.node as any).compliance;
    const large = (fifty.result.node as any).compliance;
    expect(small.departments).toHaveLength(5);
    expect(large.departments).toHaveLength(50);
    expect(large.departments[0]).toMatchObject({ department: { title: 'Head office' }, parent: null, level: 0, members: 2 });
    expect(large.departments[1]).toMatchObject({ department: { title: 'Branch 01' }, parent: { title: 'Head office' }, level: 1, members: 2 });
    expect(large.departments[1].competencies.map((c: any) => [c.competency.title, c.status.assigned, c.status.completed, c.status.due])).toEqual([
      ['Code of conduct', 2, 1, 0],
      ['Skill 01', 2, 0, 2],
    ]);
    expect(large.status).toEqual({ assigned: 200, ...zero, completed: 50, due: 100 });
    expect(large.competencies).toHaveLength(51);
    expect(fifty.count, fifty.statements.join('\n')).toBe(five.count);
    // Credentials, the organization, the access rule (3), the members in scope, the counters,
    // the departments, the member counts, the competencies: 11 on both databases.
    expect(five.count, five.statements.join('\n')).toBeLessThanOrEqual(12);
  });
});
