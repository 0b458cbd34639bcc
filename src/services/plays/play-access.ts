import type { Context } from '../../context.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { allowedWhere, canEach } from '../../auth/policy.ts';
import { ArgumentError } from '../../errors.ts';

/**
 * Who may read a play's result: its user, or whoever holds report on its exam (on its Quiz set
 * for a practice play). Anyone else gets the answer of an identification string of nothing, so no
 * caller learns that a play it may not read exists. Plays of archived exams are gone.
 */

export const unknownPlay = (id: string, argument = 'play') => new ArgumentError(argument, `no play with identification string '${id}'`, 'NOT_FOUND');

/** Plays the viewer may read, as a filter (GraphQL node lookups). */
export async function readablePlaysWhere(ctx: Context): Promise<Prisma.PlayWhereInput> {
  const [exams, quizzes] = await Promise.all([allowedWhere(ctx, 'exam:results:read'), allowedWhere(ctx, 'quiz:results:read')]);
  return {
    AND: [
      { OR: [{ examId: null }, { exam: { archived: false } }] },
      {
        OR: [
          { userId: ctx.viewer.user.id },
          { exam: exams as Prisma.ExamWhereInput },
          { examId: null, quiz: quizzes as Prisma.QuizSetWhereInput },
        ],
      },
    ],
  };
}

export type PlayWithContent = Prisma.PlayGetPayload<{ include: { exam: true; quiz: true } }>;

/** What the viewer may do with a play: view its exam (Quiz set), and report on it. */
export async function levelsOn(ctx: Context, play: PlayWithContent): Promise<{ view: boolean; report: boolean }> {
  const [view, report] = play.exam
    ? await canEach(ctx, [['exam:read', play.exam], ['exam:results:read', play.exam]])
    : await canEach(ctx, [['quiz:read', play.quiz], ['quiz:results:read', play.quiz]]);
  return { view: view!, report: report! };
}

export type PlayWithAnswers = Prisma.PlayGetPayload<{ include: { exam: true; quiz: true; answers: true } }>;

/** The play with its answers, once the viewer may read its result. */
export async function findReadablePlay(ctx: Context, id: string): Promise<PlayWithAnswers> {
  const play = await ctx.db.play.findUnique({ where: { id }, include: { answers: true, exam: true, quiz: true } });
  if (!play || play.exam?.archived) throw unknownPlay(id);
  if (play.userId === ctx.viewer.user.id) return play;
  if (!(await levelsOn(ctx, play)).report) throw unknownPlay(id);
  return play;
}
