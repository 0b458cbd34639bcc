import type { Prisma, Question, QuizGroup, QuizItem } from '../../generated/prisma/client.ts';
import type { Selection } from '../selection.ts';

// Apart from items.service.ts: it needs no request context, and the exam-start cache the
// platform holds (services/plays/exam-starts.ts) reads through it.

type Tx = Prisma.TransactionClient;

export type QuizEntry =
  | { kind: 'group'; group: QuizGroup }
  | { kind: 'question'; item: QuizItem; question: Question; group: QuizGroup | null };

const byPosition = (a: { position: number; createdAt: Date }, b: { position: number; createdAt: Date }) =>
  a.position - b.position || a.createdAt.getTime() - b.createdAt.getTime();

/**
 * The entries of each Quiz set in order: top level by position, each group followed by its
 * questions, which carry the relations `questions` asks for.
 */
export async function entriesOf(ctx: { db: Tx }, quizIds: readonly string[], questions: Selection<'Question'> = {}): Promise<QuizEntry[][]> {
  const [groups, items] = await Promise.all([
    ctx.db.quizGroup.findMany({ where: { quizId: { in: [...quizIds] } } }),
    ctx.db.quizItem.findMany({ where: { quizId: { in: [...quizIds] } }, include: { question: questions.include || questions.select ? questions : true } }),
  ]);
  const question = (item: (typeof items)[number], group: QuizGroup | null): QuizEntry => ({ kind: 'question', item, question: item.question, group });
  return quizIds.map((quizId) => {
    const top = [
      ...groups
        .filter((g) => g.quizId === quizId)
        .map((g) => ({
          position: g.position,
          createdAt: g.createdAt,
          entries: [{ kind: 'group' as const, group: g }, ...items.filter((i) => i.groupId === g.id).sort(byPosition).map((i) => question(i, g))],
        })),
      ...items.filter((i) => i.quizId === quizId && i.groupId === null).map((i) => ({ position: i.position, createdAt: i.createdAt, entries: [question(i, null)] })),
    ];
    return top.sort(byPosition).flatMap((t) => t.entries);
  });
}
