import type { Context } from '../../context.ts';
import type { Prisma, QuizSet } from '../../generated/prisma/client.ts';
import { allowedWhere, assertCan } from '../../auth/policy.ts';
import type { ActionOn } from '../../auth/actions.ts';
import { ArgumentError } from '../../errors.ts';
import { contentTypeRegistry } from '../content/content-types.ts';
import type { Selection } from '../selection.ts';

/**
 * Who may do what with a Quiz set: the content policy (auth/policy.ts, actions `quiz:…`).
 * Archived Quiz sets are gone for every reader (their registration's `live`).
 */

const live = contentTypeRegistry.quiz.live;

/** The answer to an identification string of no Quiz set (or of one the caller may not view). */
export const unknownQuizSet = (code: string, argument = 'quiz') => new ArgumentError(argument, `no Quiz set with identification string '${code}'`, 'NOT_FOUND');

/** The Quiz set named by `code` (NOT_FOUND naming `argument`), once the viewer may do `action` on it. */
export async function findQuizSet(ctx: Context, code: string, action: ActionOn<'quiz'>, argument = 'quiz', query: Selection<'QuizSet'> = {}): Promise<QuizSet> {
  const quiz = await ctx.db.quizSet.findUnique({ ...query, where: { id: code, ...live } });
  const unknown = unknownQuizSet(code, argument);
  if (!quiz) throw unknown;
  await assertCan(ctx, action, quiz, unknown);
  return quiz;
}

/** Quiz sets (not archived) the viewer may do `action` on, as a filter. */
export async function quizSetsWhere(ctx: Context, action: ActionOn<'quiz'>): Promise<Prisma.QuizSetWhereInput> {
  return { AND: [live, (await allowedWhere(ctx, action)) as Prisma.QuizSetWhereInput] };
}

/** Quiz sets the viewer may view, as a filter (lists and GraphQL node lookups). */
export const viewableQuizSetsWhere = (ctx: Context): Promise<Prisma.QuizSetWhereInput> => quizSetsWhere(ctx, 'quiz:read');

/** Content languages must be active languages of the instance. */
export async function assertActiveLanguage(ctx: Context, language: string, argument = 'language'): Promise<void> {
  const known = await ctx.db.language.findUnique({ where: { code: language } });
  if (!known?.active) throw new ArgumentError(argument, `'${language}' is not an active language`);
}
