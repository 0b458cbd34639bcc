import type { Context } from '../../context.ts';
import type { Exam } from '../../generated/prisma/client.ts';
import { parseInput } from '../validation.ts';
import { findExam } from './access.ts';
import { clock } from './clock.ts';
import { runSettingsOf } from './settings-status.ts';
import { deriveStatus, isActiveStatus, pastDeadline, type ExamStatus } from './status.ts';
import * as s from './exams.schemas.ts';

/** What GET `exam:status` and the GraphQL `Exam.status` report. */
export interface ExamStatusView {
  exam: Exam;
  status: ExamStatus;
  /** ACTIVE, PAUSED or REVIEW. */
  active: boolean;
  /** New tests cannot start: tests paused, or past the deadline. */
  paused: boolean;
  round: number;
  /** Examinees on the exam. */
  users: number;
  /** Current (not archived) results, of every round: tests started ... */
  started: number;
  /** ... and of those the finished ones. */
  finished: number;
  /** Archived results. */
  archived: number;
}

/** The statuses of many exams at one moment: three statements whatever their number. */
export async function statusesOf(ctx: Context, exams: readonly Exam[]): Promise<ExamStatusView[]> {
  if (exams.length === 0) return [];
  const ids = exams.map((e) => e.id);
  const now = clock.now();
  const [settings, users, plays] = await Promise.all([
    runSettingsOf(ctx, ids),
    ctx.db.examUser.groupBy({ by: ['examId'], where: { examId: { in: ids } }, _count: { _all: true } }),
    ctx.db.play.groupBy({ by: ['examId', 'archived', 'status'], where: { examId: { in: ids } }, _count: { _all: true } }),
  ]);
  return exams.map((exam) => {
    const run = settings.get(exam.id)!;
    const status = deriveStatus(exam, run, now);
    const mine = plays.filter((p) => p.examId === exam.id);
    const sum = (keep: (p: (typeof mine)[number]) => boolean) => mine.filter(keep).reduce((n, p) => n + p._count._all, 0);
    return {
      exam,
      status,
      active: isActiveStatus(status),
      paused: run.testsPaused || pastDeadline(exam, now),
      round: exam.round,
      users: users.find((u) => u.examId === exam.id)?._count._all ?? 0,
      started: sum((p) => !p.archived),
      finished: sum((p) => !p.archived && p.status === 'finished'),
      archived: sum((p) => p.archived),
    };
  });
}

export async function examStatus(ctx: Context, raw: Record<string, unknown>): Promise<ExamStatusView> {
  const exam = await findExam(ctx, parseInput(s.examRef, raw).exam, 'exam:status:read');
  return (await statusesOf(ctx, [exam]))[0]!;
}
