import { randomInt } from 'node:crypto';
import { z } from 'zod';
import type { Context } from '../../context.ts';
import type { Exam, Play, PlayAnswer, Prisma } from '../../generated/prisma/client.ts';
import { can, canEach, denied } from '../../auth/policy.ts';
import { ArgumentError, BusyError, PermissionError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { cancel } from '../../jobs/queue.ts';
import type { SystemContext } from '../../jobs/system.ts';
import { defineTask } from '../../jobs/task.ts';
import { unknownContent } from '../content/records.ts';
import { selectsRelations, type Selection } from '../selection.ts';
import { parseInput } from '../validation.ts';
import { examRules, inExamPeriod, type PlayRules } from './exam-rules.ts';
import { deriveStatus } from '../exams/status.ts';
import { unknownPlay } from './play-access.ts';
import { settlePlay, settlePlays, type AnswerFacts, type SettleOptions } from './settle.ts';
import type { FinishOutcome, FinishRequest, PlayFinisher } from './finish-requests.ts';
import { Batcher } from '../../batcher.ts';
import * as s from './plays.schemas.ts';
import { unknownQuizSet } from '../quizzes/access.ts';
import { practiceStart, type QuestionOrder } from './exam-starts.ts';
import { openKeyOf, type AnswerInput, type PlayScope } from './player-statements.ts';

/**
 * The player: starting, answering and finishing plays for the calling (or assumed) user, and
 * grading answers that wait for a person. A start and an answer are each one conditional
 * statement (player-statements.ts): the open play's unique key keeps a start from making two
 * attempts, and an answer locks its play's row only for its own statement, so it cannot slip in
 * while the play finishes. Finishing and grading lock the play in a transaction.
 */

type Tx = Prisma.TransactionClient;

const playError = (rule: string, code: string) => new PermissionError(rule, code);

/** The rules the play follows and what it is a play of: its exam (with the Quiz set where the exam defers), or its Quiz set. */
async function playContentOf(ctx: Pick<Context, 'examStarts'>, db: Tx, play: Pick<Play, 'examId' | 'quizId'>): Promise<Pick<SettleOptions, 'rules' | 'content' | 'answerKeys'>> {
  if (play.examId) {
    const start = await ctx.examStarts.get(db, play.examId);
    if (start) return { rules: start.rules, content: { exam: start.exam, quiz: start.exam.quiz }, answerKeys: start.answerKeys };
    // An archived exam's plays still finish by its rules.
    const { quiz, ...exam } = await db.exam.findUniqueOrThrow({ where: { id: play.examId }, include: { quiz: true } });
    return { rules: (await examRules(db, [{ ...exam, quiz }]))[0]!, content: { exam, quiz } };
  }
  const quiz = await db.quizSet.findUniqueOrThrow({ where: { id: play.quizId } });
  return { rules: (await practiceStart(db, quiz)).rules, content: { exam: null, quiz } };
}

/** Locks a play for the rest of the transaction (an answer and the finish never interleave) and reads it. */
async function lockedPlay(tx: Tx, id: string): Promise<Play | undefined> {
  const [play] = await tx.$queryRaw<Play[]>`SELECT * FROM "Play" WHERE "id" = ${id} FOR UPDATE`;
  return play;
}

/** The questions in the Quiz set's order, shuffled once for this play when the Quiz set shuffles. */
function orderForPlay(quiz: { shuffle: boolean | null }, order: QuestionOrder): QuestionOrder {
  if (!quiz.shuffle) return order;
  const ids = [...order.ids];
  const maxima = [...order.maxima];
  for (let i = ids.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    [maxima[i], maxima[j]] = [maxima[j]!, maxima[i]!];
  }
  return { ids, maxima };
}

/**
 * An exam account held by a blocking exam: during the period of an exam it is an examinee of
 * whose nonblocking is off, it may start nothing but that exam. Other accounts are never held (no statement).
 */
async function isBlocked(ctx: Context, startingExamId: string | null, now: Date): Promise<boolean> {
  if (!ctx.viewer.user.generated) return false;
  const exams = await ctx.db.exam.findMany({
    where: { archived: false, active: true, start: { lte: now }, end: { gt: now }, users: { some: { userId: ctx.viewer.user.id } }, ...(startingExamId ? { id: { not: startingExamId } } : {}) },
    include: { quiz: true },
  });
  if (exams.length === 0) return false;
  const rules = await examRules(ctx.db, exams);
  return exams.some((exam, i) => inExamPeriod(exam, now) && !rules[i]!.nonblocking);
}

/** Starts of one user kept meeting each other (each found the play of another gone): the caller may send it again. */
const startsCollided = () => new BusyError('Starts of this play kept meeting each other; try again', 1);

const blockedError = () => playError('This exam account is held by a blocking exam during its period and may start no other play', 'EXAM_ACCOUNT_BLOCKED');

/** When an open play closes: pausable exams at the end of the period, others at their time limit (within the period). */
function deadlineOf(rules: PlayRules, now: Date, exam: Exam | null): Date | null {
  const limit = rules.timelimit === null ? null : new Date(now.getTime() + rules.timelimit * 1000);
  if (!exam) return limit;
  if (rules.pausable || limit === null) return exam.end;
  return limit < exam.end ? limit : exam.end;
}

interface StartPlan {
  scope: PlayScope;
  exam: Exam | null;
  quiz: { mode: string; shuffle: boolean | null };
  rules: PlayRules;
  questions: QuestionOrder;
  round: number;
  /** A new play may be written (the exam is ACTIVE and the account is not held elsewhere). */
  create: boolean;
}

/**
 * Continues the open play of the plan's scope or writes a new one. An open play past its deadline
 * is finished first, and a questionless test finishes as it starts. Answers undefined when there
 * is nothing to continue and nothing was written (the caller tells why).
 */
async function startIn(ctx: Context, plan: StartPlan, now: Date): Promise<Play | undefined> {
  for (let tries = 0; tries < 3; tries++) {
    const order = plan.rules.questionless ? { ids: [], maxima: [] } : orderForPlay(plan.quiz, plan.questions);
    const claimed = await ctx.claims.add({
      scope: plan.scope,
      play: { id: newId('Play'), round: plan.round, now, questionIds: order.ids, questionMaxima: order.maxima, mode: plan.quiz.mode, roundtime: plan.rules.roundtime, deadline: deadlineOf(plan.rules, now, plan.exam) },
      create: plan.create,
    });
    if (!claimed) {
      // A start of the same user at the same moment won (its play is newer than this statement's view): continue that one.
      return plan.create ? ((await ctx.db.play.findUnique({ where: { openKey: openKeyOf(plan.scope) } })) ?? undefined) : undefined;
    }
    const { created, ...play } = claimed;
    const overdue = !created && play.deadline !== null && play.deadline <= now;
    if (!overdue && !(created && plan.rules.questionless)) return play;
    await finishOpen(ctx, play.id, now);
    if (created) return ctx.db.play.findUniqueOrThrow({ where: { id: play.id } });
  }
  return undefined;
}

async function startExamPlay(ctx: Context, examId: string, now: Date): Promise<Play> {
  const start = await ctx.examStarts.get(ctx.db, examId);
  if (!start) throw unknownContent('exam', examId);
  const { exam, rules, run } = start;
  const status = deriveStatus(exam, run, now);
  const blocked = status === 'ACTIVE' && (await isBlocked(ctx, exam.id, now));
  const scope = { examId, quizId: exam.quizId, userId: ctx.viewer.user.id };
  const play = await startIn(ctx, { scope, exam, quiz: exam.quiz, rules, questions: start.questions, round: exam.round, create: status === 'ACTIVE' && !blocked }, now);
  if (play) return play;
  // Nothing to continue and nothing written: the first rule that refused, in the order they apply.
  if (!(await ctx.db.examUser.findUnique({ where: { examId_userId: { examId, userId: ctx.viewer.user.id } } }))) {
    if (!(await can(ctx, 'exam:read', exam))) throw unknownContent('exam', examId);
    throw playError('Only examinees of the exam may start it', 'NOT_AN_EXAMINEE');
  }
  if (status !== 'ACTIVE') throw playError(`The exam is ${status}: new tests can be started only while it is ACTIVE`, 'EXAM_NOT_ACTIVE');
  if (blocked) throw blockedError();
  throw startsCollided();
}

async function startPracticePlay(ctx: Context, quizId: string, now: Date): Promise<Play> {
  const quiz = await ctx.db.quizSet.findFirst({ where: { id: quizId, archived: false } });
  if (!quiz || !(await can(ctx, 'quiz:read', quiz))) throw unknownQuizSet(quizId);
  const [{ rules, questions }, blocked] = await Promise.all([practiceStart(ctx.db, quiz), isBlocked(ctx, null, now)]);
  const scope = { examId: null, quizId, userId: ctx.viewer.user.id };
  const play = await startIn(ctx, { scope, exam: null, quiz, rules, questions, round: 1, create: !blocked }, now);
  if (play) return play;
  if (blocked) throw blockedError();
  throw startsCollided();
}

/** Starts (or continues) a play of an exam or a practice play of a Quiz set for the viewer. */
export async function startPlay<S extends Selection<'Play'>>(ctx: Context, raw: Record<string, unknown>, query?: S): Promise<Play> {
  const input = parseInput(s.startPlay, raw);
  const now = new Date();
  const play = input.exam !== undefined ? await startExamPlay(ctx, input.exam, now) : await startPracticePlay(ctx, input.quiz!, now);
  // The claimed row is the answer unless the caller asks for its relations.
  return query && selectsRelations(query) ? ctx.db.play.findUniqueOrThrow({ ...query, where: { id: play.id } }) : play;
}

/**
 * TURNS: the question shown now. Each question has `roundtime` from when it was shown; one left
 * unanswered past it is skipped, so the current index moves on by whole roundtimes.
 */
function turnsPosition(play: Pick<Play, 'position' | 'positionStart' | 'timeStart' | 'roundtime'>, now: Date): { index: number; shownAt: Date } {
  const since = play.positionStart ?? play.timeStart;
  if (play.roundtime === null) return { index: play.position, shownAt: since };
  const skipped = Math.floor((now.getTime() - since.getTime()) / (play.roundtime * 1000));
  return { index: play.position + skipped, shownAt: new Date(since.getTime() + skipped * play.roundtime * 1000) };
}

/** Why an answer was not recorded: the first rule of the player it breaks now, or undefined when it breaks none. */
async function answerRefusal(ctx: Context, input: AnswerInput, now: Date): Promise<Error | undefined> {
  const play = await ctx.db.play.findUnique({ where: { id: input.play } });
  // Anyone else's play is unknown: the player acts only for its user.
  if (!play || play.userId !== ctx.viewer.user.id) return unknownPlay(input.play);
  if (play.status !== 'open') return playError('The play is finished: it takes no more answers', 'PLAY_FINISHED');
  if (play.deadline && play.deadline <= now) return playError('The time limit of the play has passed: it takes no more answers', 'TIME_LIMIT_REACHED');
  const index = play.questionIds.indexOf(input.question);
  if (index < 0) return new ArgumentError('question', `is not a question of play '${play.id}'`, 'NOT_FOUND');
  if (play.examId && (input.hints > 0 || input.solutionSteps > 0)) {
    return new ArgumentError(input.hints ? 'hints' : 'solutionSteps', 'hints and solutions are not shown in exams', 'ARGUMENT_CONFLICT');
  }
  if (play.mode === 'TURNS') {
    const current = turnsPosition(play, now);
    if (index < current.index) return playError('TURNS mode: this question is behind the current one (answered, or its roundtime is over); there is no going back', 'QUESTION_CLOSED');
    if (index > current.index) return playError('TURNS mode: questions are answered in order; this one is not reached yet', 'QUESTION_NOT_REACHED');
  }
  return undefined;
}

/**
 * Records (or replaces) the response to one question of the viewer's open play: one statement
 * when the answer is accepted (shared with the answers that arrive with it, see answerWriter), a
 * second to tell the caller why when it is not. Sending the same answer again (a retry after a
 * timeout) leaves one answer, the later one.
 */
export async function answerQuestion(ctx: Context, raw: Record<string, unknown>): Promise<PlayAnswer> {
  const parsed = parseInput(s.answerQuestion, raw);
  const input: AnswerInput = { ...parsed, hints: parsed.hints ?? 0, solutionSteps: parsed.solutionSteps ?? 0 };
  for (let tries = 0; tries < 2; tries++) {
    const now = new Date();
    const recorded = await ctx.answers.add({ userId: ctx.viewer.user.id, input, at: now });
    if (recorded) return recorded;
    const refusal = await answerRefusal(ctx, input, now);
    if (refusal) throw refusal;
    // Refused by a rule that no longer holds (a TURNS question shown between the two reads): once more.
  }
  throw new BusyError('The play changed while the answer was written; send it again', 1);
}

/**
 * Exam plays finished (or graded) in a transaction: live dashboards hear of them once it has
 * committed, never of a result that was rolled back.
 */
class FinishedPlays {
  private readonly plays: { id: string; examId: string | null }[] = [];
  add(play: { id: string; examId: string | null }): void {
    this.plays.push(play);
  }
  announce(ctx: Pick<Context, 'live'>): void {
    for (const play of this.plays) if (play.examId) ctx.live.publish(play.examId, play.id);
  }
}

/** A play locked for the transaction, with what scoring reads of its answers. */
type LockedPlay = Play & { answers: AnswerFacts[] };

/** Locks plays for the rest of the transaction (in one order) and reads them with their answers, in one statement. */
async function lockedPlays(tx: Tx, ids: readonly string[]): Promise<Map<string, LockedPlay>> {
  const rows = await tx.$queryRaw<LockedPlay[]>`
    SELECT p.*, COALESCE((
      SELECT json_agg(json_build_object('questionId', a."questionId", 'response', a."response", 'hints', a."hints", 'solutionSteps', a."solutionSteps",
        'points', a."points", 'pointsMaximum', a."pointsMaximum", 'evaluated', a."evaluated", 'gradedById', a."gradedById"))
      FROM "PlayAnswer" a WHERE a."playId" = p."id"), '[]'::json) AS "answers"
    FROM "Play" p WHERE p."id" = ANY(${[...ids]}::text[])
    ORDER BY p."id"
    FOR UPDATE OF p`;
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Finishes open plays by their rules in one transaction: each is scored with the answers it has
 * (its answers and the play locked together, so an answer and the finish never interleave), its
 * timer dropped and its result announced; live dashboards hear of them once it has committed.
 * The finishes that arrive together share the transaction and its statements (ctx.finishes).
 */
export async function finishPlays(ctx: Pick<Context, 'db' | 'examStarts' | 'live'>, requests: readonly FinishRequest[]): Promise<FinishOutcome[]> {
  const finished = new FinishedPlays();
  const outcomes = await ctx.db.$transaction(async (tx) => {
    const locked = await lockedPlays(tx, requests.map((r) => r.play));
    const outcomes: FinishOutcome[] = requests.map(() => null);
    const due: { index: number; play: LockedPlay; timeEnd: Date }[] = [];
    for (const [index, request] of requests.entries()) {
      const play = locked.get(request.play);
      if (request.userId !== undefined) {
        if (!play || play.userId !== request.userId) outcomes[index] = { refusal: unknownPlay(request.play) };
        else if (play.status !== 'open') outcomes[index] = { refusal: playError('The play is finished already', 'PLAY_FINISHED') };
      }
      if (!play || play.status !== 'open' || outcomes[index]) continue;
      if (request.onlyOverdue) {
        if (!play.deadline) continue;
        // Claimed by the database clock a moment before this one reaches the deadline: try again shortly.
        if (play.deadline > request.now) throw new Error(`play ${play.id} is not due until ${play.deadline.toISOString()}`);
      }
      due.push({ index, play, timeEnd: play.deadline && play.deadline < request.now ? play.deadline : request.now });
    }
    const contents = await Promise.all(due.map(({ play }) => playContentOf(ctx, tx, play)));
    await cancel(tx, finishOverduePlay, due.flatMap(({ play }) => (play.deadline ? [play.id] : [])));
    const settled = await settlePlays(tx, due.map(({ play, timeEnd }, i) => ({ play, answers: play.answers, options: { score: true, ...contents[i]!, finish: { timeEnd } } })));
    for (const [i, play] of settled.entries()) {
      outcomes[due[i]!.index] = { play };
      finished.add(play);
    }
    return outcomes;
  });
  finished.announce(ctx);
  return outcomes;
}

/** Finishes an open play (overdue, or questionless) by its rules, whoever's it is; a play finished meanwhile stays as it is. */
async function finishOpen(ctx: Context | SystemContext, id: string, now: Date, onlyOverdue = false): Promise<void> {
  await finishPlays(ctx, [{ play: id, now, onlyOverdue }]);
}

/** Finishes the viewer's open play with the answers it has. */
export async function finishPlay<S extends Selection<'Play'>>(ctx: Context, raw: Record<string, unknown>, query?: S): Promise<Play> {
  const input = parseInput(s.playRef, raw);
  const outcome = await ctx.finishes.add({ play: input.play, userId: ctx.viewer.user.id, now: new Date() });
  if (!outcome) throw unknownPlay(input.play);
  if ('refusal' in outcome) throw outcome.refusal;
  // The finished row is the answer unless the caller asks for its relations (one statement less on exam day).
  if (!query || !selectsRelations(query)) return outcome.play;
  return ctx.db.play.findUniqueOrThrow({ ...query, where: { id: input.play } });
}

export function playFinisher(ctx: () => Pick<Context, 'db' | 'examStarts' | 'live'>, concurrency: number): PlayFinisher {
  return new Batcher((requests) => finishPlays(ctx(), requests), { concurrency, keyOf: (r) => r.play });
}

/**
 * An educator's points for an answer that waits for a person (or a correction of any answer):
 * control on the exam, or modify on the Quiz set of a practice play. The totals, grade and
 * success follow; the play becomes valid once nothing waits.
 */
export async function gradeAnswer<S extends Selection<'PlayAnswer'>>(ctx: Context, raw: Record<string, unknown>, query?: S): Promise<PlayAnswer> {
  const input = parseInput(s.gradeAnswer, raw);
  // The policy reads outside the transaction (the embedded database has one connection).
  const found = await ctx.db.play.findUnique({ where: { id: input.play }, include: { exam: true, quiz: true } });
  if (!found) throw unknownPlay(input.play);
  const [viewable, allowed] = found.exam
    ? await canEach(ctx, [['exam:read', found.exam], ['exam:answers:grade', found.exam]])
    : await canEach(ctx, [['quiz:read', found.quiz], ['quiz:answers:grade', found.quiz]]);
  if (!viewable || (found.exam?.archived ?? false)) throw unknownPlay(input.play);
  if (!allowed) throw denied(found.exam ? 'exam:answers:grade' : 'quiz:answers:grade');
  const graded = new FinishedPlays();
  const saved = await ctx.db.$transaction(async (tx) => {
    const play = (await lockedPlay(tx, input.play))!;
    if (play.status !== 'finished') throw playError('Answers are graded once the play is finished', 'PLAY_NOT_FINISHED');
    const answer = await tx.playAnswer.findUnique({ where: { playId_questionId: { playId: play.id, questionId: input.question } } });
    if (!answer) throw new ArgumentError('question', `play '${play.id}' has no answer to it`, 'NOT_FOUND');
    if (input.points > answer.pointsMaximum) throw new ArgumentError('points', `must be at most the question's maximum, ${answer.pointsMaximum}`);
    await tx.playAnswer.update({ where: { playId_questionId: { playId: play.id, questionId: answer.questionId } }, data: { points: input.points, evaluated: true, gradedById: ctx.viewer.user.id } });
    const { rules } = await playContentOf(ctx, tx, play);
    const settled = await settlePlay(tx, play, { score: false, rules, content: { exam: found.exam, quiz: found.quiz } });
    graded.add(settled);
    return tx.playAnswer.findUniqueOrThrow({ ...(query ?? {}), where: { playId_questionId: { playId: play.id, questionId: answer.questionId } } });
  });
  graded.announce(ctx);
  return saved;
}

/**
 * The time limit's timer: a play still open at its deadline is finished with the answers it has.
 * Enqueued with the play, so it survives restarts; finishing the play earlier drops it.
 */
export const finishOverduePlay = defineTask('plays.finish-overdue', z.object({ play: z.string() }), async (ctx: SystemContext, { play }) => {
  await finishOpen(ctx, play, new Date(), true);
});
