import type { Context } from '../../context.ts';
import type { Exam } from '../../generated/prisma/client.ts';
import { PermissionError } from '../../errors.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import { findExam } from './access.ts';
import { clock } from './clock.ts';
import { runSettingsOf } from './settings-status.ts';
import * as s from './exams.schemas.ts';

/**
 * Rounds: an exam has a current round, 1 at creation. Closing it (POST `exam:round`) keeps its
 * results with it and opens the next; while `freeze_round` is on the round cannot be closed.
 */

export interface RoundView {
  round: number;
  start: Date;
  /** Null for the current round. */
  end: Date | null;
  /** Current (not archived) results played in the round. */
  results: number;
}

export interface RoundsView {
  exam: Exam;
  current: RoundView;
  frozen: boolean;
  /** Closed rounds, oldest first. */
  closed: RoundView[];
}

async function roundsOf(ctx: Context, exam: Exam): Promise<RoundsView> {
  const [settings, closed, counts] = await Promise.all([
    runSettingsOf(ctx, [exam.id]),
    ctx.db.examRound.findMany({ where: { examId: exam.id }, orderBy: { round: 'asc' } }),
    ctx.db.play.groupBy({ by: ['round'], where: { examId: exam.id, archived: false }, _count: { _all: true } }),
  ]);
  const results = (round: number) => counts.find((c) => c.round === round)?._count._all ?? 0;
  return {
    exam,
    current: { round: exam.round, start: exam.roundStart, end: null, results: results(exam.round) },
    frozen: settings.get(exam.id)!.freezeRound,
    closed: closed.map((r) => ({ round: r.round, start: r.start, end: r.closedAt, results: results(r.round) })),
  };
}

export async function getRounds(ctx: Context, raw: Record<string, unknown>): Promise<RoundsView> {
  return roundsOf(ctx, await findExam(ctx, parseInput(s.examRef, raw).exam, 'exam:round:read'));
}

/** Closes the current round and opens the next, unless the round is frozen. */
export async function closeRound(ctx: Context, raw: Record<string, unknown>): Promise<RoundsView> {
  const exam = await findExam(ctx, parseInput(s.examRef, raw).exam, 'exam:round:update');
  if ((await runSettingsOf(ctx, [exam.id])).get(exam.id)!.freezeRound) {
    throw new PermissionError('The round is frozen (freeze_round): switch it off to close the round', 'ROUND_FROZEN');
  }
  const now = clock.now();
  const next = await ctx.db.$transaction(async (tx) => {
    // The round number only moves forward from the value read here: a concurrent close finds none to update.
    const { count } = await tx.exam.updateMany({ where: { id: exam.id, round: exam.round }, data: { round: exam.round + 1, roundStart: now } });
    if (count === 0) throw new PermissionError('The round was closed by another call; read the rounds again', 'ROUND_CHANGED');
    await tx.examRound.create({ data: { examId: exam.id, round: exam.round, start: exam.roundStart, closedAt: now } });
    await audit(ctx, tx, 'exam.round.close', exam.id);
    return tx.exam.findUniqueOrThrow({ where: { id: exam.id } });
  });
  return roundsOf(ctx, next);
}
