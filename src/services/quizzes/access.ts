import type { Context } from '../../context.ts';
import type { Prisma, QuizSet } from '../../generated/prisma/client.ts';
import { assertCan, viewableWhere, type ContentRef, type Level } from '../../auth/permissions.ts';
import { ArgumentError } from '../../errors.ts';

/**
 * Who may do what with a Quiz set: one policy, the content permissions (auth/permissions.ts).
 * Reading needs view, changing its settings or items modify, deleting it admin. Archived Quiz
 * sets are gone for every reader.
 */

export const quizContent = (quiz: Pick<QuizSet, 'id' | 'ownerId' | 'organizationId'>): ContentRef => ({
  type: 'quiz',
  id: quiz.id,
  ownerId: quiz.ownerId,
  organizationId: quiz.organizationId,
});

/** The Quiz set named by `code` (NOT_FOUND naming `argument`), once the viewer holds `level` on it. */
export async function findQuizSet(ctx: Context, code: string, level: Level, argument = 'quiz', action?: string): Promise<QuizSet> {
  const quiz = await ctx.db.quizSet.findUnique({ where: { id: code } });
  if (!quiz || quiz.archived) throw new ArgumentError(argument, `no Quiz set with identification string '${code}'`, 'NOT_FOUND');
  await assertCan(ctx, level, quizContent(quiz), action);
  return quiz;
}

/** Quiz sets the viewer may view, as a filter (lists and GraphQL node lookups). */
export async function viewableQuizSetsWhere(ctx: Context): Promise<Prisma.QuizSetWhereInput> {
  return { AND: [{ archived: false }, (await viewableWhere(ctx.db, ctx.viewer, 'quiz')) as Prisma.QuizSetWhereInput] };
}

/** Content languages must be active languages of the instance. */
export async function assertActiveLanguage(ctx: Context, language: string, argument = 'language'): Promise<void> {
  const known = await ctx.db.language.findUnique({ where: { code: language } });
  if (!known?.active) throw new ArgumentError(argument, `'${language}' is not an active language`);
}
