import type { Context } from '../../context.ts';
import { Prisma, type Exam, type Question, type QuizSet } from '../../generated/prisma/client.ts';
import { assertCan } from '../../auth/policy.ts';
import { ArgumentError } from '../../errors.ts';
import { unknownContent } from '../content/records.ts';
import { toCheckable } from '../questions/checkable.ts';
import { selectedItems } from '../questions/checker/selection.ts';
import { questionsOf, quizEntries } from '../quizzes/items.service.ts';
import { unknownQuizSet } from '../quizzes/access.ts';
import { pointsMaximumOf } from './scoring.ts';

/**
 * Item analysis: test and question statistics of an exam round's results (or of a Quiz set's
 * practice results), as educators know them from Moodle's quiz statistics report. Everything that
 * grows with the number of results is aggregated by the database; the process receives one row per
 * question (and one per distinct response to a choice question), in a fixed number of statements.
 *
 * Definitions (N results, p_ij the points of result i on question j, m_ij its maximum):
 * - which results: finished, not archived (forgotten ones count), one per examinee (its first or
 *   last finished attempt) or every attempt; a result with an answer awaiting a person's grading
 *   is left out (counted in `leftOut.awaitingGrading`), as is one without any question worth
 *   points (`leftOut.withoutPoints`);
 * - the cells of a result are the questions it asked (`Play.questionIds`) that are worth points:
 *   an unanswered one scores 0 of its maximum, as in the play's totals (the answer's maximum
 *   where there is an answer, otherwise the question's, `pointsMaximumOf`); reading questions
 *   (maximum 0) are not counted; a question deleted since is no longer part of the result;
 * - S_i = 100 * P_i / M_i (P_i, M_i: sums of p_ij and m_ij); mean, median, sample standard
 *   deviation, skewness and kurtosis (the sample formulas) of S; Cronbach's alpha of p with the
 *   sample variances, its error ratio and the standard error;
 * - per question over the results that asked it: facility 100 * mean(p/m), 100 * sample sd of
 *   p/m, discrimination 100 * Pearson correlation of p with the rest of the test (P - p).
 * "Variance 0" is decided exactly (see aggregateSql), not by a float that came out as 1e-17.
 * Figures are rounded to 4 decimals.
 */

export type StatisticsAttempts = 'FIRST' | 'LAST' | 'ALL';
export type QuestionFlag = 'VERY_EASY' | 'VERY_HARD' | 'POOR_DISCRIMINATION' | 'NEGATIVE_DISCRIMINATION';

export interface OptionStatistics {
  text: string;
  correct: boolean;
  /** Counted results whose response selected it. */
  chosen: number;
}

export interface QuestionStatistics {
  question: Question;
  results: number;
  answered: number;
  facilityIndex: number;
  standardDeviation: number | null;
  discriminationIndex: number | null;
  randomGuessScore: number | null;
  options: OptionStatistics[] | null;
  flags: QuestionFlag[];
}

export interface ResultStatistics {
  round: number | null;
  attempts: StatisticsAttempts;
  results: number;
  leftOut: { awaitingGrading: number; withoutPoints: number };
  mean: number | null;
  median: number | null;
  standardDeviation: number | null;
  skewness: number | null;
  kurtosis: number | null;
  cronbachAlpha: number | null;
  errorRatio: number | null;
  standardError: number | null;
  questions: QuestionStatistics[];
}

export interface StatisticsArgs {
  round?: number | null;
  attempts?: StatisticsAttempts | null;
}

/** Exam.statistics: report on the exam; a caller who may not view it learns nothing of it. */
export async function examStatistics(ctx: Context, exam: Exam, args: StatisticsArgs): Promise<ResultStatistics> {
  const unknown = unknownContent('exam', exam.id);
  if (exam.archived) throw unknown;
  await assertCan(ctx, 'exam:results:read', exam, unknown);
  const round = args.round ?? exam.round;
  if (!Number.isInteger(round) || round < 1 || round > exam.round) {
    throw new ArgumentError('round', `the exam has rounds 1 to ${exam.round}`);
  }
  const scope = Prisma.sql`p."examId" = ${exam.id} AND p.round = ${round}`;
  return { round, ...(await statisticsOf(ctx, exam.quizId, scope, args.attempts ?? 'FIRST')) };
}

/** QuizSet.statistics: its practice results (not those of exams), report on the Quiz set. */
export async function quizSetStatistics(ctx: Context, quiz: QuizSet, args: Pick<StatisticsArgs, 'attempts'>): Promise<ResultStatistics> {
  const unknown = unknownQuizSet(quiz.id);
  if (quiz.archived) throw unknown;
  await assertCan(ctx, 'quiz:results:read', quiz, unknown);
  const scope = Prisma.sql`p."quizId" = ${quiz.id} AND p."examId" IS NULL`;
  return { round: null, ...(await statisticsOf(ctx, quiz.id, scope, args.attempts ?? 'FIRST')) };
}

/**
 * The chosen results, as the common table expression both statements start with: finished, not
 * archived results of the scope, one per examinee (its first or last attempt) or every attempt.
 * Forgotten results have no user: each is an examinee of its own.
 */
function chosenResults(scope: Prisma.Sql, attempts: StatisticsAttempts): Prisma.Sql {
  const finished = Prisma.sql`SELECT p.id, p."questionIds", p.attempt, p."timeStart", COALESCE(p."userId", p.id) AS examinee
    FROM "Play" p WHERE ${scope} AND p.status = 'finished' AND NOT p.archived`;
  if (attempts === 'ALL') return Prisma.sql`chosen AS (${finished})`;
  const order = attempts === 'FIRST' ? Prisma.sql`f.attempt, f."timeStart", f.id` : Prisma.sql`f.attempt DESC, f."timeStart" DESC, f.id DESC`;
  return Prisma.sql`chosen AS (
    SELECT id, "questionIds" FROM (SELECT f.*, row_number() OVER (PARTITION BY f.examinee ORDER BY ${order}) AS nth FROM (${finished}) f) ranked
    WHERE nth = 1
  )`;
}

/**
 * A row of the aggregate statement, one per grouping: `level` 3 per `waiting` (the results), 1 per
 * question, 0 per distinct response to a question (only choice questions carry a response).
 * Exact (numeric) sums come as float8: an exact 0 stays 0.
 */
interface AggregateRow {
  level: number;
  waiting: boolean;
  question: string | null;
  response: unknown;
  chosen: number;
  plays: number;
  cells: number;
  answered: number;
  // The results (level 3, not waiting): the sum of scores S, n * sum((S - mean)^2),
  // n^2 * sum((S - mean)^3), n^3 * sum((S - mean)^4), n * sum((P - mean P)^2), the median of S.
  s1: number | null;
  c2: number | null;
  c3: number | null;
  c4: number | null;
  vp: number | null;
  median: number | null;
  // A question (level 1, not waiting).
  facility: number | null;
  sd: number | null;
  varPoints: number | null;
  discrimination: number | null;
}

const CHOICE = new Set(['choice', 'multiple-choice']);

async function statisticsOf(ctx: Context, quizId: string, scope: Prisma.Sql, attempts: StatisticsAttempts): Promise<Omit<ResultStatistics, 'round'>> {
  const order = questionsOf(await quizEntries(ctx, quizId)).map((q) => q.id);
  const chosen = chosenResults(scope, attempts);
  // One snapshot: a result finishing between the two statements must be in both or in neither.
  const { asked, rows } = await ctx.db.$transaction(
    async (tx) => {
      // The cells are sorted once for the grouping sets: in memory (k rows per result, narrow) rather than on disk.
      await tx.$executeRaw`SET LOCAL work_mem = '64MB'`;
      const asked = await tx.$queryRaw<Question[]>(Prisma.sql`WITH ${chosen}
        SELECT q.* FROM "Question" q WHERE q.id IN (SELECT unnest("questionIds") FROM chosen)`);
      const maxima = Object.fromEntries(asked.map((q) => [q.id, pointsMaximumOf(q)]));
      const choices = asked.filter((q) => CHOICE.has(q.type)).map((q) => q.id);
      const rows = await tx.$queryRaw<AggregateRow[]>(aggregateSql(chosen, maxima, choices));
      return { asked, rows };
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
  );
  return assemble(order, asked, rows, attempts);
}

/**
 * The one aggregate statement, one pass over the cells. Each chosen result's answers come from one
 * index range scan and are matched to its questions in memory; window functions over that one
 * result's cells give its total, its maximum and whether an answer awaits grading, so no cell is
 * joined to anything afterwards. GROUPING SETS then aggregate the results (their first cell stands
 * for them), each question, and each distinct response to a choice question, in one scan.
 *
 * Exactness where it decides a null: scores and totals are summed as numeric at a fixed scale, and
 * the moments come from exact power sums (n * sum(x^2) - sum(x)^2 is exactly 0 for equal values);
 * a question's points are compared exactly (min = max); the rest of the test (P - p) is a
 * difference of floats, constant when its range is below 1e-9 of its size (points are stored to
 * 6 decimals, so distinct values lie much further apart).
 */
function aggregateSql(chosen: Prisma.Sql, maxima: Record<string, number>, choices: string[]): Prisma.Sql {
  return Prisma.sql`WITH ${chosen},
    cells AS (
      SELECT w.*,
        CASE WHEN w.nth = 1 THEN round((100 * w.total / w.out_of)::numeric, 9) END AS score,
        CASE WHEN w.nth = 1 THEN round(w.total::numeric, 9) END AS points_total
      FROM chosen c CROSS JOIN LATERAL (
        SELECT m.*, bool_or(NOT m.evaluated) OVER () AS waiting, sum(m.points) OVER () AS total,
          sum(m.maximum) OVER () AS out_of, row_number() OVER () AS nth
        FROM (
          SELECT q.question, a.question IS NOT NULL AS answered, COALESCE(a.evaluated, true) AS evaluated,
            CASE WHEN q.question = ANY(${choices}::text[]) THEN a.response END AS response,
            COALESCE(a.points, 0) AS points, COALESCE(a."pointsMaximum", x.maximum) AS maximum
          FROM unnest(c."questionIds") AS q(question)
          CROSS JOIN LATERAL (SELECT (${JSON.stringify(maxima)}::jsonb ->> q.question)::float8 AS maximum) x
          LEFT JOIN (
            SELECT "questionId" AS question, evaluated, response, points, "pointsMaximum" FROM "PlayAnswer" WHERE "playId" = c.id OFFSET 0
          ) a ON a.question = q.question
          WHERE x.maximum IS NOT NULL
        ) m
        WHERE m.maximum > 0
      ) w
    )
    SELECT GROUPING(question, response) AS level, waiting, question, response,
      (SELECT count(*) FROM chosen)::int AS chosen,
      count(*) FILTER (WHERE nth = 1)::int AS plays, count(*)::int AS cells, count(*) FILTER (WHERE answered)::int AS answered,
      sum(score)::float8 AS s1,
      (count(score) * sum(score * score) - sum(score) * sum(score))::float8 AS c2,
      (count(score) * count(score) * sum(score * score * score) - 3 * count(score) * sum(score) * sum(score * score)
        + 2 * sum(score) * sum(score) * sum(score))::float8 AS c3,
      (count(score) * count(score) * count(score) * sum(score * score * score * score)
        - 4 * count(score) * count(score) * sum(score) * sum(score * score * score)
        + 6 * count(score) * sum(score) * sum(score) * sum(score * score)
        - 3 * sum(score) * sum(score) * sum(score) * sum(score))::float8 AS c4,
      (count(points_total) * sum(points_total * points_total) - sum(points_total) * sum(points_total))::float8 AS vp,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY score::float8) AS median,
      100 * avg(points / maximum) AS facility,
      CASE WHEN min(points / maximum) = max(points / maximum) THEN 0 ELSE 100 * stddev_samp(points / maximum) END AS sd,
      CASE WHEN min(points) = max(points) THEN 0 ELSE var_samp(points) END AS "varPoints",
      CASE WHEN min(points) < max(points)
        AND max(total - points) - min(total - points) > 1e-9 * greatest(1, abs(max(total - points)), abs(min(total - points)))
        THEN 100 * corr(points, total - points) END AS discrimination
    FROM cells
    GROUP BY GROUPING SETS ((waiting), (waiting, question), (waiting, question, response))`;
}

const round4 = (x: number | null): number | null => (x === null || !Number.isFinite(x) ? null : Math.round(x * 1e4) / 1e4 || 0);

/** The test's figures from the results' row (exact sums, see aggregateSql). */
function testFigures(row: AggregateRow | undefined, k: number, varPoints: number) {
  const n = row?.plays ?? 0;
  if (!row || n === 0) return { n, mean: null, median: null, sd: null, skewness: null, kurtosis: null, alpha: null };
  const c2 = row.c2! / n;
  const sd = n >= 2 ? Math.sqrt(c2 / (n - 1)) : null;
  const spread = sd !== null && row.c2! > 0;
  const z3 = spread ? row.c3! / n ** 2 / sd ** 3 : 0;
  const z4 = spread ? row.c4! / n ** 3 / sd ** 4 : 0;
  const varTotal = n >= 2 ? row.vp! / (n * (n - 1)) : null;
  return {
    n,
    mean: row.s1! / n,
    median: row.median,
    sd,
    skewness: spread && n >= 3 ? (n / ((n - 1) * (n - 2))) * z3 : null,
    kurtosis: spread && n >= 4 ? ((n * (n + 1)) / ((n - 1) * (n - 2) * (n - 3))) * z4 - (3 * (n - 1) ** 2) / ((n - 2) * (n - 3)) : null,
    alpha: k >= 2 && varTotal !== null && row.vp! > 0 ? (k / (k - 1)) * (1 - varPoints / varTotal) : null,
  };
}

function assemble(order: string[], asked: Question[], rows: AggregateRow[], attempts: StatisticsAttempts): Omit<ResultStatistics, 'round'> {
  const counted = rows.filter((r) => !r.waiting);
  const items = counted.filter((r) => r.level === 1);
  const test = testFigures(
    counted.find((r) => r.level === 3),
    items.length,
    items.reduce((sum, i) => sum + (i.varPoints ?? 0), 0),
  );
  const errorRatio = test.alpha !== null && test.alpha >= 0 && test.alpha <= 1 ? 100 * Math.sqrt(1 - test.alpha) : null;
  const standardError = errorRatio !== null && test.sd !== null ? (errorRatio / 100) * test.sd : null;
  const awaitingGrading = rows.find((r) => r.level === 3 && r.waiting)?.plays ?? 0;
  const chosen = rows[0]?.chosen ?? 0;

  const byId = new Map(asked.map((q) => [q.id, q]));
  const place = new Map(order.map((id, i) => [id, i]));
  const listed = [...items].sort((x, y) => (place.get(x.question!) ?? Infinity) - (place.get(y.question!) ?? Infinity) || x.question!.localeCompare(y.question!));
  const chosenOf = optionCounts(byId, counted.filter((r) => r.level === 0 && r.response !== null));
  return {
    attempts,
    results: test.n,
    leftOut: { awaitingGrading, withoutPoints: chosen - awaitingGrading - test.n },
    mean: round4(test.mean),
    median: round4(test.median),
    standardDeviation: round4(test.sd),
    skewness: round4(test.skewness),
    kurtosis: round4(test.kurtosis),
    cronbachAlpha: round4(test.alpha),
    errorRatio: round4(errorRatio),
    standardError: round4(standardError),
    questions: listed.map((item) => {
      const question = byId.get(item.question!)!;
      const facilityIndex = round4(item.facility)!;
      const discriminationIndex = round4(item.discrimination);
      const flags: QuestionFlag[] = [];
      if (facilityIndex > 90) flags.push('VERY_EASY');
      if (facilityIndex < 10) flags.push('VERY_HARD');
      if (discriminationIndex !== null && discriminationIndex < 20) flags.push('POOR_DISCRIMINATION');
      if (discriminationIndex !== null && discriminationIndex < 0) flags.push('NEGATIVE_DISCRIMINATION');
      const choices = question.answers.length + question.options.length;
      return {
        question,
        results: item.cells,
        answered: item.answered,
        facilityIndex,
        standardDeviation: item.cells >= 2 ? round4(item.sd) : null,
        discriminationIndex,
        randomGuessScore: question.type === 'choice' && choices > 0 ? round4(100 / choices) : null,
        options: chosenOf.get(question.id) ?? (CHOICE.has(question.type) ? itemsOf(question).map((o) => ({ ...o, chosen: 0 })) : null),
        flags,
      };
    }),
  };
}

/** The items of a choice question in the checker's canonical order: answers (correct), then options. */
const itemsOf = (q: Question) => [...q.answers.map((text) => ({ text, correct: true })), ...q.options.map((text) => ({ text, correct: false }))];

/** How many counted results chose each item of each choice question, from its distinct responses. */
function optionCounts(byId: Map<string, Question>, responses: readonly AggregateRow[]): Map<string, OptionStatistics[]> {
  const out = new Map<string, OptionStatistics[]>();
  for (const r of responses) {
    const question = byId.get(r.question!);
    if (!question) continue;
    if (!out.has(question.id)) out.set(question.id, itemsOf(question).map((o) => ({ ...o, chosen: 0 })));
    const options = out.get(question.id)!;
    for (const index of selectedItems(toCheckable(question), r.response)) options[index]!.chosen += r.cells;
  }
  return out;
}
