import type { Context } from '../../context.ts';
import type { Exam, Prisma } from '../../generated/prisma/client.ts';
import { allowedWhere, assertCan } from '../../auth/policy.ts';
import type { ActionOn } from '../../auth/actions.ts';
import { contentTypeRegistry } from '../content/content-types.ts';
import { unknownContent } from '../content/records.ts';
import type { Selection } from '../selection.ts';

/**
 * Who may do what with an exam: the content policy (auth/policy.ts, actions `exam:…`). Archived
 * exams (deleted while they had results) are gone for every reader (their registration's `live`).
 */

const live = contentTypeRegistry.exam.live;

/**
 * The exam named by `code`, once the viewer may do `action` on it. A caller that may not even view
 * it gets the answer of an identification string of nothing (403 NOT_FOUND naming `argument`), so
 * no caller learns that an exam it may not see exists; one that may view it but lacks the level
 * gets 403 PERMISSION_DENIED.
 */
export async function findExam<S extends Selection<'Exam'> = {}>(
  ctx: Context,
  code: string,
  action: ActionOn<'exam'>,
  argument = 'exam',
  query?: S,
): Promise<Exam> {
  const exam = await ctx.db.exam.findFirst({ ...(query ?? {}), where: { id: code, ...live } });
  if (!exam) throw unknownContent('exam', code, argument);
  await assertCan(ctx, action, exam, unknownContent('exam', code, argument));
  return exam;
}

/** Exams the viewer may view, as a filter (lists, counts and GraphQL node lookups). */
export async function viewableExamsWhere(ctx: Context): Promise<Prisma.ExamWhereInput> {
  return { AND: [live, (await allowedWhere(ctx, 'exam:read')) as Prisma.ExamWhereInput] };
}
