import type { Exam, Prisma } from '../../generated/prisma/client.ts';
import type { RunSettings } from './settings-status.ts';

/**
 * The status of an exam, derived from its period, its switch and its settings at a moment; never
 * stored. The first row that matches decides (GET `exam:status` in the reference says the same):
 *
 * | # | condition                                              | status   |
 * |---|--------------------------------------------------------|----------|
 * | 1 | now ≥ end                                              | EXPIRED  |
 * | 2 | switched off                                           | INACTIVE |
 * | 3 | now < start                                            | INACTIVE |
 * | 4 | view_results_start set and now ≥ view_results_start    | REVIEW   |
 * | 5 | tests paused, or deadline set and now > deadline       | PAUSED   |
 * | 6 | otherwise                                              | ACTIVE   |
 */
export const examStatuses = ['INACTIVE', 'ACTIVE', 'PAUSED', 'REVIEW', 'EXPIRED'] as const;
export type ExamStatus = (typeof examStatuses)[number];

export type StatusInput = Pick<Exam, 'active' | 'start' | 'end' | 'deadline'>;

export function deriveStatus(exam: StatusInput, settings: Pick<RunSettings, 'testsPaused' | 'viewResultsStart'>, now: Date): ExamStatus {
  const t = now.getTime();
  if (t >= exam.end.getTime()) return 'EXPIRED';
  if (!exam.active || t < exam.start.getTime()) return 'INACTIVE';
  if (settings.viewResultsStart && t >= settings.viewResultsStart.getTime()) return 'REVIEW';
  if (pastDeadline(exam, now) || settings.testsPaused) return 'PAUSED';
  return 'ACTIVE';
}

/** The deadline has passed: no new test may start. */
export const pastDeadline = (exam: Pick<Exam, 'deadline'>, now: Date) => exam.deadline !== null && now.getTime() > exam.deadline.getTime();

/** ACTIVE, PAUSED and REVIEW are the active statuses (the record's `active`). */
export const isActiveStatus = (status: ExamStatus) => status === 'ACTIVE' || status === 'PAUSED' || status === 'REVIEW';

/** The exams whose status is active at `now`, as a filter: switched on, started and not ended (rows 1-3 fail). */
export const activeWhere = (now: Date): Prisma.ExamWhereInput => ({ active: true, start: { lte: now }, end: { gt: now } });
