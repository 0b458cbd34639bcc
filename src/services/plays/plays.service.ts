import { randomInt } from 'node:crypto';
import { z } from 'zod';
import type { Context } from '../../context.ts';
import type { Exam, Play, PlayAnswer, Prisma, QuizSet } from '../../generated/prisma/client.ts';
import { can, canEach } from '../../auth/policy.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { cancel, enqueue } from '../../jobs/queue.ts';
import type { SystemContext } from '../../jobs/system.ts';
import { defineTask } from '../../jobs/task.ts';
import { unknownContent } from '../content/records.ts';
import { quizEntries } from '../quizzes/items.service.ts';
import type { Selection } from '../selection.ts';
import { parseInput } from '../validation.ts';
import { examRules, inExamPeriod, practiceRules, type PlayRules } from './exam-rules.ts';
import { deriveStatus } from '../exams/status.ts';
import { runSettingsOf } from '../exams/settings-status.ts';
import { unknownPlay } from './play-access.ts';
import { settlePlay } from './settle.ts';
import { pointsMaximumOf } from './scoring.ts';
import { announceResult } from './result-events.ts';
import * as s from './plays.schemas.ts';
import { unknownQuizSet } from '../quizzes/access.ts';

/**
 * The player: starting, answering and finishing plays for the calling (or assumed) user, and
 * grading answers that wait for a person. Every write runs in one transaction that first locks
 * the row it changes (the examinee at a start, the play otherwise), so a start cannot make two
 * attempts and an answer cannot slip in while the play finishes.
 */

type Tx = Prisma.TransactionClient;

const playError = (rule: string, code: string) => new PermissionError(rule, code);

/** The rules the play follows: its exam's (with the Quiz set where the exam defers) or its Quiz set's. */
async function rulesOf(db: Tx, play: Pick<Play, 'examId' | 'quizId'>): Promise<PlayRules> {
  if (play.examId) {
    const exam = await db.exam.findUniqueOrThrow({ where: { id: play.examId }, include: { quiz: true } });
    return (await examRules(db, [exam]))[0]!;
  }
  return practiceRules(await db.quizSet.findUniqueOrThrow({ where: { id: play.quizId } }));
}

/** Locks a play for the rest of the transaction (an answer and the finish never interleave). */
async function lockPlay(tx: Tx, id: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Play" WHERE id = ${id} FOR UPDATE`;
}

/** The Quiz set's active questions (active items of active groups) in its order; shuffled once when it shuffles. */
async function questionOrder(ctx: Context, quiz: QuizSet): Promise<string[]> {
  const ids = (await quizEntries(ctx, quiz.id)).flatMap((e) =>
    e.kind === 'question' && e.item.active && e.question.active && (e.group === null || e.group.active) ? [e.question.id] : [],
  );
  if (quiz.shuffle) {
    for (let i = ids.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
  }
  return ids;
}

/**
 * An exam account held by a blocking exam: during the period of an exam it is an examinee of
 * whose nonblocking is off, it may start nothing but that exam.
 */
async function assertNotBlocked(ctx: Context, tx: Tx, startingExamId: string | null, now: Date): Promise<void> {
  if (!ctx.viewer.user.generated) return;
  const exams = await tx.exam.findMany({
    where: { archived: false, active: true, start: { lte: now }, end: { gt: now }, users: { some: { userId: ctx.viewer.user.id } }, ...(startingExamId ? { id: { not: startingExamId } } : {}) },
    include: { quiz: true },
  });
  const rules = await examRules(tx, exams);
  const blocking = exams.find((exam, i) => inExamPeriod(exam, now) && !rules[i]!.nonblocking);
  if (blocking) throw playError('This exam account is held by a blocking exam during its period and may start no other play', 'EXAM_ACCOUNT_BLOCKED');
}

/** When an open play closes: pausable exams at the end of the period, others at their time limit (within the period). */
function deadlineOf(rules: PlayRules, now: Date, exam: Exam | null): Date | null {
  const limit = rules.timelimit === null ? null : new Date(now.getTime() + rules.timelimit * 1000);
  if (!exam) return limit;
  if (rules.pausable || limit === null) return exam.end;
  return limit < exam.end ? limit : exam.end;
}

/** The open play of the user to continue (exam, or practice of a Quiz set), if its deadline has not passed; an overdue one is finished. */
async function openPlay(ctx: Context, tx: Tx, where: Prisma.PlayWhereInput, now: Date, finished: FinishedPlays): Promise<Play | null> {
  const open = await tx.play.findFirst({ where: { ...where, userId: ctx.viewer.user.id, status: 'open' }, orderBy: { timeStart: 'desc' } });
  if (!open) return null;
  await lockPlay(tx, open.id);
  if (open.deadline && open.deadline <= now) {
    await finishLocked(ctx, tx, open, now, finished);
    return null;
  }
  return open;
}

async function createPlay(ctx: Context, tx: Tx, data: { exam: Exam | null; quiz: QuizSet; rules: PlayRules; round: number; attempt: number; questionIds: string[]; now: Date }): Promise<Play> {
  const { exam, quiz, rules, now } = data;
  const deadline = deadlineOf(rules, now, exam);
  const play = await tx.play.create({
    data: {
      id: newId('Play'),
      examId: exam?.id ?? null,
      quizId: quiz.id,
      userId: ctx.viewer.user.id,
      round: data.round,
      attempt: data.attempt,
      timeStart: now,
      questionIds: data.questionIds,
      deadline,
      positionStart: now,
    },
  });
  if (deadline) await enqueue(tx, finishOverduePlay, { play: play.id }, { runAt: deadline, dedupeKey: play.id });
  return play;
}

async function startExamPlay(ctx: Context, examId: string, now: Date): Promise<string> {
  const exam = await ctx.db.exam.findFirst({ where: { id: examId, archived: false }, include: { quiz: true } });
  if (!exam) throw unknownContent('exam', examId);
  const examinee = await ctx.db.examUser.findUnique({ where: { examId_userId: { examId, userId: ctx.viewer.user.id } } });
  if (!examinee) {
    if (!(await can(ctx, 'exam:read', exam))) throw unknownContent('exam', examId);
    throw playError('Only examinees of the exam may start it', 'NOT_AN_EXAMINEE');
  }
  const [rules] = await examRules(ctx.db, [exam]);
  const run = (await runSettingsOf(ctx, [exam.id])).get(exam.id)!;
  const questionIds = rules!.questionless ? [] : await questionOrder(ctx, exam.quiz);
  const finished = new FinishedPlays();
  const started = await ctx.db.$transaction(async (tx) => {
    // One start at a time per examinee: two concurrent starts cannot make two attempts.
    await tx.$queryRaw`SELECT "userId" FROM "ExamUser" WHERE "examId" = ${examId} AND "userId" = ${ctx.viewer.user.id} FOR UPDATE`;
    const open = await openPlay(ctx, tx, { examId }, now, finished);
    if (open) return open.id;
    const status = deriveStatus(exam, run, now);
    if (status !== 'ACTIVE') throw playError(`The exam is ${status}: new tests can be started only while it is ACTIVE`, 'EXAM_NOT_ACTIVE');
    await assertNotBlocked(ctx, tx, exam.id, now);
    const last = await tx.play.aggregate({ where: { examId, userId: ctx.viewer.user.id, round: exam.round }, _max: { attempt: true } });
    const play = await createPlay(ctx, tx, { exam, quiz: exam.quiz, rules: rules!, round: exam.round, attempt: (last._max.attempt ?? 0) + 1, questionIds, now });
    if (rules!.questionless) await finishLocked(ctx, tx, play, now, finished);
    return play.id;
  });
  finished.announce(ctx);
  return started;
}

async function startPracticePlay(ctx: Context, quizId: string, now: Date): Promise<string> {
  const quiz = await ctx.db.quizSet.findFirst({ where: { id: quizId, archived: false } });
  if (!quiz || !(await can(ctx, 'quiz:read', quiz))) throw unknownQuizSet(quizId);
  const questionIds = await questionOrder(ctx, quiz);
  // Practice plays are not announced live (only exams have live dashboards), so nothing is collected.
  return ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${ctx.viewer.user.id} FOR UPDATE`;
    const open = await openPlay(ctx, tx, { examId: null, quizId }, now, new FinishedPlays());
    if (open) return open.id;
    await assertNotBlocked(ctx, tx, null, now);
    const last = await tx.play.aggregate({ where: { examId: null, quizId, userId: ctx.viewer.user.id }, _max: { attempt: true } });
    return (await createPlay(ctx, tx, { exam: null, quiz, rules: practiceRules(quiz), round: 1, attempt: (last._max.attempt ?? 0) + 1, questionIds, now })).id;
  });
}

/** Starts (or continues) a play of an exam or a practice play of a Quiz set for the viewer. */
export async function startPlay<S extends Selection<'Play'>>(ctx: Context, raw: Record<string, unknown>, query?: S): Promise<Play> {
  const input = parseInput(s.startPlay, raw);
  const now = new Date();
  const id = input.exam !== undefined ? await startExamPlay(ctx, input.exam, now) : await startPracticePlay(ctx, input.quiz!, now);
  return ctx.db.play.findUniqueOrThrow({ ...(query ?? {}), where: { id } });
}

/** The viewer's own play (anyone else's is unknown: the player acts only for its user). */
async function ownPlay(ctx: Context, tx: Tx, id: string): Promise<Play> {
  await lockPlay(tx, id);
  const play = await tx.play.findFirst({ where: { id, userId: ctx.viewer.user.id } });
  if (!play) throw unknownPlay(id);
  return play;
}

function assertOpen(play: Play, now: Date): void {
  if (play.status !== 'open') throw playError('The play is finished: it takes no more answers', 'PLAY_FINISHED');
  if (play.deadline && play.deadline <= now) throw playError('The time limit of the play has passed: it takes no more answers', 'TIME_LIMIT_REACHED');
}

/**
 * TURNS: the question shown now. Each question has `roundtime` from when it was shown; one left
 * unanswered past it is skipped, so the current index moves on by whole roundtimes.
 */
function turnsPosition(play: Play, rules: PlayRules, now: Date): { index: number; shownAt: Date } {
  const since = play.positionStart ?? play.timeStart;
  if (rules.roundtime === null) return { index: play.position, shownAt: since };
  const skipped = Math.floor((now.getTime() - since.getTime()) / (rules.roundtime * 1000));
  return { index: play.position + skipped, shownAt: new Date(since.getTime() + skipped * rules.roundtime * 1000) };
}

/** Records (or replaces) the response to one question of the viewer's open play. */
export async function answerQuestion<S extends Selection<'PlayAnswer'>>(ctx: Context, raw: Record<string, unknown>, query?: S): Promise<PlayAnswer> {
  const input = parseInput(s.answerQuestion, raw);
  const now = new Date();
  return ctx.db.$transaction(async (tx) => {
    const play = await ownPlay(ctx, tx, input.play);
    assertOpen(play, now);
    const index = play.questionIds.indexOf(input.question);
    if (index < 0) throw new ArgumentError('question', `is not a question of play '${play.id}'`, 'NOT_FOUND');
    if (play.examId && ((input.hints ?? 0) > 0 || (input.solutionSteps ?? 0) > 0)) {
      throw new ArgumentError(input.hints ? 'hints' : 'solutionSteps', 'hints and solutions are not shown in exams', 'ARGUMENT_CONFLICT');
    }
    const [quiz, question] = await Promise.all([
      tx.quizSet.findUniqueOrThrow({ where: { id: play.quizId }, select: { mode: true } }),
      tx.question.findUnique({ where: { id: input.question }, select: { type: true, data: true } }),
    ]);
    if (!question) throw new ArgumentError('question', `is not a question of play '${play.id}'`, 'NOT_FOUND');
    let timeAnswer = (now.getTime() - play.timeStart.getTime()) / 1000;
    if (quiz.mode === 'TURNS') {
      const current = turnsPosition(play, await rulesOf(tx, play), now);
      if (index < current.index) throw playError('TURNS mode: this question is behind the current one (answered, or its roundtime is over); there is no going back', 'QUESTION_CLOSED');
      if (index > current.index) throw playError('TURNS mode: questions are answered in order; this one is not reached yet', 'QUESTION_NOT_REACHED');
      timeAnswer = (now.getTime() - current.shownAt.getTime()) / 1000;
      await tx.play.update({ where: { id: play.id }, data: { position: index + 1, positionStart: now } });
    }
    const data = {
      index: index + 1,
      response: input.response as Prisma.InputJsonValue,
      hints: input.hints ?? 0,
      solutionSteps: input.solutionSteps ?? 0,
      timeAnswer: Math.round(timeAnswer * 1000) / 1000,
      points: null,
      pointsMaximum: pointsMaximumOf(question),
      evaluated: false,
      gradedById: null,
      answeredAt: now,
    };
    return tx.playAnswer.upsert({
      ...(query ?? {}),
      where: { playId_questionId: { playId: play.id, questionId: input.question } },
      create: { playId: play.id, questionId: input.question, ...data },
      update: data,
    });
  });
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

/**
 * Finishes a locked open play: scores every answer, writes the totals, grade and success, drops
 * its timer and announces the result (webhooks, competencies) in the same transaction.
 */
export async function finishLocked(ctx: Pick<Context, 'db'> | SystemContext, tx: Tx, play: Play, now: Date, finished: FinishedPlays): Promise<void> {
  const timeEnd = play.deadline && play.deadline < now ? play.deadline : now;
  const claimed = await tx.play.updateMany({ where: { id: play.id, status: 'open' }, data: { status: 'finished', timeEnd } });
  if (claimed.count === 0) return;
  await cancel(tx, finishOverduePlay, play.id);
  const settled = await settlePlay(tx, play.id, { score: true, rules: await rulesOf(tx, play) });
  await announceResult(tx, settled);
  finished.add(settled);
}

/** Finishes the viewer's open play with the answers it has. */
export async function finishPlay<S extends Selection<'Play'>>(ctx: Context, raw: Record<string, unknown>, query?: S): Promise<Play> {
  const input = parseInput(s.playRef, raw);
  const now = new Date();
  const finished = new FinishedPlays();
  await ctx.db.$transaction(async (tx) => {
    const play = await ownPlay(ctx, tx, input.play);
    if (play.status !== 'open') throw playError('The play is finished already', 'PLAY_FINISHED');
    await finishLocked(ctx, tx, play, now, finished);
  });
  finished.announce(ctx);
  return ctx.db.play.findUniqueOrThrow({ ...(query ?? {}), where: { id: input.play } });
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
    ? await canEach(ctx, [['exam:read', found.exam], ['exam:results:grade', found.exam]])
    : await canEach(ctx, [['quiz:read', found.quiz], ['quiz:update', found.quiz]]);
  if (!viewable || (found.exam?.archived ?? false)) throw unknownPlay(input.play);
  if (!allowed) throw new PermissionError(found.exam ? 'You need control permission on the exam to grade its answers' : 'You need modify permission on the Quiz set to grade its answers');
  const graded = new FinishedPlays();
  const saved = await ctx.db.$transaction(async (tx) => {
    await lockPlay(tx, input.play);
    const play = await tx.play.findUniqueOrThrow({ where: { id: input.play } });
    if (play.status !== 'finished') throw playError('Answers are graded once the play is finished', 'PLAY_NOT_FINISHED');
    const answer = await tx.playAnswer.findUnique({ where: { playId_questionId: { playId: play.id, questionId: input.question } } });
    if (!answer) throw new ArgumentError('question', `play '${play.id}' has no answer to it`, 'NOT_FOUND');
    if (input.points > answer.pointsMaximum) throw new ArgumentError('points', `must be at most the question's maximum, ${answer.pointsMaximum}`);
    await tx.playAnswer.update({ where: { playId_questionId: { playId: play.id, questionId: answer.questionId } }, data: { points: input.points, evaluated: true, gradedById: ctx.viewer.user.id } });
    const settled = await settlePlay(tx, play.id, { score: false, rules: await rulesOf(tx, play) });
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
export const finishOverduePlay = defineTask('plays.finish-overdue', z.object({ play: z.string() }), async (ctx: SystemContext, { play: id }) => {
  const finished = new FinishedPlays();
  await ctx.db.$transaction(async (tx) => {
    await lockPlay(tx, id);
    const play = await tx.play.findUnique({ where: { id } });
    const now = new Date();
    if (!play || play.status !== 'open' || !play.deadline) return;
    // Claimed by the database clock a moment before this one reaches the deadline: try again shortly.
    if (play.deadline > now) throw new Error(`play ${id} is not due until ${play.deadline.toISOString()}`);
    await finishLocked(ctx, tx, play, now, finished);
  });
  finished.announce(ctx);
});
