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
 * Sums and variances are exact (numeric), so "variance 0" is decided exactly, not by a float that
 * came out as 1e-17. Figures are rounded to 4 decimals.
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
 * The results that count, as common table expressions every statement starts with: `chosen`
 * (one per examinee, or every attempt; forgotten results have no user and each is its own
 * examinee) with `waiting` set where an answer awaits grading, and `counted`, those that do not.
 */
function countedResults(scope: Prisma.Sql, attempts: StatisticsAttempts): Prisma.Sql {
  const chosen =
    attempts === 'ALL'
      ? Prisma.sql`SELECT * FROM finished`
      : Prisma.sql`SELECT * FROM (
          SELECT f.*, row_number() OVER (PARTITION BY f.examinee ORDER BY ${attempts === 'FIRST' ? Prisma.sql`f.attempt, f."timeStart", f.id` : Prisma.sql`f.attempt DESC, f."timeStart" DESC, f.id DESC`}) AS nth
          FROM finished f
        ) ranked WHERE nth = 1`;
  return Prisma.sql`finished AS (
      SELECT p.id, p."questionIds", p.attempt, p."timeStart", COALESCE(p."userId", p.id) AS examinee,
        EXISTS (SELECT 1 FROM "PlayAnswer" w WHERE w."playId" = p.id AND NOT w.evaluated) AS waiting
      FROM "Play" p
      WHERE ${scope} AND p.status = 'finished' AND NOT p.archived
    ),
    chosen AS (${chosen}),
    counted AS (SELECT id, "questionIds" FROM chosen WHERE NOT waiting)`;
}

interface Aggregates {
  awaitingGrading: number;
  withoutPoints: number;
  n: number;
  mean: number | null;
  median: number | null;
  sd: number | null;
  varTotal: number | null;
  z3: number | null;
  z4: number | null;
  items: {
    question: string;
    results: number;
    answered: number;
    facility: number;
    sd: number | null;
    varPoints: number;
    discrimination: number | null;
  }[] | null;
}

const CHOICE = new Set(['choice', 'multiple-choice']);

async function statisticsOf(ctx: Context, quizId: string, scope: Prisma.Sql, attempts: StatisticsAttempts): Promise<Omit<ResultStatistics, 'round'>> {
  const order = questionsOf(await quizEntries(ctx, quizId)).map((q) => q.id);
  const results = countedResults(scope, attempts);
  // One snapshot: a result finishing meanwhile must not be in one statement and not in another.
  const { asked, aggregates, responses } = await ctx.db.$transaction(
    async (tx) => {
      const asked = await tx.$queryRaw<Question[]>(Prisma.sql`WITH ${results}
        SELECT q.* FROM "Question" q WHERE q.id IN (SELECT unnest("questionIds") FROM counted)`);
      const ids = asked.map((q) => q.id);
      const maxima = asked.map((q) => pointsMaximumOf(q));
      const [aggregates] = await tx.$queryRaw<Aggregates[]>(aggregateSql(results, ids, maxima));
      const choiceIds = asked.filter((q) => CHOICE.has(q.type)).map((q) => q.id);
      const responses = choiceIds.length
        ? await tx.$queryRaw<{ question: string; response: unknown; results: number }[]>(Prisma.sql`WITH ${results}
            SELECT a."questionId" AS question, a.response, count(*)::int AS results
            FROM counted c JOIN "PlayAnswer" a ON a."playId" = c.id
            WHERE a."questionId" = ANY(${choiceIds}::text[])
            GROUP BY a."questionId", a.response`)
        : [];
      return { asked, aggregates: aggregates!, responses };
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
  );
  return assemble(order, asked, aggregates, responses, attempts);
}

/**
 * The one aggregate statement: per result its total and score, the test's moments over the
 * scores, and per question its counts, facility, spread, variance and the exact sums of squares
 * and products for its correlation with the rest of the test.
 */
function aggregateSql(results: Prisma.Sql, ids: string[], maxima: number[]): Prisma.Sql {
  return Prisma.sql`WITH ${results},
    maxima AS (SELECT * FROM unnest(${ids}::text[], ${maxima}::float8[]) AS x(question, maximum)),
    cells AS (
      SELECT c.id AS play, x.question, a."playId" IS NOT NULL AS answered,
        COALESCE(a.points, 0)::numeric AS points, COALESCE(a."pointsMaximum", x.maximum)::numeric AS maximum
      FROM counted c
      CROSS JOIN LATERAL unnest(c."questionIds") AS asked(question)
      JOIN maxima x ON x.question = asked.question
      LEFT JOIN "PlayAnswer" a ON a."playId" = c.id AND a."questionId" = asked.question
      WHERE COALESCE(a."pointsMaximum", x.maximum) > 0
    ),
    totals AS (
      -- Scores at a fixed scale, so equal shares are equal numbers whatever their fractions.
      SELECT play, sum(points) AS total, round(100 * sum(points) / sum(maximum), 12) AS score FROM cells GROUP BY play
    ),
    test AS (
      SELECT count(*)::int AS n, avg(score) AS mean, stddev_samp(score) AS sd, var_samp(total) AS var_total,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY score::float8) AS median
      FROM totals
    ),
    shape AS (
      SELECT sum(power((t.score - s.mean) / s.sd, 3)) AS z3, sum(power((t.score - s.mean) / s.sd, 4)) AS z4
      FROM totals t CROSS JOIN test s WHERE s.sd > 0
    ),
    sums AS (
      SELECT c.question, count(*) AS n, count(*) FILTER (WHERE c.answered) AS answered,
        100 * avg(c.points / c.maximum) AS facility, 100 * stddev_samp(c.points / c.maximum) AS sd,
        COALESCE(var_samp(c.points), 0) AS var_points,
        count(*) * sum(c.points * c.points) - sum(c.points) * sum(c.points) AS sxx,
        count(*) * sum((t.total - c.points) * (t.total - c.points)) - sum(t.total - c.points) * sum(t.total - c.points) AS syy,
        count(*) * sum(c.points * (t.total - c.points)) - sum(c.points) * sum(t.total - c.points) AS sxy
      FROM cells c JOIN totals t USING (play)
      GROUP BY c.question
    )
    SELECT
      (SELECT count(*) FILTER (WHERE waiting) FROM chosen)::int AS "awaitingGrading",
      (SELECT count(*) FROM counted c WHERE NOT EXISTS (SELECT 1 FROM totals t WHERE t.play = c.id))::int AS "withoutPoints",
      s.n, s.mean::float8 AS mean, s.median, s.sd::float8 AS sd, s.var_total::float8 AS "varTotal",
      (SELECT z3::float8 FROM shape) AS z3, (SELECT z4::float8 FROM shape) AS z4,
      (SELECT json_agg(json_build_object(
        'question', question, 'results', n, 'answered', answered, 'facility', facility::float8, 'sd', sd::float8,
        'varPoints', var_points::float8,
        'discrimination', CASE WHEN sxx > 0 AND syy > 0 THEN (100 * sxy / sqrt(sxx * syy))::float8 END
      )) FROM sums) AS items
    FROM test s`;
}

const round4 = (x: number | null): number | null => (x === null || !Number.isFinite(x) ? null : Math.round(x * 1e4) / 1e4 || 0);

function assemble(
  order: string[],
  asked: Question[],
  a: Aggregates,
  responses: { question: string; response: unknown; results: number }[],
  attempts: StatisticsAttempts,
): Omit<ResultStatistics, 'round'> {
  const n = a.n;
  const sd = n >= 2 ? a.sd : null;
  const spread = sd !== null && sd > 0;
  const sum3 = a.z3 ?? 0;
  const sum4 = a.z4 ?? 0;
  const skewness = spread && n >= 3 ? (n / ((n - 1) * (n - 2))) * sum3 : null;
  const kurtosis = spread && n >= 4 ? ((n * (n + 1)) / ((n - 1) * (n - 2) * (n - 3))) * sum4 - (3 * (n - 1) ** 2) / ((n - 2) * (n - 3)) : null;
  const items = a.items ?? [];
  const k = items.length;
  const varTotal = n >= 2 ? a.varTotal : null;
  const alpha = k >= 2 && varTotal !== null && varTotal > 0 ? (k / (k - 1)) * (1 - items.reduce((s, i) => s + i.varPoints, 0) / varTotal) : null;
  const errorRatio = alpha !== null && alpha >= 0 && alpha <= 1 ? 100 * Math.sqrt(1 - alpha) : null;
  const standardError = errorRatio !== null && sd !== null ? (errorRatio / 100) * sd : null;

  const byId = new Map(asked.map((q) => [q.id, q]));
  const place = new Map(order.map((id, i) => [id, i]));
  const listed = [...items].sort((x, y) => (place.get(x.question) ?? Infinity) - (place.get(y.question) ?? Infinity) || x.question.localeCompare(y.question));
  const chosenOf = optionCounts(byId, responses);
  return {
    attempts,
    results: n,
    leftOut: { awaitingGrading: a.awaitingGrading, withoutPoints: a.withoutPoints },
    mean: round4(a.mean),
    median: round4(a.median),
    standardDeviation: round4(sd),
    skewness: round4(skewness),
    kurtosis: round4(kurtosis),
    cronbachAlpha: round4(alpha),
    errorRatio: round4(errorRatio),
    standardError: round4(standardError),
    questions: listed.map((item) => {
      const question = byId.get(item.question)!;
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
        results: item.results,
        answered: item.answered,
        facilityIndex,
        standardDeviation: item.results >= 2 ? round4(item.sd) : null,
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
function optionCounts(byId: Map<string, Question>, responses: { question: string; response: unknown; results: number }[]): Map<string, OptionStatistics[]> {
  const out = new Map<string, OptionStatistics[]>();
  for (const r of responses) {
    const question = byId.get(r.question);
    if (!question) continue;
    if (!out.has(question.id)) out.set(question.id, itemsOf(question).map((o) => ({ ...o, chosen: 0 })));
    const options = out.get(question.id)!;
    for (const index of selectedItems(toCheckable(question), r.response)) options[index]!.chosen += r.results;
  }
  return out;
}
