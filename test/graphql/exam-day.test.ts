import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.ts';
import { knownError } from '../../src/errors.ts';
import { maskError } from '../../src/graphql/errors.ts';
import { newId } from '../../src/ids.ts';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { ok } from '../helpers/quiz-seed.ts';
import { seed } from '../helpers/seed.ts';
import { countStatements } from '../helpers/sql-counter.ts';

/**
 * The player on exam day: the statements each call costs (a budget that holds whatever the number
 * of questions, examinees and earlier attempts), examinees calling with assume tokens through one
 * application, answers sent twice, every refusal with its code and nothing changed, and what the
 * start cache keeps. Credentials and exam starts are cached here as in production, so a call's
 * count is the player's own work.
 */

let t: TestApp;
let owner: Caller;

beforeAll(async () => {
  t = await createTestApp({ AUTH_CACHE_TTL_MS: '60000', PLAYER_CACHE_TTL_MS: '60000' });
  owner = await t.newCaller('owner');
});
afterAll(() => t?.close());

const START = `mutation($exam: ID!) { startPlay(input: { exam: $exam }) { id status attempt questions { question { id } } } }`;
const ANSWER = `mutation($input: AnswerQuestionInput!) { answerQuestion(input: $input) { question index response points pointsMaximum evaluated timeAnswer } }`;
const FINISH = `mutation($play: ID!) { finishPlay(input: { play: $play }) { status result { questionsTotal questionsCorrect pointsTotal pointsCorrect valid } } }`;

/** An examinee: a user the owner manages, acting through the owner's application with an assume token. */
interface Examinee {
  id: string;
  headers: Record<string, string>;
}

async function examinee(username: string): Promise<Examinee> {
  const created = await ok(t, 'POST', 'user', { username, first_name: 'Exam', last_name: username, email: `${username}@example.com` }, owner);
  const assumed = await ok(t, 'POST', 'user:assume', { user: created.user }, owner);
  return { id: created.user, headers: { 'service-api-assume': assumed.token } };
}

/** The contract's datetime format (UTC). */
const sqlDate = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/** An ACTIVE exam of a new Quiz set with `n` generic questions (answer "yes", 2 points each), and its examinees. */
async function examWith(n: number, examinees: Examinee[]): Promise<{ exam: string; questions: string[] }> {
  const questions = await Promise.all(Array.from({ length: n }, (_, i) => seed(t).as(owner).question(undefined, { content: `Q${i}`, answer: 'yes', points: 2 })));
  const quiz = (await ok(t, 'POST', 'quiz', { title: 'Exam day' }, owner)).quiz as string;
  await ok(t, 'POST', 'quiz:questions', { quiz, questions: questions.join(',') }, owner);
  const hour = 3600_000;
  const exam = (await ok(t, 'POST', 'exam', { title: 'Exam day', quiz, start: sqlDate(new Date(Date.now() - hour)), end: sqlDate(new Date(Date.now() + hour)) }, owner)).exam as string;
  if (examinees.length) await ok(t, 'POST', 'exam:users', { exam, users: examinees.map((e) => e.id).join(',') }, owner);
  return { exam, questions };
}

async function as<T = any>(who: Examinee, query: string, variables: Record<string, unknown>): Promise<{ data?: T; errors?: any[] }> {
  return (await t.gql(query, variables, { as: owner, headers: who.headers })).body;
}
async function asOk(who: Examinee, query: string, variables: Record<string, unknown>) {
  const body = await as(who, query, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

describe('the statements of the player', () => {
  it('an answer is one statement, the same for a play of 3 and of 30 questions, with the credentials of an assume token cached', async () => {
    const counts: number[] = [];
    for (const n of [3, 30]) {
      const e = await examinee(`answer${n}`);
      const { exam, questions } = await examWith(n, [e]);
      const play = (await asOk(e, START, { exam })).startPlay.id;
      await asOk(e, ANSWER, { input: { play, question: questions[0], response: 'yes' } });
      const { count, statements, result } = await countStatements(t, () => as(e, ANSWER, { input: { play, question: questions[n - 1], response: 'no' } }));
      expect(result.errors).toBeUndefined();
      expect(count, statements.join('\n')).toBeLessThanOrEqual(2);
      counts.push(count);
    }
    expect(counts[0]).toBe(1);
    expect(counts[1]).toBe(counts[0]);
  });

  it('a start costs the same for 3 and 30 questions, for the first and for the third attempt, and for the 1st and the 20th examinee', async () => {
    const count = async (e: Examinee, exam: string) => {
      const measured = await countStatements(t, () => as(e, START, { exam }));
      expect(measured.result.errors, JSON.stringify(measured.result.errors)).toBeUndefined();
      return measured;
    };
    const small = await Promise.all(Array.from({ length: 20 }, (_, i) => examinee(`small${i}`)));
    const large = await Promise.all(Array.from({ length: 2 }, (_, i) => examinee(`large${i}`)));
    const a = await examWith(3, small);
    const b = await examWith(30, large);
    // Each examinee's credentials are looked up once, as on exam day (writes above cleared the cache).
    for (const e of [...small, ...large]) await asOk(e, '{ me { id } }', {});
    // The first start of an exam reads the exam, its settings and its questions once for all its examinees.
    const firstOfExam = await count(small[0]!, a.exam);
    const later = await count(small[19]!, a.exam);
    const largeFirst = await count(large[0]!, b.exam);
    const largeLater = await count(large[1]!, b.exam);
    expect(firstOfExam.count).toBe(largeFirst.count);
    expect(later.count).toBe(largeLater.count);
    // Once the exam is read: the claim of the play, and its questions for the player to show.
    expect(later.count, later.statements.join('\n')).toBeLessThanOrEqual(2);

    // Two earlier attempts do not make the third start cost more.
    const third = small[5]!;
    for (let i = 0; i < 2; i++) {
      const play = (await asOk(third, START, { exam: a.exam })).startPlay.id;
      await asOk(third, FINISH, { play });
    }
    const attempt3 = await count(third, a.exam);
    expect(attempt3.result.data.startPlay.attempt).toBe(3);
    expect(attempt3.count).toBe(later.count);
    // Continuing the open play costs no more than starting it.
    expect((await count(third, a.exam)).count).toBeLessThanOrEqual(later.count);
  });

  it('a finish costs the same for 3 and 30 questions and for a later attempt', async () => {
    const finishOnce = async (e: Examinee, { exam, questions }: { exam: string; questions: string[] }) => {
      const play = (await asOk(e, START, { exam })).startPlay.id;
      for (const question of questions) await asOk(e, ANSWER, { input: { play, question, response: 'yes' } });
      const { count, statements, result } = await countStatements(t, () => as(e, FINISH, { play }));
      const n = questions.length;
      expect(result.data.finishPlay.result).toEqual({ questionsTotal: n, questionsCorrect: n, pointsTotal: 2 * n, pointsCorrect: 2 * n, valid: true });
      // BEGIN, the lock with the answers, the timer, the points, the totals, what follows (journeys,
      // requirements, webhooks), COMMIT: the answer keys come with the exam's starts, and the
      // finished row is the answer.
      expect(count, statements.join('\n')).toBeLessThanOrEqual(7);
      expect(statements.filter((sql) => /FROM "(public"\.")?(Question|Play)"/.test(sql) && !/FOR UPDATE/.test(sql))).toEqual([]);
      return count;
    };
    const [few, many] = [await examinee('finish3'), await examinee('finish30')];
    const small = await examWith(3, [few]);
    const large = await examWith(30, [many]);
    const counts = [await finishOnce(few, small), await finishOnce(many, large), await finishOnce(many, large)];
    expect(new Set(counts).size).toBe(1);
  });
});

describe('answers on exam day', () => {
  it('the same answer sent twice (a retry) leaves one answer, the later response', async () => {
    const e = await examinee('retrier');
    const { exam, questions } = await examWith(2, [e]);
    const play = (await asOk(e, START, { exam })).startPlay.id;
    const [first, second] = await Promise.all([
      asOk(e, ANSWER, { input: { play, question: questions[0], response: 'no' } }),
      asOk(e, ANSWER, { input: { play, question: questions[0], response: 'no' } }),
    ]);
    expect(first.answerQuestion).toMatchObject({ question: questions[0], index: 1, response: 'no', points: null, pointsMaximum: 2, evaluated: false });
    expect(second.answerQuestion.index).toBe(1);
    await asOk(e, ANSWER, { input: { play, question: questions[0], response: 'yes' } });
    const rows = await t.db.prisma.playAnswer.findMany({ where: { playId: play } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.response).toBe('yes');
    const done = (await asOk(e, FINISH, { play })).finishPlay;
    expect(done.result).toEqual({ questionsTotal: 2, questionsCorrect: 1, pointsTotal: 4, pointsCorrect: 2, valid: true });
  });

  it('refuses bad answers with their codes and changes nothing', async () => {
    const e = await examinee('refused');
    const other = await examinee('other');
    const { exam, questions } = await examWith(2, [e, other]);
    const play = (await asOk(e, START, { exam })).startPlay.id;
    const theirs = (await asOk(other, START, { exam })).startPlay.id;
    await asOk(e, ANSWER, { input: { play, question: questions[0], response: 'yes' } });
    const before = await t.db.prisma.playAnswer.findMany({ where: { playId: { in: [play, theirs] } }, orderBy: { questionId: 'asc' } });
    const code = async (input: Record<string, unknown>, who = e) => {
      const body = await as(who, ANSWER, { input: { play, question: questions[1], response: 'yes', ...input } });
      expect(body.errors, JSON.stringify(body)).toHaveLength(1);
      return [body.errors![0].extensions.code, body.errors![0].extensions.argument];
    };
    expect(await code({ play: newId('Play') })).toEqual(['NOT_FOUND', 'play']);
    expect(await code({ play: theirs })).toEqual(['NOT_FOUND', 'play']);
    expect(await code({ question: newId('Question') })).toEqual(['NOT_FOUND', 'question']);
    expect(await code({ hints: 1 })).toEqual(['ARGUMENT_CONFLICT', 'hints']);
    expect(await code({ response: { deep: { deeper: 1 } } })).toEqual(['INVALID_ARGUMENT', 'response']);
    expect(await code({ response: 'x'.repeat(1_000_000) })).toEqual(['INVALID_ARGUMENT', 'response']);
    expect(await code({ response: 'a\u0000b' })).toEqual(['BAD_USER_INPUT', 'response']);
    expect(await code({ response: ['ok', 'a\ud800b'] })).toEqual(['BAD_USER_INPUT', 'response']);
    expect(await t.db.prisma.playAnswer.findMany({ where: { playId: { in: [play, theirs] } }, orderBy: { questionId: 'asc' } })).toEqual(before);

    await asOk(e, FINISH, { play });
    expect(await code({})).toEqual(['PLAY_FINISHED', undefined]);
    const finished = await t.db.prisma.playAnswer.findMany({ where: { playId: play } });
    expect(finished.map((a) => a.questionId)).toEqual([questions[0]]);
  });
});

describe('answers arriving together', () => {
  it('are written together, fewer statements than answers, each acknowledged with its own row', async () => {
    const crowd = await Promise.all(Array.from({ length: 20 }, (_, i) => examinee(`crowd${i}`)));
    const { exam, questions } = await examWith(2, crowd);
    const plays = await Promise.all(crowd.map(async (e) => (await asOk(e, START, { exam })).startPlay.id as string));
    const { count, result, statements: statementsOf } = await countStatements(t, () =>
      Promise.all(crowd.map((e, i) => asOk(e, ANSWER, { input: { play: plays[i], question: questions[i % 2], response: i % 3 ? 'yes' : 'no' } }))),
    );
    expect(result.map((r) => [r.answerQuestion.question, r.answerQuestion.response])).toEqual(crowd.map((_, i) => [questions[i % 2], i % 3 ? 'yes' : 'no']));
    expect(count, statementsOf.join("\n")).toBeLessThan(crowd.length / 2);
    const stored = await t.db.prisma.playAnswer.findMany({ where: { playId: { in: plays } } });
    expect(stored).toHaveLength(crowd.length);
  });

  it('finishes arriving together share one transaction: fewer statements than finishes, each with its own result', async () => {
    const crowd = await Promise.all(Array.from({ length: 12 }, (_, i) => examinee(`finisher${i}`)));
    const { exam, questions } = await examWith(2, crowd);
    const plays = await Promise.all(crowd.map(async (e) => (await asOk(e, START, { exam })).startPlay.id as string));
    // Examinee i answers i % 3 questions right: 0, 1 or 2.
    for (const [i, e] of crowd.entries()) {
      for (const [q, question] of questions.entries()) await asOk(e, ANSWER, { input: { play: plays[i], question, response: q < i % 3 ? 'yes' : 'no' } });
    }
    const { count, result, statements: statementsOf } = await countStatements(t, () => Promise.all(crowd.map((e, i) => as(e, FINISH, { play: plays[i] }))));
    expect(result.map((r) => r.data?.finishPlay.result.pointsCorrect)).toEqual(crowd.map((_, i) => 2 * (i % 3)));
    expect(count, statementsOf.join('\n')).toBeLessThan(crowd.length);
    const stored = await t.db.prisma.play.findMany({ where: { id: { in: plays } }, select: { status: true, openKey: true } });
    expect(stored).toEqual(crowd.map(() => ({ status: 'finished', openKey: null })));
    // A second finish of each, together with one of a play that is not the caller's: refused one by one.
    const again = await Promise.all([...crowd.map((e, i) => as(e, FINISH, { play: plays[i] })), as(crowd[0]!, FINISH, { play: plays[1] })]);
    expect(again.map((r) => r.errors?.[0]?.extensions.code)).toEqual([...crowd.map(() => 'PLAY_FINISHED'), 'NOT_FOUND']);
  });

  it('one answer the database refuses fails alone; the answers written with it are kept', async () => {
    const crowd = await Promise.all(Array.from({ length: 6 }, (_, i) => examinee(`poison${i}`)));
    const { exam, questions } = await examWith(1, crowd);
    const plays = await Promise.all(crowd.map(async (e) => (await asOk(e, START, { exam })).startPlay.id as string));
    // An unpaired UTF-16 surrogate: JSON text PostgreSQL refuses in jsonb. The writer is called as
    // the service calls it, below the faces that refuse such text at the edge.
    const outcomes = await Promise.allSettled(
      crowd.map((e, i) => t.platform.answers.add({ userId: e.id, input: { play: plays[i]!, question: questions[0]!, response: i === 2 ? 'a\ud800b' : 'yes', hints: 0, solutionSteps: 0 }, at: new Date() })),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    const stored = await t.db.prisma.playAnswer.findMany({ where: { playId: { in: plays } } });
    expect(stored.map((a) => a.playId).sort()).toEqual(plays.filter((_, i) => i !== 2).sort());
  });
});

describe('what a start keeps', () => {
  it('an exam switched off through this instance refuses the next start at once, while an open play continues', async () => {
    const [a, b] = [await examinee('keep1'), await examinee('keep2')];
    const { exam } = await examWith(1, [a, b]);
    const play = (await asOk(a, START, { exam })).startPlay.id;
    await ok(t, 'PATCH', 'exam', { exam, deadline: sqlDate(new Date(Date.now() - 60_000)) }, owner);
    const refused = await as(b, START, { exam });
    expect(refused.errors?.[0]?.extensions.code).toBe('EXAM_NOT_ACTIVE');
    expect((await asOk(a, START, { exam })).startPlay.id).toBe(play);
  });

  it('a question added to the Quiz set through this instance is in the next start', async () => {
    const [a, b] = [await examinee('grow1'), await examinee('grow2')];
    const { exam, questions } = await examWith(1, [a, b]);
    expect((await asOk(a, START, { exam })).startPlay.questions).toHaveLength(1);
    const added = await seed(t).as(owner).question('added', { content: 'Added', answer: 'yes' });
    const quiz = (await t.db.prisma.exam.findUniqueOrThrow({ where: { id: exam } })).quizId;
    await ok(t, 'POST', 'quiz:questions', { quiz, questions: added }, owner);
    expect((await asOk(b, START, { exam })).startPlay.questions.map((q: any) => q.question.id)).toEqual([...questions, added]);
  });
});

describe('a saturated database', () => {
  it('is refused as SERVICE_BUSY with Retry-After, never as an internal error', () => {
    const timeout = new Prisma.PrismaClientKnownRequestError('Transaction API error: Unable to start a transaction in the given time.', { code: 'P2028', clientVersion: Prisma.prismaVersion.client });
    const busy = knownError(timeout);
    expect(busy).toMatchObject({ status: 503, code: 'SERVICE_BUSY', retryAfter: 1 });
    const deadlock = new Prisma.PrismaClientKnownRequestError('Raw query failed', { code: 'P2010', clientVersion: Prisma.prismaVersion.client, meta: { code: '40P01' } });
    expect(knownError(deadlock)?.code).toBe('SERVICE_BUSY');
    expect(knownError(new Error('boom'))).toBeUndefined();
    const masked = maskError(timeout) as unknown as { extensions: Record<string, unknown> };
    expect(masked.extensions).toMatchObject({ code: 'SERVICE_BUSY', status: 503, retryAfter: 1 });
  });
});
