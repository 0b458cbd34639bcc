import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { newQuiz, ok as restOk } from '../helpers/quiz-seed.ts';
import { examRule, newExam, newPlay } from '../helpers/exam-seed.ts';
import { clock } from '../../src/services/exams/clock.ts';
import { CreateExamDocument, DeleteExamDocument, ExamPageDocument, ExamsDashboardDocument, UpdateExamDocument } from '../../schema/operations/generated.ts';
import { ISO, expectCode, ok, refused } from './client.ts';

/** Exams through GraphQL: the same services and rules as the REST contract. */

let t: TestApp;
let me: Caller;
let stranger: Caller;
beforeAll(async () => {
  t = await createTestApp();
  me = await t.newCaller('gql-exams');
  stranger = await t.newCaller('gql-exams-stranger');
});
afterAll(async () => t?.close());
afterEach(() => clock.fix(null));

const start = '2030-01-01T08:00:00.000Z';
const end = '2030-01-31T20:00:00.000Z';

describe('createExam, updateExam, deleteExam', () => {
  it('creates, changes and deletes through the services, with their rules', async () => {
    const quiz = await newQuiz(t, me, { title: 'Graph quiz' });
    const created = (await ok(t, CreateExamDocument, { input: { title: 'Graph exam', quiz, start, end } }, { as: me })).createExam!;
    expect(created).toEqual({ id: expect.stringMatching(/^exm_/), title: 'Graph exam', type: 'exam', start, end, quizSet: { id: quiz } });

    const updated = (await ok(t, UpdateExamDocument, { input: { exam: created.id, description: '<i>Hi</i><script>x()</script>', deadline: '2030-01-20T00:00:00Z', enabled: false } }, { as: me })).updateExam!;
    expect(updated).toEqual({ id: created.id, title: 'Graph exam', description: '<i>Hi</i>', deadline: '2030-01-20T00:00:00.000Z', enabled: false });
    const cleared = (await ok(t, UpdateExamDocument, { input: { exam: created.id, description: null, deadline: null } }, { as: me })).updateExam!;
    expect(cleared).toMatchObject({ description: null, deadline: null });

    expectCode(await refused(t, UpdateExamDocument, { input: { exam: created.id, deadline: '2031-01-01T00:00:00Z' } }, { as: me }), 'INVALID_ARGUMENT', 'deadline');
    expectCode(await refused(t, CreateExamDocument, { input: { title: 'Backwards', quiz, start: end, end: start } }, { as: me }), 'INVALID_ARGUMENT', 'end');
    // A caller who may not view the exam learns nothing: the answer for an id of nothing.
    expectCode(await refused(t, UpdateExamDocument, { input: { exam: created.id, title: 'Mine now' } }, { as: stranger }), 'NOT_FOUND', 'exam');
    expectCode(await refused(t, DeleteExamDocument, { exam: created.id }, { as: stranger }), 'NOT_FOUND', 'exam');

    expect((await ok(t, DeleteExamDocument, { exam: created.id }, { as: me })).deleteExam).toBe(created.id);
    expect((await ok(t, ExamPageDocument, { id: created.id }, { as: me })).node).toBeNull();
  });
});

describe('an exam page', () => {
  it('reads status, rounds, skills, examinees, branding, summaries, permissions and tags', async () => {
    const examinee = await t.newCaller('gql-examinee', { createdBy: me });
    const exam = await newExam(t, me, { title: 'Page exam' });
    await restOk(t, 'POST', 'exam:users', { exam, users: examinee.user.id }, me);
    await restOk(t, 'POST', 'exam:branding', { exam, image: 'https://example.com/cover.webp', color: 'yellow', type: 'background' }, me);
    await restOk(t, 'POST', 'exam:summary', { exam, summary: '<p>Calm</p>', llm: 'vendor', model: 'm-2' }, me);
    await examRule(t, exam, stranger, 'view');
    await newPlay(t, exam, examinee);
    clock.fix(new Date('2030-01-05T00:00:00Z'));
    await restOk(t, 'POST', 'exam:round', { exam }, me);
    const node = (await ok(t, ExamPageDocument, { id: exam }, { as: me })).node;
    expect(node).toMatchObject({
      id: exam,
      title: 'Page exam',
      status: { status: 'ACTIVE' },
      round: { current: { round: 2, start: '2030-01-05T00:00:00.000Z', results: 0 }, frozen: false, closed: [{ round: 1, end: '2030-01-05T00:00:00.000Z', results: 1 }] },
      skills: [],
      organization: null,
      users: { edges: [{ node: { id: examinee.user.id, name: examinee.user.fullName } }] },
      branding: { type: 'background', color: 'yellow', imageUrl: 'https://example.com/cover.webp' },
      summaries: [{ language: 'en', summary: '<p>Calm</p>', llm: 'vendor', model: 'm-2' }],
      permissions: [{ level: 'view' }],
      tags: [],
    });
    expect(node && 'round' in node && node.round.current.start).toMatch(ISO);
    // A viewer without report sees the exam but not its examinees.
    const seen = await t.gql(ExamPageDocument, { id: exam }, { as: stranger });
    expect(seen.body.data.node).toMatchObject({ id: exam, users: null });
    expect((seen.body.errors ?? []).map((e: { path: string[]; extensions: { code: string } }) => [e.path.join('.'), e.extensions.code])).toEqual([['node.users', 'PERMISSION_DENIED']]);
  });
});

describe('the exams dashboard', () => {
  it('filters by active and shows status and examinee counts with the Quiz set', async () => {
    const lister = await t.newCaller('gql-dashboard-filter');
    const running = await newExam(t, lister, { title: 'Running', start: '2030-01-01 00:00:00', end: '2030-02-01 00:00:00' });
    const later = await newExam(t, lister, { title: 'Later', start: '2031-01-01 00:00:00', end: '2031-02-01 00:00:00' });
    clock.fix(new Date('2030-01-10T00:00:00Z'));
    const ids = async (active?: boolean) => (await ok(t, ExamsDashboardDocument, { first: 10, active }, { as: lister })).exams.edges.map((e) => e.node.id);
    expect(await ids()).toEqual([later, running]);
    expect(await ids(true)).toEqual([running]);
    expect(await ids(false)).toEqual([later]);
  });

  it('runs the same number of SQL statements for 3 exams as for 30', async () => {
    const owner = await t.newCaller('gql-dashboard');
    const examinees = [await t.newCaller('gql-dash-a', { createdBy: owner }), await t.newCaller('gql-dash-b', { createdBy: owner })];
    const quiz = await newQuiz(t, owner, { title: 'Dashboard quiz' });
    const grow = async (total: number) => {
      while ((await t.db.prisma.exam.count({ where: { ownerId: owner.user.id } })) < total) {
        const exam = await newExam(t, owner, { quiz });
        await restOk(t, 'POST', 'exam:users', { exam, users: examinees.map((e) => e.user.id).join(',') }, owner);
        await newPlay(t, exam, examinees[0]!, { status: 'finished' });
      }
    };
    clock.fix(new Date('2030-01-10T00:00:00Z'));
    const dashboard = () => countStatements(t, () => ok(t, ExamsDashboardDocument, { first: 100 }, { as: owner }));
    await grow(3);
    const three = await dashboard();
    expect(three.result.exams.edges).toHaveLength(3);
    await grow(30);
    const thirty = await dashboard();
    expect(thirty.result.exams.edges).toHaveLength(30);
    for (const { node } of thirty.result.exams.edges) {
      expect(node.status).toEqual({ status: 'ACTIVE', active: true, paused: false, round: 1, users: 2, started: 1, finished: 1, archived: 0 });
      expect(node.quizSet).toEqual({ id: quiz, title: 'Dashboard quiz' });
    }
    expect(thirty.count, thirty.statements.join('\n')).toBe(three.count);
  });
});
