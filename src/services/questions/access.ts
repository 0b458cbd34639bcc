import type { Context } from '../../context.ts';
import type { Prisma, Question } from '../../generated/prisma/client.ts';
import { allowedWhere, can, denied, may } from '../../auth/policy.ts';
import type { ActionOn } from '../../auth/actions.ts';
import { ArgumentError } from '../../errors.ts';
import { viewableQuizSetsWhere } from '../quizzes/access.ts';
import type { Selection } from '../selection.ts';

/**
 * Who may do what with a question. Questions carry no permission rules of their own: their owner
 * and their organization's content levels apply on the Quiz set scale, and a question in the scope
 * of a Quiz set also gives the levels held on that Quiz set. A question that is an item of a Quiz
 * set the viewer may view can be viewed too.
 */

export type QuestionAction = ActionOn<'question'>;

export const folderScope = (ownerId: string, path: string) => `folder:${ownerId}:${path}`;
export const quizScope = (quizId: string) => `quiz:${quizId}`;
export const quizOfScope = (scope: string) => (scope.startsWith('quiz:') ? scope.slice(5) : null);

/** Questions the viewer may view, as a filter (lists, single reads and GraphQL nodes). */
export async function visibleQuestionsWhere(ctx: Context): Promise<Prisma.QuestionWhereInput> {
  if (may(ctx.viewer.user, 'instance:records:read-all')) return {};
  const [own, quizzes] = await Promise.all([allowedWhere(ctx, 'question:read'), viewableQuizSetsWhere(ctx)]);
  return { OR: [own as Prisma.QuestionWhereInput, { items: { some: { quiz: quizzes } } }] };
}

/** Whether the viewer may do `action` on the question: through its owner and organization, or its Quiz set scope. */
export async function canOnQuestion(ctx: Context, question: Question, action: QuestionAction): Promise<boolean> {
  if (await can(ctx, action, question)) return true;
  const quizId = quizOfScope(question.scope);
  const quiz = quizId ? await ctx.db.quizSet.findUnique({ where: { id: quizId } }) : null;
  return quiz !== null && (await can(ctx, `quiz:${action}`, quiz));
}

/** Whether the viewer may view the question (the rule of visibleQuestionsWhere, for one question). */
const viewable = async (ctx: Context, id: string) => (await ctx.db.question.count({ where: { AND: [{ id }, await visibleQuestionsWhere(ctx)] } })) === 1;

/**
 * A question by identification string, once the viewer may do `action` on it. One it may not view
 * is answered as an id of nothing (NOT_FOUND naming `argument`); one it views without the level
 * for `action` is PERMISSION_DENIED.
 */
export async function findQuestion(ctx: Context, code: string, action: QuestionAction, argument = 'question', query: Selection<'Question'> = {}): Promise<Question> {
  const question = await ctx.db.question.findUnique({ ...query, where: { id: code } });
  const unknown = new ArgumentError(argument, `no question with identification string '${code}'`, 'NOT_FOUND');
  if (!question) throw unknown;
  if (action === 'question:read' ? await viewable(ctx, code) : await canOnQuestion(ctx, question, action)) return question;
  if (action !== 'question:read' && (await viewable(ctx, code))) throw denied(action);
  throw unknown;
}
