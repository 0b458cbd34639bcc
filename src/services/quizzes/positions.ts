import type { Prisma } from '../../generated/prisma/client.ts';

/** The next free position of a Quiz set: groups and items draw from one counter, so both orders follow it. */
export async function nextPosition(tx: Prisma.TransactionClient, quizId: string): Promise<number> {
  const [g, i] = await Promise.all([
    tx.quizGroup.aggregate({ where: { quizId }, _max: { position: true } }),
    tx.quizItem.aggregate({ where: { quizId }, _max: { position: true } }),
  ]);
  return Math.max(g._max.position ?? 0, i._max.position ?? 0) + 1;
}
