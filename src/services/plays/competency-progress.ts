import type { Play, Prisma } from '../../generated/prisma/client.ts';

type Tx = Prisma.TransactionClient;

/**
 * Competency requirements follow what users do, in the transaction that records it, for members
 * of the competency's organization only: exam requirements follow results in the exam, journey
 * requirements the journey's outcome. A completion is never taken back by a later result.
 */

/** Sets the user's progress on each requirement; `waiting` never replaces a completion. */
async function progress(tx: Tx, requirementIds: string[], userId: string, status: 'completed' | 'waiting', completedAt: Date | null): Promise<void> {
  for (const requirementId of requirementIds) {
    const key = { requirementId_userId: { requirementId, userId } };
    const current = await tx.requirementProgress.findUnique({ where: key, select: { status: true } });
    if (current?.status === 'completed' && status === 'waiting') continue;
    await tx.requirementProgress.upsert({ where: key, create: { requirementId, userId, status, completedAt }, update: { status, completedAt } });
  }
}

const ofMember = (userId: string): Prisma.RequirementWhereInput => ({ competency: { organization: { members: { some: { userId } } } } });

/**
 * Exam requirements: a valid successful result completes the requirement (dated at the end of the
 * play); a finished result whose answers await review makes it `waiting`.
 */
export async function recordExamRequirements(tx: Tx, play: Play): Promise<void> {
  if (!play.examId || !play.userId || play.status !== 'finished' || play.archived) return;
  const status = play.evaluated ? (play.successful === true ? 'completed' : null) : 'waiting';
  if (!status) return;
  const requirements = await tx.requirement.findMany({ where: { type: 'exam', contentId: play.examId, ...ofMember(play.userId) }, select: { id: true } });
  await progress(tx, requirements.map((r) => r.id), play.userId, status, status === 'completed' ? (play.timeEnd ?? new Date()) : null);
}

/**
 * Journey requirements (the journey of a starting exam): a user who completes the journey with an
 * accepted outcome (any, when the requirement lists none) completes them, dated at its end. One
 * statement for all the users a timer moves at once, when no requirement points at the journey.
 */
export async function recordJourneyRequirements(tx: Tx, examId: string, completed: { userId: string; outcome: string | null; timeEnd: Date | null }[]): Promise<void> {
  if (completed.length === 0) return;
  const requirements = await tx.requirement.findMany({
    where: { type: 'journey', contentId: examId },
    select: { id: true, outcomes: true, competency: { select: { organization: { select: { members: { where: { userId: { in: completed.map((u) => u.userId) } }, select: { userId: true } } } } } } },
  });
  for (const user of completed) {
    const accepted = requirements.filter(
      (r) => r.competency.organization.members.some((m) => m.userId === user.userId) && (r.outcomes.length === 0 || (user.outcome !== null && r.outcomes.includes(user.outcome))),
    );
    await progress(tx, accepted.map((r) => r.id), user.userId, 'completed', user.timeEnd ?? new Date());
  }
}
