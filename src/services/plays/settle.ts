import { Prisma, type Exam, type GradingPreset, type Play, type PlayAnswer, type Question, type QuizSet } from '../../generated/prisma/client.ts';
import { certifySettled } from '../certificates/certificates.service.ts';
import { onPlaySettled } from '../journeys/runtime.ts';
import { recordExamRequirements } from './competency-progress.ts';
import { presetCodeOf, type PlayRules } from './exam-rules.ts';
import { announceResult, resultEventOf } from './result-events.ts';
import { gradeOf, scoreAnswer, totalsOf, type AnswerScore } from './scoring.ts';
import type { SettledPlay } from './finish-requests.ts';

type Tx = Prisma.TransactionClient;

export type { SettledPlay } from './finish-requests.ts';

/** What scoring reads of an answer. */
export type AnswerFacts = Pick<PlayAnswer, 'questionId' | 'response' | 'hints' | 'solutionSteps' | 'points' | 'pointsMaximum' | 'evaluated' | 'gradedById'>;

type AnswerKey = Pick<Question, 'id' | 'type' | 'answers' | 'options' | 'data'>;

export interface SettleOptions {
  /** Score every answer with the answer checker (a finish), or keep the points as they are (a grade). */
  score: boolean;
  rules: PlayRules;
  /** The play's exam (null for practice) and Quiz set, as the caller read them. */
  content: { exam: Exam | null; quiz: QuizSet };
  /** Finishes the play (the caller holds its lock and saw it open) at this time, and announces its result. */
  finish?: { timeEnd: Date };
  /** Answer keys the caller holds already (the exam's, read once for its starts); the play's other questions are read. */
  answerKeys?: ReadonlyMap<string, AnswerKey>;
}

export interface PlayToSettle {
  /** Locked by the caller for the transaction. */
  play: Pick<Play, 'id' | 'questionIds'>;
  /** Its answers, when the caller read them with the lock; read here otherwise. */
  answers?: readonly AnswerFacts[];
  options: SettleOptions;
}

/**
 * Writes finished plays' scores: with `score`, every answer through the answer checker (an
 * educator's grade stays); then the totals over each play's questions (unanswered ones score 0),
 * and the grade and success once nothing waits for a person (until then both are null); the
 * user's exam requirements follow, the certificate of a result that qualifies for one, the user's
 * journeys (steps of the play's exam or Quiz set, entering one its exam starts) and, for a
 * finish, the result event to the organization's webhooks.
 *
 * A constant number of statements whatever the number of plays, questions and answers: the reads,
 * one write of the answers' points, one of the plays' totals, and one look at what follows
 * (journeys, requirements, webhooks), so that only the plays something follows for cost more.
 * The plays of exam day's finishes arriving together are settled by one such round.
 */
export async function settlePlays(tx: Tx, items: readonly PlayToSettle[]): Promise<SettledPlay[]> {
  if (items.length === 0) return [];
  const { keys, answers, presets } = await readForScoring(tx, items);
  const scored: (AnswerScore & { playId: string; questionId: string })[] = [];
  const rows = items.map(({ play, options }) => {
    const answerOf = new Map((answers.get(play.id) ?? []).map((a) => [a.questionId, a]));
    const scores: AnswerScore[] = [];
    for (const questionId of play.questionIds) {
      const question = options.answerKeys?.get(questionId) ?? keys.get(questionId);
      // A question deleted since the start is no longer part of the result.
      if (!question) continue;
      const answer = answerOf.get(questionId);
      if (options.score && answer && !answer.gradedById) {
        const score = scoreAnswer(question, answer);
        scored.push({ playId: play.id, questionId, ...score });
        scores.push(score);
      } else if (answer) scores.push({ points: answer.points ?? 0, pointsMaximum: answer.pointsMaximum, evaluated: answer.evaluated });
      else scores.push(scoreAnswer(question, undefined));
    }
    const totals = totalsOf(scores);
    const preset = presetOf(presets, options.rules);
    const decided = totals.evaluated
      ? gradeOf({ grading: options.rules.grading, gradingThreshold: options.rules.gradingThreshold, preset }, totals)
      : { grade: null, successful: null };
    return { id: play.id, ...totals, ...decided, timeEnd: options.finish?.timeEnd ?? null };
  });
  await writeScores(tx, scored);
  const written = await writeTotals(tx, rows);
  const settled = items.map(({ play, options }) => ({ ...written.get(play.id)!, ...options.content }));
  const follows = await whatFollows(tx, settled, items);
  for (const [i, play] of settled.entries()) {
    const { options } = items[i]!;
    if (play.examId && follows.requirementExams.has(play.examId)) await recordExamRequirements(tx, play);
    await certifySettled(tx, play, presetOf(presets, options.rules));
    if (follows.journeyUsers.has(play.userId ?? '') || (play.examId && follows.journeyExams.has(play.examId))) await onPlaySettled(tx, play);
    if (options.finish && follows.announced.has(play.id)) await announceResult(tx, play, resultEventOf(play)!);
  }
  return settled;
}

/** One play: see settlePlays. */
export async function settlePlay(tx: Tx, play: PlayToSettle['play'], options: SettleOptions, answers?: readonly AnswerFacts[]): Promise<SettledPlay> {
  return (await settlePlays(tx, [{ play, options, ...(answers ? { answers } : {}) }]))[0]!;
}

/** The answer keys the callers lack, the answers they did not read, and the grading presets, in one round. */
async function readForScoring(tx: Tx, items: readonly PlayToSettle[]) {
  const unknown = [...new Set(items.flatMap(({ play, options }) => play.questionIds.filter((id) => !options.answerKeys?.has(id))))];
  const unread = items.filter((i) => !i.answers).map((i) => i.play.id);
  const codes = [...new Set(items.flatMap((i) => presetCodeOf(i.options.rules) ?? []))];
  const [questions, answerRows, presetRows] = await Promise.all([
    unknown.length === 0 ? [] : tx.question.findMany({ where: { id: { in: unknown } }, select: { id: true, type: true, answers: true, options: true, data: true } }),
    unread.length === 0 ? [] : tx.playAnswer.findMany({ where: { playId: { in: unread } } }),
    codes.length === 0 ? [] : tx.gradingPreset.findMany({ where: { id: { in: codes } } }),
  ]);
  const answers = new Map<string, readonly AnswerFacts[]>(items.flatMap((i) => (i.answers ? [[i.play.id, i.answers] as const] : [])));
  for (const row of answerRows) answers.set(row.playId, [...(answers.get(row.playId) ?? []), row]);
  return { keys: new Map(questions.map((q) => [q.id, q])), answers, presets: new Map(presetRows.map((p) => [p.id, p])) };
}

/** The grading preset of the rules among those read (as gradingPresetOf reads one). */
const presetOf = (presets: ReadonlyMap<string, GradingPreset>, rules: Pick<PlayRules, 'grading'>) => presets.get(presetCodeOf(rules) ?? '') ?? null;

/** Writes the scores of many answers, of one play or many, in one statement. */
async function writeScores(tx: Tx, scores: readonly (AnswerScore & { playId: string; questionId: string })[]): Promise<void> {
  if (scores.length === 0) return;
  const column = <T>(pick: (s: (typeof scores)[number]) => T) => scores.map(pick);
  await tx.$executeRaw`
    UPDATE "PlayAnswer" a SET "points" = s."points", "pointsMaximum" = s."pointsMaximum", "evaluated" = s."evaluated"
    FROM unnest(${column((s) => s.playId)}::text[], ${column((s) => s.questionId)}::text[], ${column((s) => s.points)}::float8[],
      ${column((s) => s.pointsMaximum)}::float8[], ${column((s) => s.evaluated)}::boolean[])
      AS s("playId", "questionId", "points", "pointsMaximum", "evaluated")
    WHERE a."playId" = s."playId" AND a."questionId" = s."questionId"`;
}

interface Totals {
  id: string;
  questionsTotal: number;
  questionsCorrect: number;
  pointsTotal: number;
  pointsCorrect: number;
  evaluated: boolean;
  grade: string | null;
  successful: boolean | null;
  /** Set when the play finishes now: it closes (status, end, no open key). */
  timeEnd: Date | null;
}

/** Writes the plays' totals, grades and (for finishes) their end in one statement; the written rows by id. */
async function writeTotals(tx: Tx, rows: readonly Totals[]): Promise<Map<string, Play>> {
  const column = <T>(pick: (r: Totals) => T) => rows.map(pick);
  const written = await tx.$queryRaw<Play[]>`
    UPDATE "Play" p SET "questionsTotal" = u."questionsTotal", "questionsCorrect" = u."questionsCorrect", "pointsTotal" = u."pointsTotal",
      "pointsCorrect" = u."pointsCorrect", "evaluated" = u."evaluated", "grade" = u."grade", "successful" = u."successful",
      "status" = CASE WHEN u."timeEnd" IS NULL THEN p."status" ELSE 'finished' END,
      "timeEnd" = COALESCE(u."timeEnd" AT TIME ZONE 'UTC', p."timeEnd"),
      "openKey" = CASE WHEN u."timeEnd" IS NULL THEN p."openKey" END
    FROM unnest(${column((r) => r.id)}::text[], ${column((r) => r.questionsTotal)}::int[], ${column((r) => r.questionsCorrect)}::int[],
      ${column((r) => r.pointsTotal)}::float8[], ${column((r) => r.pointsCorrect)}::float8[], ${column((r) => r.evaluated)}::boolean[],
      ${column((r) => r.grade)}::text[], ${column((r) => r.successful)}::boolean[], ${column((r) => r.timeEnd?.toISOString() ?? null)}::timestamptz[])
      AS u("id", "questionsTotal", "questionsCorrect", "pointsTotal", "pointsCorrect", "evaluated", "grade", "successful", "timeEnd")
    WHERE p."id" = u."id"
    RETURNING p.*`;
  return new Map(written.map((p) => [p.id, p]));
}

/**
 * Which of the settled plays something follows for, in one statement: users on an active journey,
 * exams that start a journey, exams a competency requirement names, and finishes whose result
 * event an active webhook of the organization takes (the user being a member of it).
 */
async function whatFollows(tx: Tx, settled: readonly SettledPlay[], items: readonly PlayToSettle[]) {
  const users = [...new Set(settled.flatMap((p) => (p.userId ? [p.userId] : [])))];
  const exams = [...new Set(settled.flatMap((p) => (p.examId ? [p.examId] : [])))];
  const events = settled.flatMap((p, i) => {
    const event = items[i]!.options.finish ? resultEventOf(p) : null;
    return event ? [{ play: p.id, ...event }] : [];
  });
  const [row] = await tx.$queryRaw<{ journeyUsers: string[]; journeyExams: string[]; requirementExams: string[]; announced: string[] }[]>`
    SELECT
      ARRAY(SELECT DISTINCT "userId" FROM "JourneyUser" WHERE "userId" = ANY(${users}::text[]) AND "status" = 'active') AS "journeyUsers",
      ARRAY(SELECT "examId" FROM "Journey" WHERE "examId" = ANY(${exams}::text[])) AS "journeyExams",
      ARRAY(SELECT DISTINCT "contentId" FROM "Requirement" WHERE "type" = 'exam' AND "contentId" = ANY(${exams}::text[])) AS "requirementExams",
      ARRAY(
        SELECT e."play" FROM unnest(${events.map((e) => e.play)}::text[], ${events.map((e) => e.organizationId)}::text[], ${events.map((e) => e.userId)}::text[],
          ${events.map((e) => e.event)}::text[]) AS e("play", "organizationId", "userId", "event")
        WHERE EXISTS (SELECT 1 FROM "OrganizationMember" m WHERE m."organizationId" = e."organizationId" AND m."userId" = e."userId")
          AND EXISTS (SELECT 1 FROM "Webhook" w WHERE w."organizationId" = e."organizationId" AND w."triggerEvent" = e."event" AND w."active")
      ) AS "announced"`;
  return {
    journeyUsers: new Set(row!.journeyUsers),
    journeyExams: new Set(row!.journeyExams),
    requirementExams: new Set(row!.requirementExams),
    announced: new Set(row!.announced),
  };
}
