import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { seed, type ExamHandle } from '../helpers/seed.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { newId } from '../../src/ids.ts';

/**
 * Item analysis (Exam.statistics, QuizSet.statistics) on whichever database the run uses. The
 * expected figures were worked out outside the service (by hand and with Python's `statistics`
 * module) and are written here as numbers; the property test compares the service with a plain
 * implementation of the definitions below, on random answer matrices.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const STATISTICS = `query($exam: ID!, $round: Int, $attempts: StatisticsAttempts) {
  node(id: $exam) { ... on Exam { statistics(round: $round, attempts: $attempts) {
    round attempts results leftOut { awaitingGrading withoutPoints }
    mean median standardDeviation skewness kurtosis cronbachAlpha errorRatio standardError
    questions { question { id externalId } results answered facilityIndex standardDeviation discriminationIndex randomGuessScore
      options { text correct chosen } flags }
  } } }
}`;

async function statistics(exam: string, args: { round?: number; attempts?: string } = {}, as?: Caller) {
  const r = await t.gql(STATISTICS, { exam, ...args }, as ? { as } : {});
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  return r.body.data.node.statistics;
}

/** A question of the exam's Quiz set (appended to it, answer `a` unless given) worth `points`. */
function addQuestion(quizId: string, externalId: string, fields: { points?: number; type?: string; answers?: string[]; options?: string[] } = {}) {
  const { answers = ['a'], ...rest } = fields;
  return seed(t).admin.question(externalId, { quiz: quizId, content: externalId, answer: answers, ...rest });
}

interface Cell {
  points: number;
  max?: number;
  response?: unknown;
  /** False: awaiting a person's grading. */
  evaluated?: boolean;
}

interface PlaySeed {
  user?: string | null;
  exam?: string | null;
  quiz: string;
  round?: number;
  attempt?: number;
  status?: string;
  archived?: boolean;
  forgotten?: boolean;
  /** The play's questions; null in `cells` leaves that question unanswered. */
  questions: string[];
  cells: (Cell | number | null)[];
}

/** A user of its own for a result (the statistics read no more of it). */
async function examinee(): Promise<string> {
  return (await seed(t).admin.managedUser()).id;
}

/**
 * A result written directly, as the player stores it: the play's questions, an answer row per
 * answered question. For fixtures the player cannot make: chosen points and responses, states,
 * attempts and rounds.
 */
async function addPlay(play: PlaySeed) {
  const id = newId('Play');
  const answers = play.questions.flatMap((questionId, i) => {
    const raw = play.cells[i];
    if (raw === null || raw === undefined) return [];
    const cell = typeof raw === 'number' ? { points: raw } : raw;
    return [{ questionId, index: i + 1, response: (cell.response ?? 'x') as object, points: cell.points, pointsMaximum: cell.max ?? 1, evaluated: cell.evaluated ?? true }];
  });
  await t.db.prisma.play.create({
    data: {
      id, examId: play.exam ?? null, quizId: play.quiz, userId: play.user === undefined ? await examinee() : play.user,
      round: play.round ?? 1, attempt: play.attempt ?? 1, status: play.status ?? 'finished', archived: play.archived ?? false,
      forgottenAt: play.forgotten ? new Date() : null, questionIds: play.questions, evaluated: true,
      timeStart: new Date(Date.UTC(2026, 0, 1, 10, play.attempt ?? 1)),
      answers: { create: answers },
    },
  });
  return id;
}

/** A running exam of the administrator with these questions, in this order. */
async function examWithQuestions(specs: { id: string; points?: number; type?: string; answers?: string[]; options?: string[] }[]) {
  const handle = await seed(t).admin.exam();
  const questions: string[] = [];
  for (const { id, ...fields } of specs) questions.push(await addQuestion(handle.quizId, id, fields));
  return { exam: handle.id, quizId: handle.quizId, questions, handle };
}

/**
 * Results made by the player, one per row: a new examinee gives the row's responses (none where
 * null) and finishes. The examinees play at once, as on exam day; returns the plays in row order.
 */
async function playRows(exam: ExamHandle, questions: string[], rows: unknown[][]): Promise<string[]> {
  const users = await Promise.all(rows.map(() => seed(t).admin.managedUser()));
  await exam.examinees(users);
  return Promise.all(rows.map((row, r) => exam.play(users[r]!, Object.fromEntries(questions.flatMap((question, i) => (row[i] === null ? [] : [[question, row[i]]]))))));
}

/** Results of the player that answer `a` (right) where a cell is 1, `x` (wrong) where it is 0, nothing where null. */
const playCells = (exam: ExamHandle, questions: string[], rows: (0 | 1 | null)[][]) => playRows(exam, questions, rows.map((cells) => cells.map((c) => (c === null ? null : c ? 'a' : 'x'))));

const EMPTY_LEFT_OUT = { awaitingGrading: 0, withoutPoints: 0 };

describe('hand-worked fixtures', () => {
  it('a mixed exam: a question everybody gets, one that anti-correlates, unanswered questions scoring 0 of their maximum', async () => {
    // Points (maxima 1, 1, 2, 1, 1); '-' unanswered:
    //   R1 1 1 2 0 1  P=5  S=83.3333     R4 1 0 1 1 0  P=3  S=50
    //   R2 1 1 2 0 1  P=5  S=83.3333     R5 1 0 0 1 1  P=3  S=50
    //   R3 1 1 1 0 1  P=4  S=66.6667     R6 1 - 0 1 -  P=2  S=33.3333
    const { exam, quizId, questions } = await examWithQuestions([{ id: 'Q1' }, { id: 'Q2' }, { id: 'Q3', points: 2 }, { id: 'Q4' }, { id: 'Q5' }]);
    const rows = [[1, 1, 2, 0, 1], [1, 1, 2, 0, 1], [1, 1, 1, 0, 1], [1, 0, 1, 1, 0], [1, 0, 0, 1, 1], [1, null, 0, 1, null]];
    for (const row of rows) await addPlay({ exam, quiz: quizId, questions, cells: row.map((p, j) => (p === null ? null : { points: p, max: j === 2 ? 2 : 1 })) });

    const s = await statistics(exam);
    expect(s).toMatchObject({
      round: 1, attempts: 'FIRST', results: 6, leftOut: EMPTY_LEFT_OUT,
      mean: 61.1111, median: 58.3333, standardDeviation: 20.1843, skewness: -0.0751, kurtosis: -1.5496,
      // sum of the question variances 0 + 0.3 + 0.8 + 0.3 + 0.2667 = 1.6667 against var(P) = 1.4667: alpha < 0, no error ratio.
      cronbachAlpha: -0.1705, errorRatio: null, standardError: null,
    });
    expect(s.questions.map((q: any) => [q.question.externalId, q.results, q.answered, q.facilityIndex, q.standardDeviation, q.discriminationIndex, q.flags])).toEqual([
      ['Q1', 6, 6, 100, 0, null, ['VERY_EASY']],
      ['Q2', 6, 5, 50, 54.7723, 72.7607, []],
      ['Q3', 6, 6, 50, 44.7214, 43.3013, []],
      ['Q4', 6, 6, 50, 54.7723, -95.3998, ['POOR_DISCRIMINATION', 'NEGATIVE_DISCRIMINATION']],
      ['Q5', 6, 5, 66.6667, 51.6398, 43.3013, []],
    ]);
    expect(s.questions.every((q: any) => q.randomGuessScore === null && q.options === null)).toBe(true);
  });

  it('a consistent test: alpha, its error ratio and the standard error', async () => {
    const { exam, handle, questions } = await examWithQuestions([{ id: 'A' }, { id: 'B' }, { id: 'C' }]);
    await playCells(handle, questions, [[1, 1, 1], [1, 1, 0], [1, 0, 0], [0, 0, 0], [1, 1, 1]]);
    const s = await statistics(exam);
    expect(s).toMatchObject({
      results: 5, mean: 60, median: 66.6667, standardDeviation: 43.4613, skewness: -0.5414, kurtosis: -1.4879,
      cronbachAlpha: 0.7941, errorRatio: 45.3743, standardError: 19.7203,
    });
    expect(s.questions.map((q: any) => [q.facilityIndex, q.standardDeviation, q.discriminationIndex, q.flags])).toEqual([
      [80, 44.7214, 55.9017, []],
      [60, 54.7723, 76.3763, []],
      [40, 54.7723, 61.2372, []],
    ]);
  });

  it('all right and all wrong: no spread, so no shape, no alpha and no discrimination', async () => {
    const right = await examWithQuestions([{ id: 'R1' }, { id: 'R2', points: 3 }]);
    // R2 is worth 3: a right answer scores 3 of 3.
    await playCells(right.handle, right.questions, [[1, 1], [1, 1], [1, 1], [1, 1]]);
    expect(await statistics(right.exam)).toMatchObject({
      results: 4, mean: 100, median: 100, standardDeviation: 0, skewness: null, kurtosis: null, cronbachAlpha: null, errorRatio: null, standardError: null,
      questions: [
        { facilityIndex: 100, standardDeviation: 0, discriminationIndex: null, flags: ['VERY_EASY'] },
        { facilityIndex: 100, standardDeviation: 0, discriminationIndex: null, flags: ['VERY_EASY'] },
      ],
    });

    const wrong = await examWithQuestions([{ id: 'W1' }, { id: 'W2' }]);
    await playCells(wrong.handle, wrong.questions, [[0, null], [0, null], [0, null]]);
    expect(await statistics(wrong.exam)).toMatchObject({
      results: 3, mean: 0, median: 0, standardDeviation: 0, skewness: null, kurtosis: null, cronbachAlpha: null,
      questions: [
        { results: 3, answered: 3, facilityIndex: 0, standardDeviation: 0, discriminationIndex: null, flags: ['VERY_HARD'] },
        { results: 3, answered: 0, facilityIndex: 0, standardDeviation: 0, discriminationIndex: null, flags: ['VERY_HARD'] },
      ],
    });
  });

  it('two questions that trade places: totals without variance, each question against the other at -100', async () => {
    const { exam, handle, questions } = await examWithQuestions([{ id: 'X' }, { id: 'Y' }]);
    await playCells(handle, questions, [[1, 0], [0, 1]]);
    expect(await statistics(exam)).toMatchObject({
      results: 2, mean: 50, median: 50, standardDeviation: 0, skewness: null, kurtosis: null, cronbachAlpha: null,
      questions: [
        { facilityIndex: 50, standardDeviation: 70.7107, discriminationIndex: -100, flags: ['POOR_DISCRIMINATION', 'NEGATIVE_DISCRIMINATION'] },
        { facilityIndex: 50, standardDeviation: 70.7107, discriminationIndex: -100, flags: ['POOR_DISCRIMINATION', 'NEGATIVE_DISCRIMINATION'] },
      ],
    });
  });

  it('a single result: figures of one value, nothing that needs a spread', async () => {
    // 0.5 of 1, 2 of 2, 1 of 1: P = 3.5 of 4, S = 87.5.
    const { exam, quizId, questions } = await examWithQuestions([{ id: 'S1' }, { id: 'S2', points: 2 }, { id: 'S3' }]);
    await addPlay({ exam, quiz: quizId, questions, cells: [0.5, { points: 2, max: 2 }, 1] });
    expect(await statistics(exam)).toMatchObject({
      results: 1, mean: 87.5, median: 87.5, standardDeviation: null, skewness: null, kurtosis: null, cronbachAlpha: null, errorRatio: null, standardError: null,
      questions: [
        { results: 1, answered: 1, facilityIndex: 50, standardDeviation: null, discriminationIndex: null, flags: [] },
        { results: 1, answered: 1, facilityIndex: 100, standardDeviation: null, discriminationIndex: null, flags: ['VERY_EASY'] },
        { results: 1, answered: 1, facilityIndex: 100, standardDeviation: null, discriminationIndex: null, flags: ['VERY_EASY'] },
      ],
    });
  });

  it('no results: counts of zero and nulls', async () => {
    const { exam } = await examWithQuestions([{ id: 'N1' }]);
    expect(await statistics(exam)).toEqual({
      round: 1, attempts: 'FIRST', results: 0, leftOut: EMPTY_LEFT_OUT, mean: null, median: null, standardDeviation: null,
      skewness: null, kurtosis: null, cronbachAlpha: null, errorRatio: null, standardError: null, questions: [],
    });
  });

  it('choice questions: every item with how many chose it, and the random guess score of a single-answer one', async () => {
    const { exam, handle, questions } = await examWithQuestions([
      { id: 'C1', type: 'choice', answers: ['Paris'], options: ['Lyon', 'Nice', 'Lille'] },
      { id: 'C2', type: 'multiple-choice', answers: ['2', '3'], options: ['4'] },
    ]);
    // Responses as the checker reads them: item texts, 0-based indexes, ANSWER:/OPTION: references, a
    // list joined with &&&; beside each, the points it scores.
    const responses: [unknown, number, unknown, number][] = [
      ['Paris', 1, ['2', '3'], 1],
      ['Paris', 1, ['2'], 0.5],
      [0, 1, '2&&&4', 0],
      ['OPTION:1', 0, [1], 0.5],
      ['Nice', 0, null, 0],
    ];
    const plays = await playRows(handle, questions, responses.map(([c1, , c2]) => [c1, c2]));
    for (const [r, [, p1, c2, p2]] of responses.entries()) {
      const scored = await t.db.prisma.playAnswer.findMany({ where: { playId: plays[r] }, orderBy: { index: 'asc' }, select: { points: true } });
      expect(scored.map((a) => a.points)).toEqual(c2 === null ? [p1] : [p1, p2]);
    }
    const s = await statistics(exam);
    expect(s.questions[0]).toMatchObject({
      results: 5, answered: 5, facilityIndex: 60, randomGuessScore: 25,
      options: [
        { text: 'Paris', correct: true, chosen: 3 },
        { text: 'Lyon', correct: false, chosen: 1 },
        { text: 'Nice', correct: false, chosen: 1 },
        { text: 'Lille', correct: false, chosen: 0 },
      ],
    });
    expect(s.questions[1]).toMatchObject({
      results: 5, answered: 4, facilityIndex: 40, randomGuessScore: null,
      options: [
        { text: '2', correct: true, chosen: 3 },
        { text: '3', correct: true, chosen: 2 },
        { text: '4', correct: false, chosen: 1 },
      ],
    });
  });
});

describe('which results count', () => {
  it('first, last or every finished attempt of the round; archived, open and other rounds left out; forgotten ones in', async () => {
    const { exam, quizId, questions } = await examWithQuestions([{ id: 'Q1' }, { id: 'Q2' }]);
    const anna = (await t.newCaller('anna')).user.id;
    const ben = (await t.newCaller('ben')).user.id;
    await addPlay({ exam, quiz: quizId, questions, user: anna, attempt: 1, cells: [0, 0] });
    await addPlay({ exam, quiz: quizId, questions, user: anna, attempt: 2, cells: [1, 0] });
    await addPlay({ exam, quiz: quizId, questions, user: anna, attempt: 3, cells: [1, 1], status: 'open' });
    await addPlay({ exam, quiz: quizId, questions, user: ben, attempt: 1, cells: [1, 1] });
    await addPlay({ exam, quiz: quizId, questions, user: ben, attempt: 2, cells: [1, 1], archived: true });
    // A result without a user (forgotten, or of a removed user) is an examinee of its own.
    await addPlay({ exam, quiz: quizId, questions, user: null, forgotten: true, cells: [0, 1] });
    await addPlay({ exam, quiz: quizId, questions, user: null, forgotten: true, cells: [0, 1] });
    // Another round does not count in this one.
    await t.db.prisma.exam.update({ where: { id: exam }, data: { round: 2 } });
    await addPlay({ exam, quiz: quizId, questions, user: anna, round: 2, cells: [1, 1] });

    // Round 1, first attempts: anna 0, ben 100, the two without a user 50 each.
    expect(await statistics(exam, { round: 1 })).toMatchObject({ round: 1, attempts: 'FIRST', results: 4, mean: 50, median: 50 });
    // Last attempts: anna 50 (her open attempt is no result yet), ben 100 (his archived one is gone).
    expect(await statistics(exam, { round: 1, attempts: 'LAST' })).toMatchObject({ attempts: 'LAST', results: 4, mean: 62.5, median: 50 });
    // Every attempt: 0, 50, 100, 50, 50.
    expect(await statistics(exam, { round: 1, attempts: 'ALL' })).toMatchObject({ attempts: 'ALL', results: 5, mean: 50, median: 50 });
    // The default round is the current one.
    expect(await statistics(exam)).toMatchObject({ round: 2, results: 1, mean: 100 });

    const r = await t.gql(STATISTICS, { exam, round: 3 });
    expect(r.body.errors![0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'round' });
  });

  it('leaves out results awaiting grading (until graded) and results without points, and says how many', async () => {
    const { exam, quizId, questions } = await examWithQuestions([{ id: 'T1' }, { id: 'T2', type: 'free-text' }]);
    const reading = await addQuestion(quizId, 'R', { type: 'reading' });
    await addPlay({ exam, quiz: quizId, questions, cells: [1, 1] });
    await addPlay({ exam, quiz: quizId, questions, cells: [1, 0] });
    const waiting = await addPlay({ exam, quiz: quizId, questions, cells: [0, { points: 0, evaluated: false }] });
    // A result of only a reading question has nothing to score; one of no questions neither.
    await addPlay({ exam, quiz: quizId, questions: [reading], cells: [null] });
    await addPlay({ exam, quiz: quizId, questions: [], cells: [] });
    expect(await statistics(exam)).toMatchObject({ results: 2, leftOut: { awaitingGrading: 1, withoutPoints: 2 }, mean: 75 });

    await t.db.prisma.playAnswer.update({ where: { playId_questionId: { playId: waiting, questionId: questions[1]! } }, data: { evaluated: true, points: 1 } });
    expect(await statistics(exam)).toMatchObject({ results: 3, leftOut: { awaitingGrading: 0, withoutPoints: 2 }, mean: 66.6667, median: 50 });
  });

  it('QuizSet.statistics: the practice results of the Quiz set, not those of its exams', async () => {
    const { exam, quizId, questions } = await examWithQuestions([{ id: 'P1' }, { id: 'P2' }]);
    await addPlay({ exam, quiz: quizId, questions, cells: [0, 0] });
    const maria = (await t.newCaller('maria')).user.id;
    await addPlay({ quiz: quizId, questions, user: maria, attempt: 1, cells: [1, 0] });
    await addPlay({ quiz: quizId, questions, user: maria, attempt: 2, cells: [1, 1] });
    await addPlay({ quiz: quizId, questions, user: null, forgotten: true, cells: [1, 1] });
    const query = `query($quiz: ID!, $attempts: StatisticsAttempts) { node(id: $quiz) { ... on QuizSet { statistics(attempts: $attempts) { round attempts results mean questions { facilityIndex } } } } }`;
    const first = await t.gql(query, { quiz: quizId });
    expect(first.body.data.node.statistics).toEqual({ round: null, attempts: 'FIRST', results: 2, mean: 75, questions: [{ facilityIndex: 100 }, { facilityIndex: 50 }] });
    const all = await t.gql(query, { quiz: quizId, attempts: 'ALL' });
    expect(all.body.data.node.statistics).toMatchObject({ results: 3, mean: 83.3333 });
  });
});

describe('permissions', () => {
  it('needs report on the exam; a caller who may not view it gets the answer of an unknown id', async () => {
    const { exam, handle, questions } = await examWithQuestions([{ id: 'Q' }]);
    const examinee = await t.newCaller('examinee');
    const viewer = await t.newCaller('viewer');
    const reporter = await t.newCaller('reporter');
    const stranger = await t.newCaller('stranger');
    await seed(t).admin.grant('exam', exam, viewer, 'view');
    await seed(t).admin.grant('exam', exam, reporter, 'report');
    await handle.examinees([examinee]);
    await handle.play(examinee, { [questions[0]!]: 'a' });

    expect((await statistics(exam, {}, reporter)).results).toBe(1);

    const asViewer = await t.gql(STATISTICS, { exam }, { as: viewer });
    expect(asViewer.body.data.node.statistics).toBeNull();
    expect(asViewer.body.errors![0].extensions.code).toBe('PERMISSION_DENIED');

    // node(id) answers null alike for an exam the caller may not view and for no exam at all.
    const hidden = await t.gql(STATISTICS, { exam }, { as: stranger });
    const unknown = await t.gql(STATISTICS, { exam: 'exm_doesnotexist' }, { as: stranger });
    expect(hidden.body).toEqual({ data: { node: null } });
    expect(hidden.body).toEqual(unknown.body);

    // The examinee reaches the exam through its own play without view on it: the statistics answer as for an unknown exam.
    const own = await t.gql(`{ myPlays { edges { node { exam { statistics { results } } } } } }`, {}, { as: examinee });
    expect(own.body.errors![0].extensions).toMatchObject({ code: 'NOT_FOUND', argument: 'exam' });
    expect(own.body.errors![0].message).toBe(`Argument 'exam': no exam with identification string '${exam}'`);
  });

  it('needs report on the Quiz set for its statistics', async () => {
    const { id: quiz } = await seed(t).admin.quizSet();
    const viewer = await t.newCaller('quizviewer');
    const reporter = await t.newCaller('quizreporter');
    await seed(t).admin.grant('quiz', quiz, viewer, 'view');
    await seed(t).admin.grant('quiz', quiz, reporter, 'report');
    const query = `query($quiz: ID!) { node(id: $quiz) { ... on QuizSet { statistics { results } } } }`;
    expect((await t.gql(query, { quiz }, { as: reporter })).body).toEqual({ data: { node: { statistics: { results: 0 } } } });
    expect((await t.gql(query, { quiz }, { as: viewer })).body.errors![0].extensions.code).toBe('PERMISSION_DENIED');
  });
});

describe('scale', () => {
  it('answers in the same number of SQL statements for 3 and for 300 results', async () => {
    const { exam, quizId, questions } = await examWithQuestions([
      { id: 'K1' }, { id: 'K2', points: 2 }, { id: 'K3', type: 'choice', answers: ['a'], options: ['b', 'c'] }, { id: 'K4' },
    ]);
    const seed = async (from: number, to: number) => {
      const plays = [];
      const answers = [];
      for (let i = from; i < to; i++) {
        const id = newId('Play');
        plays.push({ id, examId: exam, quizId, userId: null, status: 'finished', evaluated: true, questionIds: questions });
        answers.push(
          { playId: id, questionId: questions[0]!, index: 1, response: 'x', points: i % 2, pointsMaximum: 1, evaluated: true },
          { playId: id, questionId: questions[1]!, index: 2, response: 'x', points: i % 3, pointsMaximum: 2, evaluated: true },
          { playId: id, questionId: questions[2]!, index: 3, response: ['a', 'b', 'c'][i % 3]!, points: i % 3 === 0 ? 1 : 0, pointsMaximum: 1, evaluated: true },
        );
      }
      // Results by the hundred, written directly: the player would take minutes to make them.
      await t.db.prisma.play.createMany({ data: plays });
      await t.db.prisma.playAnswer.createMany({ data: answers });
    };
    await seed(0, 3);
    const three = await countStatements(t, () => statistics(exam));
    expect(three.result.results).toBe(3);
    await seed(3, 300);
    const many = await countStatements(t, () => statistics(exam));
    expect(many.result.results).toBe(300);
    expect(many.result.questions[2].options.map((o: any) => o.chosen)).toEqual([100, 100, 100]);
    expect(many.result.questions[3]).toMatchObject({ results: 300, answered: 0, facilityIndex: 0 });
    expect(many.count, many.statements.join('\n')).toBe(three.count);
    expect(three.count, three.statements.join('\n')).toBeLessThanOrEqual(12);
  });
});

// ---------------------------------------------------------------------------------------------
// A plain implementation of the definitions, two-pass, for the property test.

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const variance = (xs: number[]) => {
  const m = mean(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
};
const constant = (xs: number[]) => xs.every((x) => x === xs[0]);

function reference(rows: (number | null)[][], maxima: number[]) {
  const n = rows.length;
  const k = maxima.length;
  const points = rows.map((r) => r.map((p) => p ?? 0));
  const totals = points.map((r) => r.reduce((s, p) => s + p, 0));
  const maximum = maxima.reduce((s, m) => s + m, 0);
  const scores = totals.map((p) => (100 * p) / maximum);
  const sorted = [...scores].sort((a, b) => a - b);
  const sd = n >= 2 ? Math.sqrt(variance(scores)) : null;
  const spread = sd !== null && !constant(scores);
  const m = n ? mean(scores) : null;
  const z = spread ? scores.map((s) => (s - m!) / sd!) : [];
  const alpha = k >= 2 && n >= 2 && !constant(totals) ? (k / (k - 1)) * (1 - maxima.reduce((s, _, j) => s + (constant(points.map((r) => r[j]!)) ? 0 : variance(points.map((r) => r[j]!))), 0) / variance(totals)) : null;
  const errorRatio = alpha !== null && alpha >= 0 ? 100 * Math.sqrt(1 - alpha) : null;
  return {
    results: n,
    mean: m,
    median: n ? (n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2) : null,
    standardDeviation: sd === null ? null : spread ? sd : 0,
    skewness: spread && n >= 3 ? (n / ((n - 1) * (n - 2))) * z.reduce((s, v) => s + v ** 3, 0) : null,
    kurtosis: spread && n >= 4 ? ((n * (n + 1)) / ((n - 1) * (n - 2) * (n - 3))) * z.reduce((s, v) => s + v ** 4, 0) - (3 * (n - 1) ** 2) / ((n - 2) * (n - 3)) : null,
    cronbachAlpha: alpha,
    errorRatio,
    standardError: errorRatio !== null && sd !== null ? (errorRatio / 100) * sd : null,
    questions: maxima.map((mj, j) => {
      const p = points.map((r) => r[j]!);
      const share = p.map((x) => x / mj);
      const rest = totals.map((total, i) => total - p[i]!);
      let discrimination: number | null = null;
      if (n >= 2 && !constant(p) && !constant(rest)) {
        const mp = mean(p);
        const mr = mean(rest);
        const cov = p.reduce((s, x, i) => s + (x - mp) * (rest[i]! - mr), 0);
        const vp = p.reduce((s, x) => s + (x - mp) ** 2, 0);
        const vr = rest.reduce((s, x) => s + (x - mr) ** 2, 0);
        discrimination = (100 * cov) / Math.sqrt(vp * vr);
      }
      return {
        results: n,
        answered: rows.filter((r) => r[j] !== null).length,
        facilityIndex: 100 * mean(share),
        standardDeviation: n >= 2 ? (constant(share) ? 0 : 100 * Math.sqrt(variance(share))) : null,
        discriminationIndex: discrimination,
      };
    }),
  };
}

/** Equal to 4 decimals: the service rounds, the reference does not; null only where null. */
function expectClose(actual: unknown, expected: unknown, path = ''): void {
  if (expected === null || typeof expected !== 'number') {
    if (Array.isArray(expected)) {
      expect(actual, path).toHaveLength(expected.length);
      expected.forEach((e, i) => expectClose((actual as unknown[])[i], e, `${path}[${i}]`));
    } else if (expected !== null && typeof expected === 'object') {
      for (const [key, e] of Object.entries(expected)) expectClose((actual as Record<string, unknown>)[key], e, `${path}.${key}`);
    } else expect(actual, path).toBe(expected);
    return;
  }
  expect(typeof actual, path).toBe('number');
  expect(Math.abs((actual as number) - expected), `${path}: ${actual} against ${expected}`).toBeLessThanOrEqual(1.0001e-4);
}

describe('against a plain implementation of the definitions', () => {
  it('agrees on random answer matrices', async () => {
    // Maxima and points on a grid of quarters, so the plain implementation adds exactly too.
    const matrix = fc
      .array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 5 })
      .chain((quarters) =>
        fc.record({
          maxima: fc.constant(quarters.map((q) => q / 4)),
          rows: fc.array(fc.tuple(...quarters.map((q) => fc.option(fc.integer({ min: 0, max: q }), { freq: 5 }))), { minLength: 1, maxLength: 12 }),
        }),
      );
    await fc.assert(
      fc.asyncProperty(matrix, async ({ maxima, rows }) => {
        const quarterRows = rows.map((r) => r.map((q) => (q === null ? null : q / 4)));
        // Twenty-five exams of random questions, written directly: through the service their questions would take this test past its time limit.
        const { id: exam, quizId } = await seed(t).admin.exam();
        const questions = maxima.map(() => newId('Question'));
        await t.db.prisma.question.createMany({
          data: questions.map((id, j) => ({ id, externalId: `M${j}`, scope: `quiz:${quizId}`, ownerId: t.admin.user.id, type: 'generic', content: `M${j}`, answers: ['a'], data: { points: maxima[j]! } })),
        });
        await t.db.prisma.quizItem.createMany({ data: questions.map((questionId, position) => ({ quizId, questionId, position })) });
        // Points on a grid of quarters, written directly: no question scores a response in quarters.
        await t.db.prisma.play.createMany({
          data: quarterRows.map((_, i) => ({ id: `ply_prop${exam.slice(4)}${i}`, examId: exam, quizId, userId: null, status: 'finished', evaluated: true, questionIds: questions })),
        });
        await t.db.prisma.playAnswer.createMany({
          data: quarterRows.flatMap((r, i) =>
            r.flatMap((p, j) => (p === null ? [] : [{ playId: `ply_prop${exam.slice(4)}${i}`, questionId: questions[j]!, index: j + 1, response: 'x', points: p, pointsMaximum: maxima[j]!, evaluated: true }])),
          ),
        });
        const actual = await statistics(exam);
        expectClose(actual, reference(quarterRows, maxima));
      }),
      { numRuns: 25, seed: 20261126 },
    );
  });
});
