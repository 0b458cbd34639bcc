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
 * Enqueues a finished play's result event to its organization's webhooks, in the transaction that
 * finishes it. settlePlays has checked, in the same transaction, that the user is a member of that
 * organization and that a webhook takes the event.
 */
export async function announceResult(tx: Prisma.TransactionClient, play: SettledPlay, target: NonNullable<ReturnType<typeof resultEventOf>>): Promise<void> {
  await enqueueEvent(tx, { ...target, data: resultEventData(play) });
}
