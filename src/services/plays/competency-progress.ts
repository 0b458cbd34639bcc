import type { Play, Prisma } from '../../generated/prisma/client.ts';

/**
 * Competency requirements of type exam follow the user's results in that exam, in the transaction
 * that settles the result: a valid successful result completes the requirement (dated at the end
 * of the play); a finished result whose answers await review makes it `waiting`. Only for members
 * of the competency's organization; a completion is never taken back by a later result.
 */
export async function recordExamRequirements(tx: Prisma.TransactionClient, play: Play): Promise<void> {
  if (!play.examId || !play.userId || play.status !== 'finished' || play.archived) return;
  const status = play.evaluated ? (play.successful === true ? 'completed' : null) : 'waiting';
  if (!status) return;
  const requirements = await tx.requirement.findMany({
    where: { type: 'exam', contentId: play.examId, competency: { organization: { members: { some: { userId: play.userId } } } } },
    select: { id: true },
  });
  for (const { id } of requirements) {
    const key = { requirementId_userId: { requirementId: id, userId: play.userId } };
    const current = await tx.requirementProgress.findUnique({ where: key, select: { status: true } });
    if (current?.status === 'completed' && status === 'waiting') continue;
    const completedAt = status === 'completed' ? (play.timeEnd ?? new Date()) : null;
    await tx.requirementProgress.upsert({ where: key, create: { requirementId: id, userId: play.userId, status, completedAt }, update: { status, completedAt } });
  }
}
