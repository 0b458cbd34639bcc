import type { Prisma } from '../../generated/prisma/client.ts';
import { enqueueEvent } from '../webhooks/events.ts';
import type { WebhookEvent } from '../webhooks/webhooks.schemas.ts';
import { resultEventData } from './result-record.ts';
import type { SettledPlay } from './finish-requests.ts';

/**
 * Where a finished play's result is announced: `exam-play-result` (exam) or `quiz-play-result`
 * (practice) to the organization of the exam (or Quiz set); null when it has none or the play no user.
 */
export function resultEventOf(play: Pick<SettledPlay, 'exam' | 'quiz' | 'userId'>): { organizationId: string; userId: string; event: WebhookEvent } | null {
  const organizationId = play.exam ? play.exam.organizationId : play.quiz.organizationId;
  if (!organizationId || !play.userId) return null;
  return { organizationId, userId: play.userId, event: play.exam ? 'exam-play-result' : 'quiz-play-result' };
}

/**
 * A finished play's announcement, in the transaction that finishes it, to the organization's
 * webhooks when the user is a member of it.
 */
export async function announceResult(tx: Prisma.TransactionClient, play: SettledPlay): Promise<void> {
  const target = resultEventOf(play);
  if (!target) return;
  const member = await tx.organizationMember.findUnique({ where: { organizationId_userId: { organizationId: target.organizationId, userId: target.userId } }, select: { userId: true } });
  if (!member) return;
  await enqueueEvent(tx, { ...target, data: resultEventData(play) });
}
