import type { Prisma } from '../../generated/prisma/client.ts';
import { enqueueEvent } from '../webhooks/events.ts';
import { resultEventData } from './result-record.ts';
import type { SettledPlay } from './settle.ts';

/**
 * A finished play's announcements, in the transaction that finishes it: `exam-play-result` (exam)
 * or `quiz-play-result` (practice) to the organization of the exam (or Quiz set) when the user is
 * a member of it.
 */
export async function announceResult(tx: Prisma.TransactionClient, play: SettledPlay): Promise<void> {
  const organizationId = play.exam ? play.exam.organizationId : play.quiz.organizationId;
  if (!organizationId || !play.userId) return;
  const member = await tx.organizationMember.findUnique({ where: { organizationId_userId: { organizationId, userId: play.userId } }, select: { userId: true } });
  if (!member) return;
  await enqueueEvent(tx, { organizationId, event: play.exam ? 'exam-play-result' : 'quiz-play-result', data: resultEventData(play), userId: play.userId });
}
