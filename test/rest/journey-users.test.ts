import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/expect.ts';
import { seed } from '../helpers/seed.ts';
import { journeySeed } from '../helpers/journey-seed.ts';
import { ok } from '../helpers/quiz-seed.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { newId } from '../../src/ids.ts';
import { onPlaySettled, runDueUsers } from '../../src/services/journeys/runtime.ts';
import { runDue } from '../../src/jobs/run.ts';
import { asSystem } from '../../src/jobs/system.ts';
import { serviceTasks } from '../../src/jobs/workers.ts';
import { createPlatform } from '../../src/platform.ts';
import { clock } from '../../src/services/exams/clock.ts';
import type { ConditionRule, JourneyNode } from '../../src/services/journeys/format.ts';

/**
 * Users moving along a published journey, driven by real plays through GraphQL, timers run by the
 * job kit (after a restart, on a new instance), and read back through GET exam:journey:user.
 */

let t: TestApp;
let owner: Caller;
let student: Caller;
let stranger: Caller;
const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.newCaller('owner');
  student = await t.newCaller('student');
  stranger = await t.newCaller('stranger');
});
afterAll(() => t?.close());
afterEach(() => clock.fix(null));

const { newExam, publishedJourney, play, gqlOk } = journeySeed(() => t, () => owner);

const state = (exam: string, as: Caller = student, user: Caller = student) => t.rpc('GET', 'exam:journey:user', { exam, user: user.user.id }, { as });

describe('a user moved along exam -> condition -> wait -> end', () => {
  it('enters on the starting exam, is enrolled in the next exam, waits, and a new instance fires the timer once', async () => {
    const start = await newExam([student]);
    const next = await newExam([]);
    const journey = await publishedJourney(start, [
      { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'x' } },
      { node: 'x', type: 'exam', label: 'Second exam', config: { exam: next, complete_on: 'finish', retake: false, reuse: false }, next: { done: 'c' } },
      { node: 'c', type: 'condition', label: 'Passed?', config: { branches: [{ key: 'pass', label: 'Passed', match: 'all', rules: [{ field: 'step.result', operator: 'gte', value: 50 }] }], else_label: 'Failed' }, next: { pass: 'w', else: 'f' } },
      { node: 'w', type: 'wait', config: { mode: 'duration', minutes: 60 }, next: { next: 'e' } },
      { node: 'e', type: 'end', config: { outcome: 'passed' }, next: {} },
      { node: 'f', type: 'end', config: { outcome: 'failed' }, next: {} },
    ]);

    // Not entered yet: status null and nothing else.
    const before = await state(start);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ exam: start, journey: 'Onboarding', user: student.user.id, status: null });

    const first = await play(start, student, 'a');
    const entered = await state(start);
    expect(entered.body).toMatchObject({ status: 'active', run: 1, step: { node: 'x', type: 'exam', label: 'Second exam', content: next, title: 'Exam', marker: '2', next: { done: 'c' } }, steps_completed: 1, steps_total: 2, steps_remaining: 1, time_end: null });
    expect(entered.body.time_start).toMatch(DATETIME);
    expect(entered.body.step.time_start).toMatch(DATETIME);
    expect(entered.body).not.toHaveProperty('outcome');
    expect(entered.body).not.toHaveProperty('wait_until');
    expect(entered.body.history).toEqual([
      expect.objectContaining({ run: 1, visit: 1, step: 'start', marker: '1', type: 'start', title: 'Exam', content: start, outcome: 'done', status: 'completed', play: first.id, result: 100, successful: true, decisions: [] }),
      expect.objectContaining({ run: 1, visit: 2, step: 'x', type: 'exam', content: next, outcome: null, status: 'active', time_end: null, decisions: [] }),
    ]);
    expect(entered.body.events).toEqual([]);
    // Entering the exam step enrolled the user.
    expect(await t.db.prisma.examUser.count({ where: { examId: next, userId: student.user.id } })).toBe(1);

    await play(next, student, 'a');
    const waiting = await state(start);
    expect(waiting.body).toMatchObject({ status: 'waiting', step: { node: 'w', type: 'wait', content: null, title: null }, steps_completed: 2, steps_remaining: 0 });
    expect(waiting.body.wait_until).toMatch(DATETIME);
    expect(waiting.body.history[1]).toMatchObject({ step: 'x', status: 'completed', result: 100, decisions: [{ decision: 'c', type: 'condition', title: 'Passed?', output: 'pass', label: 'Passed' }] });
    const row = await t.db.prisma.journeyUser.findUniqueOrThrow({ where: { journeyId_userId: { journeyId: journey, userId: student.user.id } } });
    const job = await t.db.prisma.job.findFirstOrThrow({ where: { task: 'journeys.timers', dedupeKey: `${journey}:${row.dueAt!.toISOString()}` } });
    expect(job.runAt.getTime()).toBe(row.dueAt!.getTime());

    // Too early: the wait goes on.
    await t.db.prisma.job.update({ where: { id: job.id }, data: { runAt: new Date(Date.now() - 1000) } });
    clock.fix(new Date(row.dueAt!.getTime() - 60_000));
    await runDue(asSystem(t.platform), serviceTasks);
    expect((await state(start)).body.status).toBe('waiting');

    // The first instance is gone; a new one on the same database fires the timer once.
    clock.fix(new Date(row.dueAt!.getTime() + 1000));
    await t.db.prisma.job.update({ where: { id: job.id }, data: { runAt: new Date(Date.now() - 1000) } });
    const restarted = createPlatform({ config: t.platform.config, db: t.db.prisma, log: t.platform.log, secretKey: randomBytes(32) });
    await runDue(asSystem(restarted), serviceTasks);
    const done = await state(start);
    expect(done.body).toMatchObject({ status: 'completed', outcome: 'passed', step: null, steps_remaining: null });
    expect(done.body.time_end).toMatch(DATETIME);
    expect(done.body.history.map((h: any) => [h.step, h.status, h.outcome])).toEqual([['start', 'completed', 'done'], ['x', 'completed', 'done'], ['w', 'completed', 'next'], ['e', 'completed', 'passed']]);
    expect(done.body.history[2].time_spent).toBe(60);
    await runDue(asSystem(restarted), serviceTasks);
    expect((await state(start)).body.history).toHaveLength(4);
    expect(await t.db.prisma.job.count({ where: { id: job.id } })).toBe(0);
  });

  it('takes the else branch on a failed result and finishes with the end outcome; a failing start exam with complete_on success does not enter', async () => {
    const start = await newExam([student]);
    const strict = await newExam([student]);
    await publishedJourney(start, [
      { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'c' } },
      { node: 'c', type: 'condition', config: { branches: [{ key: 'pass', match: 'all', rules: [{ field: 'step.successful', operator: 'is_true' }] }] }, next: { pass: null, else: 'f' } },
      { node: 'f', type: 'end', config: { outcome: 'failed' }, next: {} },
    ]);
    await publishedJourney(strict, [{ node: 'start', type: 'start', config: { complete_on: 'success' }, next: { done: null } }]);
    await play(start, student, 'wrong');
    expect((await state(start)).body).toMatchObject({ status: 'completed', outcome: 'failed', steps_completed: 1 });
    await play(strict, student, 'wrong');
    expect((await state(strict)).body.status).toBeNull();
    await play(strict, student, 'a');
    expect((await state(strict)).body).toMatchObject({ status: 'completed', outcome: 'completed' });
  });

  it('routes on the skills of the step\'s play: step.skill and node.skill, by points or percent', async () => {
    const start = await newExam([student, stranger]);
    const { questionId: question } = await t.db.prisma.quizItem.findFirstOrThrow({ where: { quiz: { exams: { some: { id: start } } } } });
    const skill = await seed(t).as(owner).skill({ identifier: 'alg', title: 'Algebra' });
    await seed(t).as(owner).attachSkill(question, skill);
    const rule = (field: ConditionRule['field'], param: string, measure: ConditionRule['measure'], value: number): ConditionRule => ({ field, param, measure, operator: 'gte', value });
    await publishedJourney(start, [
      { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'c' } },
      {
        node: 'c', type: 'condition',
        config: { branches: [{ key: 'skilled', match: 'all', rules: [rule('step.skill', 'alg', 'percent', 100), rule('node.skill', 'start:alg', 'points', 1)] }] },
        next: { skilled: 'yes', else: 'no' },
      },
      { node: 'yes', type: 'end', config: { outcome: 'skilled' }, next: {} },
      { node: 'no', type: 'end', config: { outcome: 'unskilled' }, next: {} },
    ]);
    await play(start, student, 'a');
    const skilled = await state(start);
    expect(skilled.body).toMatchObject({ status: 'completed', outcome: 'skilled' });
    expect(skilled.body.history[0].skills).toEqual({ alg: { points: 1, percent: 100 } });
    await play(start, stranger, 'wrong');
    const unskilled = await state(start, owner, stranger);
    expect(unskilled.body).toMatchObject({ status: 'completed', outcome: 'unskilled' });
    expect(unskilled.body.history[0].skills).toEqual({ alg: { points: 0, percent: 0 } });
    await t.db.prisma.questionSkill.delete({ where: { questionId_skillId: { questionId: question, skillId: skill } } });
  });

  it('reads: the user themselves, the owner; a stranger learns nothing; an exam without journey answers NO_JOURNEY', async () => {
    const start = await newExam([student]);
    await publishedJourney(start, [{ node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: null } }]);
    expect((await state(start, owner)).status).toBe(200);
    expectError(await state(start, stranger), 403, 'NOT_FOUND', 'exam');
    const plain = await newExam([]);
    expectError(await state(plain, owner), 403, 'NO_JOURNEY', 'exam');
    expectError(await t.rpc('GET', 'exam:journey:user', { exam: start }, { as: owner }), 403, 'MISSING_ARGUMENT', 'user');
  });

  it('an id of no user is NOT_FOUND, not the status null of a user who has not entered yet', async () => {
    const start = await newExam([student]);
    await publishedJourney(start, [{ node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: null } }]);
    // An examinee who has not entered: status null, and nothing else.
    const waiting = await state(start, owner, student);
    expect(waiting.body).toEqual({ exam: start, journey: 'Onboarding', user: student.user.id, status: null });
    expect(Object.keys(waiting.body)).toEqual(['exam', 'journey', 'user', 'status']);
    expectError(await t.rpc('GET', 'exam:journey:user', { exam: start, user: 'usr_nobody000000000' }, { as: owner }), 403, 'NOT_FOUND', 'user');
    // A user the owner can neither read nor find on the exam is as unknown as no user.
    expectError(await state(start, owner, stranger), 403, 'NOT_FOUND', 'user');
  });
});

describe('class steps', () => {
  it('enrol on entry, complete when the class work is handed in, and stop on a removed or unrenewable membership', async () => {
    const [learner, leaver, lapsed] = (await Promise.all(['class-learner', 'class-leaver', 'class-lapsed'].map((name) => t.newCaller(name)))) as [Caller, Caller, Caller];
    const start = await newExam([learner, leaver, lapsed]);
    const induction = await seed(t).as(owner).class({ title: 'Induction' });
    const classId = induction.id;
    const assignment = await induction.assignment({ title: 'Task' });
    // An expired membership: the service accepts only expiries in the future.
    await t.db.prisma.classMember.create({ data: { classId, userId: lapsed.user.id, approved: true, expiresAt: new Date(Date.now() - 1000) } });
    await publishedJourney(start, [
      { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'c' } },
      { node: 'c', type: 'class', config: { class: classId, reuse: false }, next: { done: 'e' } },
      { node: 'e', type: 'end', config: { outcome: 'trained' }, next: {} },
    ]);
    const of = (user: Caller) => state(start, owner, user);

    // Entering the step adds an approved membership; handing in the class's only assignment completes it.
    await play(start, learner, 'a');
    expect((await of(learner)).body).toMatchObject({ status: 'active', step: { node: 'c', type: 'class', content: classId } });
    expect(await t.db.prisma.classMember.findUniqueOrThrow({ where: { classId_userId: { classId, userId: learner.user.id } } })).toMatchObject({ approved: true });
    await gqlOk('mutation($a: ID!) { submitAssignment(assignment: $a) { status } }', { a: assignment }, learner);
    const trained = await of(learner);
    expect(trained.body).toMatchObject({ status: 'completed', outcome: 'trained' });
    expect(trained.body.history[1]).toMatchObject({ step: 'c', status: 'completed', result: 100 });

    // A membership removed while on the step stops the user there.
    await play(start, leaver, 'a');
    await ok(t, 'DELETE', 'class:members', { class: classId, users: leaver.user.id }, owner);
    expect((await of(leaver)).body).toMatchObject({ status: 'error', error: 'class-membership-missing', step: { node: 'c' } });

    // An expired membership is not renewed by entering the step.
    await play(start, lapsed, 'a');
    expect((await of(lapsed)).body).toMatchObject({ status: 'error', error: 'enroll-failed', step: { node: 'c' } });
    expect(await t.db.prisma.classMember.findUniqueOrThrow({ where: { classId_userId: { classId, userId: lapsed.user.id } } })).toMatchObject({ expiresAt: expect.any(Date) });
  });
});

describe('entering', () => {
  it('two plays settling at once let the user in once', async () => {
    const twin = await t.newCaller('twin-entry');
    const start = await newExam([twin]);
    const journey = await publishedJourney(start, [
      { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'w' } },
      { node: 'w', type: 'wait', config: { mode: 'duration', minutes: 60 }, next: { next: null } },
    ]);
    await play(start, twin, 'a');
    await t.db.prisma.journeyUser.deleteMany({ where: { journeyId: journey } });
    await t.db.prisma.journeyVisit.deleteMany({ where: { journeyId: journey } });
    const { quizId } = await t.db.prisma.exam.findUniqueOrThrow({ where: { id: start } });
    const settled = { userId: twin.user.id, examId: start, quizId };
    await Promise.all([0, 1].map(() => t.db.prisma.$transaction((tx) => onPlaySettled(tx, settled))));
    expect(await t.db.prisma.journeyUser.count({ where: { journeyId: journey } })).toBe(1);
    expect((await t.db.prisma.journeyVisit.findMany({ where: { journeyId: journey } })).map((v) => v.node).sort()).toEqual(['start', 'w']);
  });
});

describe('GET exam:journey', () => {
  it('summarises users per status and per node of the published version', async () => {
    const start = await newExam([student, stranger]);
    const x = await newExam([]);
    const journey = await publishedJourney(start, [
      { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'x' } },
      { node: 'x', type: 'exam', label: 'Next', config: { exam: x, complete_on: 'finish', retake: false, reuse: false }, next: { done: null } },
    ]);
    await play(start, student, 'a');
    await play(start, stranger, 'a');
    const r = await t.rpc('GET', 'exam:journey', { exam: start }, { as: owner });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      exam: start, journey, title: 'Onboarding', active: true, version: 1, published: expect.stringMatching(DATETIME),
      users: { total: 2, active: 2, waiting: 0, error: 0, completed: 0, stopped: 0 },
      nodes: [
        { node: 'start', type: 'start', label: null, users: 0, active: 0, waiting: 0, error: 0 },
        { node: 'x', type: 'exam', label: 'Next', users: 2, active: 2, waiting: 0, error: 0 },
      ],
    });
    expectError(await t.rpc('GET', 'exam:journey', { exam: start }, { as: student }), 403, 'NOT_FOUND', 'exam');
    expectError(await t.rpc('GET', 'exam:journey', { exam: await newExam([]) }, { as: owner }), 403, 'NO_JOURNEY', 'exam');
  });
});

describe('POST exam:journey:publish', () => {
  it('refuses users on removed nodes without remap, moves them with one, counts versions, answers unchanged, warns when disabled', async () => {
    const start = await newExam([student]);
    const x = await newExam([]);
    const y = await newExam([]);
    const v1: JourneyNode[] = [
      { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'x' } },
      { node: 'x', type: 'exam', config: { exam: x, complete_on: 'finish', retake: false, reuse: false }, next: { done: 'e' } },
      { node: 'e', type: 'end', config: { outcome: 'completed' }, next: {} },
    ];
    const journey = await publishedJourney(start, v1);
    await play(start, student, 'a');
    expect((await state(start)).body.step.node).toBe('x');

    const v2: JourneyNode[] = [
      { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'y' } },
      { node: 'y', type: 'exam', config: { exam: y, complete_on: 'finish', retake: false, reuse: false }, next: { done: 'e' } },
      { node: 'e', type: 'end', config: { outcome: 'completed' }, next: {} },
    ];
    await t.db.prisma.journey.update({ where: { id: journey }, data: { nodes: v2 as object[] } });
    const missing = await t.rpc('POST', 'exam:journey:publish', { exam: start }, { as: owner });
    expectError(missing, 403, 'JOURNEY_REMAP_MISSING', 'remap');
    expect(missing.body.error.message).toContain('x');
    expect((await t.db.prisma.journey.findUniqueOrThrow({ where: { id: journey } })).version).toBe(1);
    expectError(await t.rpc('POST', 'exam:journey:publish', { exam: start, remap: JSON.stringify({ x: 'nowhere' }) }, { as: owner }), 403, 'INVALID_ARGUMENT', 'remap.x');
    expectError(await t.rpc('POST', 'exam:journey:publish', { exam: start, remap: '[1' }, { as: owner }), 403, 'INVALID_ARGUMENT', 'remap');
    expectError(await t.rpc('POST', 'exam:journey:publish', { exam: start, remap: '{"x":"y"}' }, { as: stranger }), 403, 'NOT_FOUND', 'exam');

    const published = await t.rpc('POST', 'exam:journey:publish', { exam: start, remap: JSON.stringify({ x: 'y' }) }, { as: owner });
    expect(published.status).toBe(200);
    expect(Object.keys(published.body)).toEqual(['exam', 'journey', 'active', 'version', 'published', 'remapped', 'issues']);
    expect(published.body).toMatchObject({ exam: start, journey, active: true, version: 2, remapped: { x: 'y' }, issues: [] });
    expect(published.body.published).toMatch(DATETIME);
    const moved = await state(start);
    expect(moved.body).toMatchObject({ status: 'active', step: { node: 'y', content: y } });
    expect(moved.body.history.map((h: any) => [h.step, h.status])).toEqual([['start', 'completed'], ['x', 'moved'], ['y', 'active']]);
    expect(moved.body.events).toEqual([{ run: 1, type: 'move', source: 'publish', from: { step: 'x', status: 'active' }, to: { step: 'y', status: 'active' }, operator: owner.user.id, time: expect.stringMatching(DATETIME) }]);
    expect(await t.db.prisma.examUser.count({ where: { examId: y, userId: student.user.id } })).toBe(1);

    const again = await t.rpc('POST', 'exam:journey:publish', { exam: start }, { as: owner });
    expect(again.body).toEqual({ exam: start, journey, active: true, version: 2, published: published.body.published, unchanged: true });

    // Removing y with an empty remap stops the user; disabled journeys publish with a warning.
    await t.db.prisma.journey.update({ where: { id: journey }, data: { enabled: false, nodes: [v2[0]!, v2[2]!].map((n) => (n.node === 'start' ? { ...n, next: { done: 'e' } } : n)) as object[] } });
    const stopped = await t.rpc('POST', 'exam:journey:publish', { exam: start, remap: { y: '' } }, { as: owner, encoding: 'json' });
    expect(stopped.body).toMatchObject({ version: 3, active: false, remapped: { y: null }, warning: expect.any(String) });
    expect((await state(start)).body).toMatchObject({ status: 'stopped', outcome: 'stopped' });
    expect((await state(start)).body.events[1]).toMatchObject({ type: 'stop', source: 'publish', from: { step: 'y', status: 'active' }, to: { step: 'y', status: 'stopped' } });
  });

  it('refuses a draft with error-level issues and changes nothing', async () => {
    const start = await newExam([]);
    const journey = await publishedJourney(start, [{ node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: null } }]);
    await t.db.prisma.journey.update({ where: { id: journey }, data: { nodes: [{ node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'ghost' } }] } });
    const r = await t.rpc('POST', 'exam:journey:publish', { exam: start }, { as: owner });
    expectError(r, 403, 'JOURNEY_NOT_PUBLISHABLE', 'exam');
    expect((await t.db.prisma.journey.findUniqueOrThrow({ where: { id: journey } })).version).toBe(1);
  });
});

describe('timers', () => {
  it('an exam step whose results viewing period begins before it completes is content-locked then', async () => {
    const start = await newExam([student]);
    const next = await newExam([]);
    const reviewFrom = new Date(Date.now() + 3_600_000);
    reviewFrom.setUTCMilliseconds(0);
    const rest = reviewFrom.toISOString().slice(0, 19).replace('T', ' ');
    await ok(t, 'POST', 'exam:settings', { exam: next, view_results: 'datetime', view_results_start: rest }, owner);
    const journey = await publishedJourney(start, [
      { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'x' } },
      { node: 'x', type: 'exam', config: { exam: next, complete_on: 'success', retake: false, reuse: false }, next: { done: null } },
    ]);
    await play(start, student, 'a');
    await play(next, student, 'wrong');
    const row = await t.db.prisma.journeyUser.findUniqueOrThrow({ where: { journeyId_userId: { journeyId: journey, userId: student.user.id } } });
    expect(row).toMatchObject({ status: 'active', node: 'x', dueAt: reviewFrom });

    clock.fix(new Date(reviewFrom.getTime() + 1000));
    await t.db.prisma.job.updateMany({ where: { task: 'journeys.timers', dedupeKey: `${journey}:${reviewFrom.toISOString()}` }, data: { runAt: new Date(Date.now() - 1000) } });
    await runDue(asSystem(t.platform), serviceTasks);
    const locked = await state(start);
    expect(locked.body).toMatchObject({ status: 'error', error: 'content-locked', step: { node: 'x' } });
    expect(locked.body.history[1]).toMatchObject({ step: 'x', status: 'error' });
  });

  it('move users waiting on one node in a constant number of statements, whatever their number', async () => {
    const counts: number[] = [];
    for (const n of [10, 300]) {
      const start = await newExam([]);
      const journey = await publishedJourney(start, [
        { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'w' } },
        { node: 'w', type: 'wait', config: { mode: 'duration', minutes: 5 }, next: { next: 'f' } },
        { node: 'f', type: 'flag', config: { name: 'waited', value: 'yes' }, next: { next: 'e' } },
        { node: 'e', type: 'end', config: { outcome: 'completed' }, next: {} },
      ]);
      const began = new Date(Date.now() - 10 * 60_000);
      const due = new Date(began.getTime() + 5 * 60_000);
      // Users already waiting since ten minutes ago, in bulk: the statement count needs the rows, not the way in.
      const users = Array.from({ length: n }, (_, i) => ({ id: newId('User'), username: `${journey}-${i}`, email: `w${i}@example.com`, passwordHash: 'x', firstName: 'W', lastName: String(i), fullName: `W ${i}`, displayName: `W ${i}` }));
      await t.db.prisma.user.createMany({ data: users });
      await t.db.prisma.journeyUser.createMany({ data: users.map((u) => ({ journeyId: journey, userId: u.id, status: 'waiting', node: 'w', waitUntil: due, dueAt: due, timeStart: began })) });
      await t.db.prisma.journeyVisit.createMany({
        data: users.flatMap((u) => [
          { id: newId('JourneyVisit'), journeyId: journey, userId: u.id, run: 1, visit: 1, node: 'start', type: 'start', status: 'completed', output: 'done', timeStart: began, timeEnd: began },
          { id: newId('JourneyVisit'), journeyId: journey, userId: u.id, run: 1, visit: 2, node: 'w', type: 'wait', status: 'waiting', timeStart: began },
        ]),
      });
      const { result, count } = await countStatements(t, () => runDueUsers(asSystem(t.platform), journey, new Date()));
      expect(result).toBe(n);
      counts.push(count);
      expect(await t.db.prisma.journeyUser.count({ where: { journeyId: journey, status: 'completed', outcome: 'completed', dueAt: null } })).toBe(n);
      expect(await t.db.prisma.journeyVisit.count({ where: { journeyId: journey, node: 'w', status: 'completed' } })).toBe(n);
      expect(await t.db.prisma.journeyVisit.count({ where: { journeyId: journey, node: 'e', status: 'completed' } })).toBe(n);
      // A second run finds nobody due.
      expect(await runDueUsers(asSystem(t.platform), journey, new Date())).toBe(0);
    }
    expect(counts[0]).toBe(counts[1]);
  });
});

describe('notifications and the journey-completed webhook', () => {
  it('notify writes to the outbox; finishing enqueues journey-completed for members of the starting exam organization', async () => {
    const org = await seed(t).as(owner).organization({ title: 'Org' });
    const organization = org.id;
    await org.members([owner], { permissionOrganization: 'admin', permissionContent: 'admin' });
    // The owner does not manage the student: the administrator adds it.
    await seed(t).admin.addMembers(organization, [student]);
    await ok(t, 'POST', 'organization:webhook', { organization, title: 'journeys', trigger_event: 'journey-completed', endpoint: 'https://receiver.example.com/hook' }, t.admin);
    const start = await newExam([student, stranger]);
    await t.db.prisma.exam.update({ where: { id: start }, data: { organizationId: organization } });
    await publishedJourney(start, [
      { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'n1' } },
      { node: 'n1', type: 'notify', config: { target: 'user', message: 'Well done' }, next: { next: 'n2' } },
      { node: 'n2', type: 'notify', config: { target: 'educators', message: 'finished the journey' }, next: { next: 'e' } },
      { node: 'e', type: 'end', config: { outcome: 'certified' }, next: {} },
    ]);
    const before = await t.db.prisma.notification.count();
    await play(start, student, 'a');
    const notes = await t.db.prisma.notification.findMany({ orderBy: { createdAt: 'asc' }, skip: before });
    expect(notes.map((n) => [n.recipient, n.subject, n.body])).toEqual([
      ['student@example.com', 'Onboarding', 'Well done'],
      ['owner@example.com', 'Onboarding', expect.stringContaining('finished the journey')],
    ]);
    const deliveries = await t.db.prisma.webhookDelivery.findMany({ where: { event: 'journey-completed' } });
    expect(deliveries).toHaveLength(1);
    const body = JSON.parse((deliveries[0]!.payload as { body: string }).body);
    expect(body.data).toEqual({ exam: start, journey: 'Onboarding', user: student.user.id, run: 1, outcome: 'certified', time_start: expect.stringMatching(DATETIME), time_end: expect.stringMatching(DATETIME) });

    // Not a member of the organization: the journey completes, nothing is sent.
    await play(start, stranger, 'a');
    expect((await state(start, owner, stranger)).body.status).toBe('completed');
    expect(await t.db.prisma.webhookDelivery.count({ where: { event: 'journey-completed' } })).toBe(1);
  });

  it('completes competency requirements of type journey whose accepted outcomes include the one reached (any, when none are listed)', async () => {
    const org = await seed(t).as(owner).organization({ title: 'Skills' });
    const organization = org.id;
    await seed(t).admin.addMembers(organization, [student]);
    const start = await newExam([student, stranger]);
    await t.db.prisma.exam.update({ where: { id: start }, data: { organizationId: organization } });
    const competency = await org.competency('Onboarded');
    const requirement = (outcomes: string[]) => competency.requirement('journey', { content: start, ...(outcomes.length > 0 && { outcomes }) });
    const [certified, failed, any] = [await requirement(['certified']), await requirement(['failed']), await requirement([])];
    await publishedJourney(start, [
      { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'e' } },
      { node: 'e', type: 'end', config: { outcome: 'certified' }, next: {} },
    ]);
    await play(start, student, 'a');
    await play(start, stranger, 'a');
    const progress = await t.db.prisma.requirementProgress.findMany({ where: { requirementId: { in: [certified, failed, any] } } });
    expect(progress.map((p) => [p.requirementId, p.userId, p.status]).sort()).toEqual(
      [[certified, student.user.id, 'completed'], [any, student.user.id, 'completed']].sort(),
    );
    expect(progress.every((p) => p.completedAt instanceof Date)).toBe(true);
  });
});

describe('a journey saved with PUT exam:journey:graph and published', () => {
  it('publishes version 1 of the saved draft and users enter it', async () => {
    const start = await newExam([student]);
    const nodes = [
      { node: 'start', type: 'start', config: { complete_on: 'success' }, next: { done: 'c' } },
      { node: 'c', type: 'condition', config: { branches: [{ key: 'hi', match: 'all', rules: [{ field: 'step.result', operator: 'gte', value: 90 }] }] }, next: { hi: 'top', else: null } },
      { node: 'top', type: 'end', config: { outcome: 'top' }, next: {} },
    ];
    const saved = await t.rpc('PUT', 'exam:journey:graph', { exam: start, nodes, settings: { title: 'Saved' } }, { as: owner, encoding: 'json' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await play(start, student, 'a');
    expect((await state(start)).body.status).toBeNull();
    const published = await t.rpc('POST', 'exam:journey:publish', { exam: start }, { as: owner });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body).toMatchObject({ exam: start, journey: saved.body.journey, active: true, version: 1 });
    expect(published.body).not.toHaveProperty('remapped');
    expect(published.body.issues.every((i: any) => i.level === 'warning')).toBe(true);
    const graph = await t.rpc('GET', 'exam:journey:graph', { exam: start, graph: 'published' }, { as: owner });
    expect(graph.body).toMatchObject({ version: 1, unpublished_changes: false });
    await play(start, student, 'a');
    expect((await state(start)).body).toMatchObject({ journey: 'Saved', status: 'completed', outcome: 'top' });
  });
});
