import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/expect.ts';
import { ok } from '../helpers/quiz-seed.ts';
import { seed, type ExamHandle, type QuizSetHandle } from '../helpers/seed.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { newId } from '../../src/ids.ts';
import { runDue } from '../../src/jobs/run.ts';
import { asSystem } from '../../src/jobs/system.ts';
import { createPlatform } from '../../src/platform.ts';
import { serviceTasks } from '../../src/jobs/workers.ts';
import { examSettingsSource, type StoredExamSettings } from '../../src/services/plays/exam-rules.ts';

/**
 * The player through GraphQL (startPlay, answerQuestion, finishPlay, gradeAnswer) and the results
 * read back through the contract (quiz:results:play, quiz:results:user, exam:results:user) with
 * their exact fields and JSON types, on whichever database the run uses.
 */

let t: TestApp;
let owner: Caller;
let student: Caller;
let stranger: Caller;
/** Stored exam settings of these tests (the exam settings domain stores them in the service). */
const examSettings = new Map<string, StoredExamSettings>();

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.newCaller('owner');
  student = await t.newCaller('student');
  stranger = await t.newCaller('stranger');
  // A test's own settings where it set some; otherwise the settings stored through exam:settings.
  const stored = examSettingsSource.read;
  examSettingsSource.read = async (db, exams) => {
    const real = await stored(db, exams);
    return exams.map((e, i) => examSettings.get(e.id) ?? real[i]!);
  };
});
afterAll(() => t?.close());

const START = `mutation($input: StartPlayInput!) { startPlay(input: $input) { id status attempt round deadline timeStart timeEnd questions { index question { id content type choices } } result { questionsTotal questionsCorrect pointsTotal pointsCorrect valid successful grade } } }`;
const ANSWER = `mutation($input: AnswerQuestionInput!) { answerQuestion(input: $input) { question index response points pointsMaximum evaluated timeAnswer } }`;
const FINISH = `mutation($input: FinishPlayInput!) { finishPlay(input: $input) { id status timeEnd answers { question points evaluated } result { questionsTotal questionsCorrect pointsTotal pointsCorrect valid successful grade } } }`;
const GRADE = `mutation($input: GradeAnswerInput!) { gradeAnswer(input: $input) { question points evaluated } }`;

async function gqlOk(query: string, variables: Record<string, unknown>, as: Caller) {
  const r = await t.gql(query, variables, { as });
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  return r.body.data;
}
async function gqlCode(query: string, variables: Record<string, unknown>, as: Caller): Promise<string> {
  const r = await t.gql(query, variables, { as });
  expect(r.body.errors?.length, JSON.stringify(r.body)).toBeGreaterThan(0);
  return r.body.errors![0].extensions.code;
}

/** A question of the owner with the given type, answers and POST question fields. */
function question(externalId: string, type: string, answer: string[], fields: Record<string, unknown> = {}, options: string[] = []) {
  return seed(t).as(owner).question(externalId, { type, content: `Q ${externalId}`, answer, options, ...fields });
}

/** A Quiz set of the owner with these questions and settings; the student may view it (practice plays need view), by a rule of the administrator. */
async function quizWith(questions: string[], settings: Record<string, unknown> = {}, args: Record<string, unknown> = {}): Promise<QuizSetHandle> {
  const quiz = await seed(t).as(owner).quizSet({ title: 'Plays', ...args });
  if (questions.length) await quiz.assign(questions);
  if (Object.keys(settings).length) await quiz.settings(settings);
  await seed(t).admin.grant('quiz', quiz.id, student, 'view');
  return quiz;
}

/** A running exam of the Quiz set; the administrator adds the examinees (the owner may not read them). */
async function examOf(quiz: QuizSetHandle, examinees: Caller[], args: Record<string, unknown> = {}): Promise<ExamHandle> {
  const exam = await quiz.exam({ title: 'Exam', ...args });
  if (examinees.length) await exam.examinees(examinees, t.admin);
  return exam;
}

describe('practice plays', () => {
  it('scores answers with the answer checker, points and hint penalties, grades by the Quiz set preset, and reads back through REST', async () => {
    const q1 = await question('p1', 'generic', ['Paris'], { points: 2, hintPenalty: 'EACH:25' });
    const q2 = await question('p2', 'multiple-choice', ['a', 'b'], {}, ['c']);
    const q3 = await question('p3', 'generic', ['x']);
    const quiz = await quizWith([q1, q2, q3], { grading: 'gp_passfail' });

    const started = (await gqlOk(START, { input: { quiz: quiz.id } }, student)).startPlay;
    expect(started.id).toMatch(/^ply_/);
    expect(started.status).toBe('open');
    expect(started.attempt).toBe(1);
    expect(started.deadline).toBeNull();
    expect(started.result).toBeNull();
    expect(started.questions.map((q: any) => [q.index, q.question.id])).toEqual([[1, q1], [2, q2], [3, q3]]);
    expect([...started.questions[1].question.choices].sort()).toEqual(['a', 'b', 'c']);
    expect(started.questions[0].question.choices).toBeNull();

    const a1 = (await gqlOk(ANSWER, { input: { play: started.id, question: q1, response: 'Paris', hints: 1 } }, student)).answerQuestion;
    expect(a1).toMatchObject({ question: q1, index: 1, response: 'Paris', points: null, pointsMaximum: 2, evaluated: false });
    expect(typeof a1.timeAnswer).toBe('number');
    // A second answer replaces the first.
    await gqlOk(ANSWER, { input: { play: started.id, question: q2, response: ['c'] } }, student);
    await gqlOk(ANSWER, { input: { play: started.id, question: q2, response: ['a', 'b'] } }, student);

    // A start while the play is open continues it.
    expect((await gqlOk(START, { input: { quiz: quiz.id } }, student)).startPlay.id).toBe(started.id);

    const finished = (await gqlOk(FINISH, { input: { play: started.id } }, student)).finishPlay;
    expect(finished.status).toBe('finished');
    // q1: 2 points less 25% for one hint = 1.5; q2 full; q3 unanswered 0. 2.5 of 4 = 62.5%: pass.
    expect(finished.result).toEqual({ questionsTotal: 3, questionsCorrect: 1, pointsTotal: 4, pointsCorrect: 2.5, valid: true, successful: true, grade: 'pass' });
    expect(finished.answers).toEqual([
      { question: q1, points: 1.5, evaluated: true },
      { question: q2, points: 1, evaluated: true },
    ]);

    // Read back through the contract.
    const r = await t.rpc('GET', 'quiz:results:play', { play: started.id }, { as: student });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['play', 'user', 'time_start', 'time_end', 'questions_total', 'questions_correct', 'points_total', 'points_correct', 'valid', 'successful', 'questions']);
    expect(r.body).toMatchObject({ play: started.id, user: student.user.id, questions_total: 3, questions_correct: 1, points_total: 4, points_correct: 2.5, valid: true, successful: true });
    expect(r.body.time_start).toMatch(DATETIME);
    expect(r.body.time_end).toMatch(DATETIME);
    expect(r.body.questions[0]).toEqual({ index: 1, id: 'p1', question: q1, time_answer: expect.any(Number), points_maximum: 2, points: 1.5 });
    expect(r.body.questions[2]).toEqual({ index: 3, id: 'p3', question: q3, points_maximum: 1, points: 0 });

    const list = await t.rpc('GET', 'quiz:results:user', { quiz: quiz.id, user: student.user.id }, { as: student });
    expect(list.status).toBe(200);
    expect(list.body.results).toHaveLength(1);
    expect(Object.keys(list.body.results[0])).toEqual(['play', 'user', 'time_start', 'time_end', 'questions_total', 'questions_correct', 'points_total', 'points_correct', 'valid', 'successful']);

    // The owner (admin on the Quiz set) reads it; a stranger learns nothing of it.
    expect((await t.rpc('GET', 'quiz:results:play', { play: started.id }, { as: owner })).status).toBe(200);
    expectError(await t.rpc('GET', 'quiz:results:play', { play: started.id }, { as: stranger }), 403, 'NOT_FOUND', 'play');
    expectError(await t.rpc('GET', 'quiz:results:play', { play: 'ply_nothing' }, { as: stranger }), 403, 'NOT_FOUND', 'play');

    // A second start is attempt 2 in a new play.
    const again = (await gqlOk(START, { input: { quiz: quiz.id } }, student)).startPlay;
    expect(again.id).not.toBe(started.id);
    expect(again.attempt).toBe(2);
  });

  it('refuses a Quiz set the caller may not view as unknown, and an input with both or neither of exam and quiz', async () => {
    const quiz = await quizWith([]);
    expect(await gqlCode(START, { input: { quiz: quiz.id } }, stranger)).toBe('NOT_FOUND');
    // graphql-js 16 prints @oneOf but does not enforce it; the service does, naming the input.
    expect(await gqlCode(START, { input: { quiz: quiz.id, exam: 'exm_x' } }, student)).toBe('INVALID_ARGUMENT');
    expect(await gqlCode(START, { input: {} }, student)).toBe('INVALID_ARGUMENT');
    expect(await t.db.prisma.play.count({ where: { quizId: quiz.id } })).toBe(0);
  });

  it('free-text answers wait for gradeAnswer by an educator; the play is valid once graded', async () => {
    const q1 = await question('f1', 'free-text', ['A model answer'], { points: 4 });
    const q2 = await question('f2', 'generic', ['y']);
    const quiz = await quizWith([q1, q2], { grading: 'gp_passfail' });
    const play = (await gqlOk(START, { input: { quiz: quiz.id } }, student)).startPlay.id;
    await gqlOk(ANSWER, { input: { play, question: q1, response: 'An essay' } }, student);
    await gqlOk(ANSWER, { input: { play, question: q2, response: 'y' } }, student);
    const finished = (await gqlOk(FINISH, { input: { play } }, student)).finishPlay;
    expect(finished.result).toMatchObject({ valid: false, successful: null, grade: null, pointsCorrect: 1, pointsTotal: 5 });
    expect(finished.answers[0]).toEqual({ question: q1, points: 0, evaluated: false });

    expect(await gqlCode(GRADE, { input: { play, question: q1, points: 3 } }, stranger)).toBe('NOT_FOUND');
    expect(await gqlCode(GRADE, { input: { play, question: q1, points: 3 } }, student)).toBe('PERMISSION_DENIED');
    expect(await gqlCode(GRADE, { input: { play, question: q1, points: 5 } }, owner)).toBe('INVALID_ARGUMENT');
    const graded = (await gqlOk(GRADE, { input: { play, question: q1, points: 3 } }, owner)).gradeAnswer;
    expect(graded).toEqual({ question: q1, points: 3, evaluated: true });
    const r = await t.rpc('GET', 'quiz:results:play', { play }, { as: student });
    expect(r.body).toMatchObject({ valid: true, successful: true, points_correct: 4, points_total: 5, questions_correct: 1 });
  });

  it('TURNS: answers in order, no going back; roundtime skips a question left too long', async () => {
    const qs = [await question('t1', 'generic', ['1']), await question('t2', 'generic', ['2']), await question('t3', 'generic', ['3'])];
    const quiz = await quizWith(qs, { roundtime: 60 }, { mode: 'TURNS' });
    const play = (await gqlOk(START, { input: { quiz: quiz.id } }, student)).startPlay.id;
    expect(await gqlCode(ANSWER, { input: { play, question: qs[1], response: '2' } }, student)).toBe('QUESTION_NOT_REACHED');
    await gqlOk(ANSWER, { input: { play, question: qs[0], response: '1' } }, student);
    expect(await gqlCode(ANSWER, { input: { play, question: qs[0], response: '1' } }, student)).toBe('QUESTION_CLOSED');
    // The second question has been shown for 61 seconds: its roundtime is over, the third is current.
    await t.db.prisma.play.update({ where: { id: play }, data: { positionStart: new Date(Date.now() - 61_000) } });
    expect(await gqlCode(ANSWER, { input: { play, question: qs[1], response: '2' } }, student)).toBe('QUESTION_CLOSED');
    const third = (await gqlOk(ANSWER, { input: { play, question: qs[2], response: '3' } }, student)).answerQuestion;
    expect(third.index).toBe(3);
    expect(third.timeAnswer).toBeLessThan(5);
  });

  it('shuffles once per play when the Quiz set shuffles', async () => {
    const qs: string[] = [];
    for (let i = 0; i < 12; i++) qs.push(await question(`s${i}`, 'generic', ['a']));
    const quiz = await quizWith(qs, { shuffle: true });
    const started = (await gqlOk(START, { input: { quiz: quiz.id } }, student)).startPlay;
    const order = started.questions.map((q: any) => q.question.id);
    expect([...order].sort()).toEqual([...qs].sort());
    expect(order).not.toEqual(qs);
    expect((await gqlOk(START, { input: { quiz: quiz.id } }, student)).startPlay.questions.map((q: any) => q.question.id)).toEqual(order);
  });
});

describe('time limits', () => {
  it('refuses answers after the limit and finishes a play left open with a durable job, run by another instance after a restart', async () => {
    const q = await question('tl1', 'generic', ['a']);
    const quiz = await quizWith([q], { timelimit: 60 });
    const started = (await gqlOk(START, { input: { quiz: quiz.id } }, student)).startPlay;
    const deadline = new Date(started.deadline).getTime();
    expect(deadline - new Date(started.timeStart).getTime()).toBe(60_000);
    await gqlOk(ANSWER, { input: { play: started.id, question: q, response: 'a' } }, student);
    const job = await t.db.prisma.job.findFirst({ where: { task: 'plays.finish-overdue', dedupeKey: started.id } });
    expect(job?.runAt.getTime()).toBe(deadline);

    // The limit passes (moved into the past rather than waited for).
    const past = new Date(Date.now() - 1000);
    await t.db.prisma.play.update({ where: { id: started.id }, data: { deadline: past } });
    await t.db.prisma.job.update({ where: { id: job!.id }, data: { runAt: past } });
    expect(await gqlCode(ANSWER, { input: { play: started.id, question: q, response: 'b' } }, student)).toBe('TIME_LIMIT_REACHED');

    // A new instance on the same database (the first one gone) runs the job from the table.
    const restarted = createPlatform({ config: t.platform.config, db: t.db.prisma, log: t.platform.log, secretKey: randomBytes(32) });
    await runDue(asSystem(restarted), serviceTasks);
    const r = await t.rpc('GET', 'quiz:results:play', { play: started.id }, { as: student });
    expect(r.body).toMatchObject({ valid: true, points_correct: 1, questions_correct: 1 });
    const row = await t.db.prisma.play.findUniqueOrThrow({ where: { id: started.id } });
    expect(row.status).toBe('finished');
    expect(row.timeEnd?.getTime()).toBe(past.getTime());
    expect(await t.db.prisma.job.count({ where: { dedupeKey: started.id } })).toBe(0);
  });
});

describe('exam plays', () => {
  it('needs an examinee of an ACTIVE exam; continues the open play; new attempts count per round', async () => {
    const q = await question('e1', 'generic', ['a']);
    const quiz = await quizWith([q]);
    const { id: exam } = await examOf(quiz, [student]);
    expect(await gqlCode(START, { input: { exam } }, stranger)).toBe('NOT_FOUND');
    expect(await gqlCode(START, { input: { exam: 'exm_nothing' } }, stranger)).toBe('NOT_FOUND');
    expect(await gqlCode(START, { input: { exam } }, owner)).toBe('NOT_AN_EXAMINEE');

    const first = (await gqlOk(START, { input: { exam } }, student)).startPlay;
    expect(first).toMatchObject({ attempt: 1, round: 1, status: 'open' });
    expect((await gqlOk(START, { input: { exam } }, student)).startPlay.id).toBe(first.id);
    // Hints are not shown in exams.
    expect(await gqlCode(ANSWER, { input: { play: first.id, question: q, response: 'a', hints: 1 } }, student)).toBe('ARGUMENT_CONFLICT');
    await gqlOk(ANSWER, { input: { play: first.id, question: q, response: 'a' } }, student);
    await gqlOk(FINISH, { input: { play: first.id } }, student);
    expect(await gqlCode(FINISH, { input: { play: first.id } }, student)).toBe('PLAY_FINISHED');
    expect(await gqlCode(ANSWER, { input: { play: first.id, question: q, response: 'a' } }, student)).toBe('PLAY_FINISHED');
    const second = (await gqlOk(START, { input: { exam } }, student)).startPlay;
    expect(second.attempt).toBe(2);

    const results = await t.rpc('GET', 'exam:results:user', { exam, user: student.user.id }, { as: owner });
    expect(results.status).toBe(200);
    expect(results.body.results.map((r: any) => [r.play, r.attempt, r.valid])).toEqual([[first.id, 1, true], [second.id, 2, false]]);
    expect(Object.keys(results.body.results[0])).toEqual(['play', 'user', 'time_start', 'time_end', 'questions_total', 'questions_correct', 'points_total', 'points_correct', 'valid', 'successful', 'attempt']);
    expect(results.body.results[1].time_end).toBeNull();
    const detailed = await t.rpc('GET', 'quiz:results:play', { play: first.id }, { as: student });
    expect(detailed.body.attempt).toBe(1);
    expectError(await t.rpc('GET', 'exam:results:user', { exam, user: student.user.id }, { as: stranger }), 403, 'NOT_FOUND', 'exam');

    // The exam paused (past its start deadline), switched off, or over: no new attempt.
    await gqlOk(FINISH, { input: { play: second.id } }, student);
    await t.db.prisma.exam.update({ where: { id: exam }, data: { deadline: new Date(Date.now() - 1000) } });
    expect(await gqlCode(START, { input: { exam } }, student)).toBe('EXAM_NOT_ACTIVE');
    await t.db.prisma.exam.update({ where: { id: exam }, data: { deadline: null, active: false } });
    expect(await gqlCode(START, { input: { exam } }, student)).toBe('EXAM_NOT_ACTIVE');
    expect(await t.db.prisma.play.count({ where: { examId: exam } })).toBe(2);
  });

  it('grades by the exam setting over the Quiz set, and a questionless exam finishes on start', async () => {
    const q = await question('g1', 'generic', ['a']);
    const quiz = await quizWith([q], { grading: 'gp_passfail' });
    const { id: exam } = await examOf(quiz, [student]);
    examSettings.set(exam, { grading: 'gp_hu_school' });
    const play = (await gqlOk(START, { input: { exam } }, student)).startPlay.id;
    await gqlOk(ANSWER, { input: { play, question: q, response: 'a' } }, student);
    expect((await gqlOk(FINISH, { input: { play } }, student)).finishPlay.result).toMatchObject({ grade: '5', successful: true });

    const { id: none } = await examOf(quiz, [student]);
    examSettings.set(none, { grading: 'none' });
    const p2 = (await gqlOk(START, { input: { exam: none } }, student)).startPlay.id;
    await gqlOk(ANSWER, { input: { play: p2, question: q, response: 'b' } }, student);
    expect((await gqlOk(FINISH, { input: { play: p2 } }, student)).finishPlay.result).toMatchObject({ grade: null, successful: null, valid: true });

    const { id: questionless } = await examOf(quiz, [student]);
    examSettings.set(questionless, { questionless: true });
    const started = (await gqlOk(START, { input: { exam: questionless } }, student)).startPlay;
    expect(started.status).toBe('finished');
    expect(started.questions).toEqual([]);
    expect(started.result).toMatchObject({ questionsTotal: 0, pointsTotal: 0, valid: true });
  });

  it('two simultaneous starts make one attempt', async () => {
    const quiz = await quizWith([await question('cc1', 'generic', ['a'])]);
    const racer = await t.newCaller('racer');
    const { id: exam } = await examOf(quiz, [racer]);
    const [a, b] = await Promise.all([gqlOk(START, { input: { exam } }, racer), gqlOk(START, { input: { exam } }, racer)]);
    expect(a.startPlay.id).toBe(b.startPlay.id);
    expect(await t.db.prisma.play.count({ where: { examId: exam } })).toBe(1);
  });

  it('holds an exam account to its blocking exam during the period', async () => {
    const quiz = await quizWith([await question('b1', 'generic', ['a'])]);
    const account = await t.newCaller('examaccount');
    await t.db.prisma.user.update({ where: { id: account.user.id }, data: { generated: true } });
    await seed(t).admin.grant('quiz', quiz.id, account, 'view');
    const blocking = await examOf(quiz, [account]);
    const other = await examOf(quiz, [account]);
    examSettings.set(other.id, { nonblocking: true });
    expect(await gqlCode(START, { input: { exam: other.id } }, account)).toBe('EXAM_ACCOUNT_BLOCKED');
    expect(await gqlCode(START, { input: { quiz: quiz.id } }, account)).toBe('EXAM_ACCOUNT_BLOCKED');
    expect((await gqlOk(START, { input: { exam: blocking.id } }, account)).startPlay.status).toBe('open');
    // An ordinary account is not held.
    const person = await t.newCaller('person');
    await blocking.examinees([person], t.admin);
    await other.examinees([person], t.admin);
    expect((await gqlOk(START, { input: { exam: other.id } }, person)).startPlay.status).toBe('open');
  });
});

describe('archive and forget', () => {
  it('archives only the current exam result and only with the archive setting; forgets practice results by administrators only', async () => {
    const q = await question('a1', 'generic', ['a']);
    const quiz = await quizWith([q]);
    const { id: exam } = await examOf(quiz, [student]);
    const p1 = (await gqlOk(START, { input: { exam } }, student)).startPlay.id;
    await gqlOk(FINISH, { input: { play: p1 } }, student);
    const p2 = (await gqlOk(START, { input: { exam } }, student)).startPlay.id;
    await gqlOk(FINISH, { input: { play: p2 } }, student);

    expectError(await t.rpc('DELETE', 'quiz:results:play', { play: p2 }, { as: owner }), 403, 'ARCHIVE_DISABLED');
    examSettings.set(exam, { archive: true });
    expectError(await t.rpc('DELETE', 'quiz:results:play', { play: p1 }, { as: owner }), 403, 'NOT_CURRENT_RESULT');
    expectError(await t.rpc('DELETE', 'quiz:results:play', { play: p2 }, { as: stranger }), 403, 'NOT_FOUND', 'play');
    expectError(await t.rpc('DELETE', 'quiz:results:play', { play: p2 }, { as: student }), 403, 'PERMISSION_DENIED');
    const archived = await t.rpc('DELETE', 'quiz:results:play', { play: p2 }, { as: owner });
    expect(archived.status).toBe(200);
    expect(archived.body).toEqual({ play: p2, archived: true, success: true });
    const list = await t.rpc('GET', 'exam:results:user', { exam, user: student.user.id }, { as: owner });
    expect(list.body.results.map((r: any) => r.play)).toEqual([p1]);
    const kept = await t.rpc('GET', 'quiz:results:play', { play: p2 }, { as: owner });
    expect(kept.body.valid).toBe(false);

    const practice = (await gqlOk(START, { input: { quiz: quiz.id } }, student)).startPlay.id;
    await gqlOk(FINISH, { input: { play: practice } }, student);
    expectError(await t.rpc('DELETE', 'quiz:results:play', { play: practice }, { as: owner }), 403, 'PERMISSION_DENIED');
    const forgotten = await t.rpc('DELETE', 'quiz:results:play', { play: practice });
    expect(forgotten.body).toEqual({ play: practice, forgotten: true, success: true });
    expect((await t.rpc('GET', 'quiz:results:user', { quiz: quiz.id, user: student.user.id }, { as: student })).body.results).toEqual([]);
    expectError(await t.rpc('GET', 'quiz:results:play', { play: practice }, { as: student }), 403, 'NOT_FOUND', 'play');
    const stats = await t.rpc('GET', 'quiz:results:play', { play: practice }, { as: owner });
    expect(stats.body).toMatchObject({ play: practice, user: null });
  });
});

describe('settings stored through the contract, and restoring', () => {
  it('archives by the archive setting set with POST exam:settings; adding the examinee again restores the result', async () => {
    const q = await question('r1', 'generic', ['a']);
    const { id: exam } = await examOf(await quizWith([q]), [student]);
    const play = (await gqlOk(START, { input: { exam } }, student)).startPlay.id;
    await gqlOk(FINISH, { input: { play } }, student);
    expectError(await t.rpc('DELETE', 'quiz:results:play', { play }, { as: owner }), 403, 'ARCHIVE_DISABLED');
    const set = await t.rpc('POST', 'exam:settings', { exam, archive: true }, { as: owner });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await t.rpc('DELETE', 'quiz:results:play', { play }, { as: owner })).body).toEqual({ play, archived: true, success: true });
    expect((await t.rpc('GET', 'exam:results:user', { exam, user: student.user.id }, { as: owner })).body.results).toEqual([]);

    const added = await t.rpc('POST', 'exam:users', { exam, users: student.user.id });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const restored = await t.rpc('GET', 'exam:results:user', { exam, user: student.user.id }, { as: owner });
    expect(restored.body.results.map((r: any) => [r.play, r.valid])).toEqual([[play, true]]);
  });
});

describe('result webhooks', () => {
  it('finishing enqueues exam-play-result or quiz-play-result to the organization when the user is a member, with the result as data', async () => {
    const org = await seed(t).as(owner).organization({ title: 'Org' });
    await org.members([owner], { permissionOrganization: 'admin', permissionContent: 'admin' });
    const organization = org.id;
    for (const event of ['exam-play-result', 'quiz-play-result']) {
      await ok(t, 'POST', 'organization:webhook', { organization, title: event, trigger_event: event, endpoint: 'https://receiver.example.com/hook' }, t.admin);
    }
    const q = await question('w1', 'generic', ['a']);
    const quiz = await quizWith([q], {}, { organization });
    const { id: exam } = await examOf(quiz, [student], { organization });

    // Not a member: nothing is sent.
    const before = (await gqlOk(START, { input: { quiz: quiz.id } }, student)).startPlay.id;
    await gqlOk(FINISH, { input: { play: before } }, student);
    expect(await t.db.prisma.webhookDelivery.count()).toBe(0);

    await seed(t).admin.addMembers(organization, [student]);
    const play = (await gqlOk(START, { input: { exam } }, student)).startPlay.id;
    await gqlOk(ANSWER, { input: { play, question: q, response: 'a' } }, student);
    await gqlOk(FINISH, { input: { play } }, student);
    const practice = (await gqlOk(START, { input: { quiz: quiz.id } }, student)).startPlay.id;
    await gqlOk(FINISH, { input: { play: practice } }, student);

    const deliveries = await t.db.prisma.webhookDelivery.findMany({ orderBy: { createdAt: 'asc' } });
    expect(deliveries.map((d) => d.event)).toEqual(['exam-play-result', 'quiz-play-result']);
    const body = JSON.parse((deliveries[0]!.payload as { body: string }).body);
    expect(body.event).toBe('exam-play-result');
    expect(body.data).toEqual({
      play, user: student.user.id, time_start: expect.stringMatching(DATETIME), time_end: expect.stringMatching(DATETIME),
      questions_total: 1, questions_correct: 1, points_total: 1, points_correct: 1, valid: true, successful: null, exam, attempt: 1, quiz: quiz.id, grade: null,
    });
    const practiceBody = JSON.parse((deliveries[1]!.payload as { body: string }).body);
    expect(practiceBody.data).toMatchObject({ play: practice, quiz: quiz.id, valid: true });
    expect(practiceBody.data).not.toHaveProperty('exam');
  });
});

describe('results connections', () => {
  it('Exam.results filters by round, archived and user, and costs the same statements for 10 and 200 results', async () => {
    const quiz = await quizWith([]);
    // The results dashboard: the exam, its results, each user, grade and certificate.
    const query = `query($id: ID!, $user: ID) { node(id: $id) { ... on Exam { title results(first: 100, user: $user) { edges { node { id attempt user { username } result { pointsCorrect valid grade } certificate { serial expires issued user { username } } } } } } } }`;
    const counts: number[] = [];
    for (const n of [10, 200]) {
      const { id: exam } = await examOf(quiz, []);
      const users = [student, stranger];
      const plays = Array.from({ length: n }, (_, i) => ({ id: newId('Play'), examId: exam, quizId: quiz.id, userId: users[i % 2]!.user.id, attempt: i + 1, status: 'finished', evaluated: true, successful: true, grade: 'pass', timeEnd: new Date() }));
      // Results by the hundred with chosen attempts, written directly: the player would take minutes to make them.
      await t.db.prisma.play.createMany({ data: plays });
      // Every other result certified, written directly with the results it belongs to.
      await t.db.prisma.certificate.createMany({
        data: plays.filter((_, i) => i % 2 === 0).map((p, i) => ({ id: newId('Certificate'), examId: exam, playId: p.id, userId: p.userId, serial: `N${i + 1}`, title: 'Exam', grade: 'pass' })),
      });
      const { result, count } = await countStatements(t, () => t.gql(query, { id: exam }, { as: owner }));
      expect(result.body.errors).toBeUndefined();
      expect(result.body.data.node.results.edges).toHaveLength(Math.min(n, 100));
      const edges = result.body.data.node.results.edges.map((e: any) => e.node);
      const certified = new Set(plays.filter((_, i) => i % 2 === 0).map((p) => p.id));
      for (const node of edges) expect(node.certificate === null).toBe(!certified.has(node.id));
      expect(edges.find((node: any) => node.certificate !== null).certificate).toMatchObject({ serial: expect.stringMatching(/^N\d+$/), expires: null, issued: expect.any(String), user: { username: student.user.username } });
      counts.push(count);
      const mine = await t.gql(query, { id: exam, user: student.user.id }, { as: owner });
      expect(mine.body.data.node.results.edges).toHaveLength(Math.min(n / 2, 100));
    }
    expect(counts[0]).toBe(counts[1]);
  });

  it('refuses results to a caller without report', async () => {
    const q = await question('rc1', 'generic', ['a']);
    const quiz = await quizWith([q]);
    const { id: exam } = await examOf(quiz, []);
    await seed(t).admin.grant('exam', exam, stranger, 'view');
    const r = await t.gql(`query($id: ID!) { node(id: $id) { ... on Exam { results(first: 5) { edges { node { id } } } } } }`, { id: exam }, { as: stranger });
    expect(r.body.errors?.[0].extensions.code).toBe('PERMISSION_DENIED');
    const practice = (await gqlOk(START, { input: { quiz: quiz.id } }, student)).startPlay.id;
    const own = await t.gql(`query($id: ID!) { node(id: $id) { ... on Play { id status } } }`, { id: practice }, { as: student });
    expect(own.body.data.node).toEqual({ id: practice, status: 'open' });
    const other = await t.gql(`query($id: ID!) { node(id: $id) { ... on Play { id } } }`, { id: practice }, { as: stranger });
    expect(other.body.data.node).toBeNull();
  });
});

describe('competency requirements of type exam', () => {
  it('wait while answers await review and complete with a valid successful result, visible in the status counters', async () => {
    const org = await seed(t).admin.organization({ title: 'Compliance Org' });
    const organization = org.id;
    const learner = await t.newCaller('learner');
    await org.members([learner]);
    const free = await question('c1', 'free-text', ['A model answer']);
    const quiz = await quizWith([free], { grading: 'gp_passfail' });
    const { id: exam } = await examOf(quiz, [learner]);
    const competency = await org.competency('Certified');
    await competency.assign({ all: true });
    await competency.requirement('exam', { content: exam });
    const counters = async () => (await ok(t, 'GET', 'organization:competencies', { organization }, t.admin)).competencies[0].status;

    const play = (await gqlOk(START, { input: { exam } }, learner)).startPlay.id;
    await gqlOk(ANSWER, { input: { play, question: free, response: 'My essay' } }, learner);
    await gqlOk(FINISH, { input: { play } }, learner);
    expect(await counters()).toMatchObject({ completed: 0, waiting: 1 });

    await gqlOk(GRADE, { input: { play, question: free, points: 1 } }, owner);
    expect(await counters()).toMatchObject({ completed: 1, waiting: 0 });
  });

  it('a failed result completes nothing', async () => {
    const org = await seed(t).admin.organization({ title: 'Failing Org' });
    const organization = org.id;
    const learner = await t.newCaller('failing');
    await org.members([learner]);
    const q = await question('c2', 'generic', ['right']);
    const quiz = await quizWith([q], { grading: 'gp_passfail' });
    const { id: exam } = await examOf(quiz, [learner]);
    const competency = await org.competency('Certified');
    await competency.assign({ all: true });
    await competency.requirement('exam', { content: exam });
    const play = (await gqlOk(START, { input: { exam } }, learner)).startPlay.id;
    await gqlOk(ANSWER, { input: { play, question: q, response: 'wrong' } }, learner);
    expect((await gqlOk(FINISH, { input: { play } }, learner)).finishPlay.result).toMatchObject({ successful: false, grade: 'fail' });
    const status = (await ok(t, 'GET', 'organization:competencies', { organization }, t.admin)).competencies[0].status;
    expect(status).toMatchObject({ completed: 0, waiting: 0 });
  });
});
