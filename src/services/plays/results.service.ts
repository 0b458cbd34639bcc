import type { Context } from '../../context.ts';
import type { Exam, Play, PlayAnswer, Prisma, QuizSet } from '../../generated/prisma/client.ts';
import { assertMay, can, canEach, denied } from '../../auth/policy.ts';
import { PermissionError } from '../../errors.ts';
import { unknownContent } from '../content/records.ts';
import { findExam } from '../exams/access.ts';
import type { Selection } from '../selection.ts';
import { parseInput } from '../validation.ts';
import { examRules } from './exam-rules.ts';
import { findReadablePlay, levelsOn, unknownPlay, type PlayWithContent } from './play-access.ts';
import { detailedResult, examPlayResult, playResult, resultQuestions, type ResultQuestion } from './result-record.ts';
import { loaders } from '../loaders.ts';
import type { ResultQuestionFacts } from '../../context.ts';
import { pointsMaximumOf } from './scoring.ts';
import * as s from './plays.schemas.ts';
import { unknownQuizSet } from '../quizzes/access.ts';

type Tx = Prisma.TransactionClient;

/**
 * Reading results (the contract reads them; GraphQL also lists them) and removing them: archiving
 * an exam result, forgetting a practice one. Lists leave out archived results; a forgotten result
 * belongs to nobody.
 */

const order = [{ round: 'asc' }, { attempt: 'asc' }, { timeStart: 'asc' }, { id: 'asc' }] satisfies Prisma.PlayOrderByWithRelationInput[];

/** GET quiz:results:play: the detailed result. */
export async function getPlayResult(ctx: Context, raw: Record<string, unknown>) {
  const { play: id } = parseInput(s.playRef, raw);
  const play = await findReadablePlay(ctx, id);
  const questions = await ctx.db.question.findMany({ where: { id: { in: play.questionIds } }, select: { id: true, externalId: true, type: true, data: true } });
  return detailedResult(play, questions, pointsMaximumOf);
}

/**
 * The questions of the detailed result for a play GraphQL has already read (and so checked):
 * the questions of every play of a list load together.
 */
export async function playResultQuestions(ctx: Context, play: Play & { answers: PlayAnswer[] }): Promise<ResultQuestion[]> {
  const questions = await loaders(ctx).resultQuestion.loadMany(play.questionIds);
  return resultQuestions(play, questions.filter((q): q is ResultQuestionFacts => q !== null && !(q instanceof Error)), pointsMaximumOf);
}

/**
 * The viewer reads results of `user` in the exam or Quiz set: as that user, or with report on
 * it. A caller that may not view it (and is not asking for itself) learns nothing of it.
 */
export async function assertMayList(ctx: Context, type: 'exam' | 'quiz', content: Exam | QuizSet | null, id: string, user: string): Promise<void> {
  const notFound = type === 'exam' ? unknownContent('exam', id) : unknownQuizSet(id);
  if (!content) throw notFound;
  if (user === ctx.viewer.user.id) return;
  const refused = type === 'exam' ? 'exam:results:read' : 'quiz:results:list';
  const [view, report] = await canEach(ctx, [[`${type}:read`, content], [refused, content]]);
  if (!view) throw notFound;
  if (!report) throw denied(refused);
}

/** GET quiz:results:user: practice results of the user (an unknown user simply has none). */
export async function listQuizResults(ctx: Context, raw: Record<string, unknown>) {
  const input = parseInput(s.quizResults, raw);
  const quiz = await ctx.db.quizSet.findFirst({ where: { id: input.quiz, archived: false } });
  await assertMayList(ctx, 'quiz', quiz, input.quiz, input.user);
  const plays = await ctx.db.play.findMany({ where: { quizId: input.quiz, examId: null, userId: input.user, archived: false }, orderBy: order });
  return plays.map(playResult);
}

/** GET exam:results:user: the user's results in the exam, every round, with the attempt. */
export async function listExamResults(ctx: Context, raw: Record<string, unknown>) {
  const input = parseInput(s.examResults, raw);
  const exam = await ctx.db.exam.findFirst({ where: { id: input.exam, archived: false } });
  await assertMayList(ctx, 'exam', exam, input.exam, input.user);
  const plays = await ctx.db.play.findMany({ where: { examId: input.exam, userId: input.user, archived: false }, orderBy: order });
  return plays.map(examPlayResult);
}

/**
 * Plays of an exam as they finish or are graded, for a live dashboard: report permission on the
 * exam, checked once when the subscription starts. A caller that may not view the exam learns
 * nothing of it.
 */
export async function watchExamResults(ctx: Context, examId: string): Promise<AsyncIterable<{ play: string }>> {
  const exam = await findExam(ctx, examId, 'exam:results:read');
  return ctx.live.subscribe(exam.id);
}

/** A play announced by `watchExamResults`, as the subscriber's query selects it. */
export async function announcedPlay<S extends Selection<'Play'>>(ctx: Context, id: string, query?: S): Promise<Play> {
  return ctx.db.play.findUniqueOrThrow({ ...(query ?? {}), where: { id } });
}

/** The user's current result of an exam: the latest finished, unarchived play of the current round. */
async function currentResult(tx: Tx, exam: Exam, userId: string): Promise<Play | null> {
  return tx.play.findFirst({ where: { examId: exam.id, userId, round: exam.round, archived: false, status: 'finished' }, orderBy: [{ attempt: 'desc' }, { timeStart: 'desc' }] });
}

/**
 * DELETE quiz:results:play. An exam result is archived (control on the exam; only when the
 * exam's `archive` setting is on; only the user's current result): it leaves lists and reports
 * and is kept. A practice result is forgotten (administrators only): detached from its user,
 * kept for statistics.
 */
export async function deletePlayResult(ctx: Context, raw: Record<string, unknown>): Promise<{ play: string; archived?: boolean; forgotten?: boolean }> {
  const { play: id } = parseInput(s.playRef, raw);
  const play = (await ctx.db.play.findUnique({ where: { id }, include: { exam: { include: { quiz: true } }, quiz: true } })) as (PlayWithContent & { exam: (Exam & { quiz: QuizSet }) | null }) | null;
  if (!play || play.exam?.archived) throw unknownPlay(id);
  const { view, report } = await levelsOn(ctx, play);
  if (!view && play.userId !== ctx.viewer.user.id) throw unknownPlay(id);
  if (!play.exam) {
    if (!report && play.userId !== ctx.viewer.user.id) throw unknownPlay(id);
    assertMay(ctx.viewer.user, 'result:forget');
    await ctx.db.play.update({ where: { id }, data: { userId: null, forgottenAt: play.forgottenAt ?? new Date() } });
    return { play: id, forgotten: true };
  }
  const exam = play.exam;
  if (!(await can(ctx, 'exam:results:archive', exam))) {
    if (!report && play.userId !== ctx.viewer.user.id) throw unknownPlay(id);
    throw denied('exam:results:archive');
  }
  const [rules] = await examRules(ctx.db, [exam]);
  if (!rules!.archive) throw new PermissionError("Archiving results is not enabled for this exam (its 'archive' setting is off)", 'ARCHIVE_DISABLED');
  await ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Play" WHERE id = ${id} FOR UPDATE`;
    const current = play.userId ? await currentResult(tx, exam, play.userId) : null;
    if (!current || current.id !== id) throw new PermissionError("Only the user's current result (the latest finished result of the current round) can be archived", 'NOT_CURRENT_RESULT');
    await tx.play.update({ where: { id }, data: { archived: true, archivedAt: new Date() } });
  });
  return { play: id, archived: true };
}

/**
 * Restores archived results of users added to an exam again (POST `exam:users`): their archived
 * results of the current round become current again. Called in the transaction that adds them.
 */
export async function restoreArchivedResults(tx: Tx, exam: Pick<Exam, 'id' | 'round'>, userIds: readonly string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const restored = await tx.play.updateMany({ where: { examId: exam.id, round: exam.round, userId: { in: [...userIds] }, archived: true }, data: { archived: false, archivedAt: null } });
  return restored.count;
}

export interface ResultFilters {
  round?: number | null;
  archived?: boolean | null;
  user?: string | null;
}

/**
 * An exam's results for GraphQL (report on the exam): newest round first, then by user and
 * attempt; archived ones only when asked for. `query` carries the caller's nested selection.
 */
export async function examResults<S extends Selection<'Play'>>(ctx: Context, exam: Exam, filters: ResultFilters, query: S & { take?: number; skip?: number; cursor?: Prisma.PlayWhereUniqueInput }) {
  if (!(await can(ctx, 'exam:results:read', exam))) throw denied('exam:results:read');
  return ctx.db.play.findMany({
    ...query,
    where: {
      examId: exam.id,
      archived: filters.archived ?? false,
      ...(filters.round ? { round: filters.round } : {}),
      ...(filters.user ? { userId: filters.user } : {}),
    },
    orderBy: [{ timeStart: 'asc' }, { id: 'asc' }],
  });
}

/** A Quiz set's practice results for GraphQL (report on the Quiz set), forgotten ones included. */
export async function quizResults<S extends Selection<'Play'>>(ctx: Context, quiz: QuizSet, filters: Pick<ResultFilters, 'user'>, query: S & { take?: number; skip?: number; cursor?: Prisma.PlayWhereUniqueInput }) {
  if (!(await can(ctx, 'quiz:results:list', quiz))) throw denied('quiz:results:list');
  return ctx.db.play.findMany({
    ...query,
    where: { quizId: quiz.id, examId: null, archived: false, ...(filters.user ? { userId: filters.user } : {}) },
    orderBy: [{ timeStart: 'asc' }, { id: 'asc' }],
  });
}

/** What the player shows of a play's questions, in the play's order (no answers, of course). */
export async function playQuestions(ctx: Context, play: Play) {
  const questions = await ctx.db.question.findMany({ where: { id: { in: play.questionIds } }, select: { id: true, content: true, type: true, answers: true, options: true } });
  const byId = new Map(questions.map((q) => [q.id, q]));
  return play.questionIds.flatMap((id, i) => {
    const q = byId.get(id);
    if (!q) return [];
    return [{ index: i + 1, question: { id: q.id, content: q.content, type: q.type, choices: choicesOf(play.id, q) } }];
  });
}

const CHOICE_TYPES = new Set(['choice', 'multiple-choice', 'true/false', 'order']);

/** Choices of choice-like questions: answers and options mixed in an order fixed per play (seeded by play and question). */
function choicesOf(playId: string, q: { id: string; type: string; answers: string[]; options: string[] }): string[] | null {
  if (!CHOICE_TYPES.has(q.type)) return null;
  const all = q.type === 'order' ? [...q.answers] : [...q.answers, ...q.options];
  let seed = 0;
  for (const ch of playId + q.id) seed = (seed * 31 + ch.charCodeAt(0)) >>> 0;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all;
}

/** The viewer's own plays (the player's list), newest first; forgotten ones belong to nobody. */
export async function ownPlays<S extends Selection<'Play'>>(ctx: Context, query: S & { take?: number; skip?: number; cursor?: Prisma.PlayWhereUniqueInput }) {
  return ctx.db.play.findMany({
    ...query,
    where: { userId: ctx.viewer.user.id, OR: [{ examId: null }, { exam: { archived: false } }] },
    orderBy: [{ timeStart: 'desc' }, { id: 'desc' }],
  });
}
