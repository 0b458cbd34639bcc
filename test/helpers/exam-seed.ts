import { expect } from 'vitest';
import type { Caller, RpcResult, TestApp } from './app.ts';
import { refusedUnchanged } from './expect.ts';
import { ok, newQuiz } from './quiz-seed.ts';
import { newId } from '../../src/ids.ts';
import type { Level } from '../../src/auth/levels.ts';
import { seed } from './seed.ts';

/** Seed builders and checks shared by the exam tests. */

export const START = '2030-01-01 08:00:00';
export const END = '2030-01-31 20:00:00';

/** Creates an exam through the contract (on a new Quiz set of `as` unless `quiz` is given) and returns its identification string. */
export async function newExam(t: TestApp, as: Caller, args: Record<string, unknown> = {}): Promise<string> {
  const quiz = args.quiz ?? (await newQuiz(t, as, { title: 'Quiz of the exam' }));
  const body = await ok(t, 'POST', 'exam', { title: 'Exam', quiz, start: START, end: END, ...args }, as);
  expect(Object.keys(body)).toEqual(['exam']);
  expect(body.exam).toMatch(/^exm_[a-z0-9]+$/);
  return body.exam;
}

/** A result of the exam (a play), written directly: the player cannot make one of a chosen round, status or archived state. */
export async function newPlay(t: TestApp, exam: string, user: Caller, fields: { round?: number; status?: string; archived?: boolean } = {}) {
  const row = await t.db.prisma.exam.findUniqueOrThrow({ where: { id: exam } });
  return t.db.prisma.play.create({ data: { id: newId('Play'), examId: exam, quizId: row.quizId, userId: user.user.id, ...fields } });
}

/** An explicit permission rule on an exam, granted by the administrator. */
export async function examRule(t: TestApp, exam: string, user: Caller, level: Level): Promise<void> {
  await seed(t).admin.grant('exam', exam, user, level);
}

/** Everything an exam call could write. */
async function snapshot(t: TestApp) {
  const p = t.db.prisma;
  return {
    exams: await p.exam.findMany({ orderBy: { id: 'asc' } }),
    rounds: await p.examRound.findMany({ orderBy: [{ examId: 'asc' }, { round: 'asc' }] }),
    users: await p.examUser.findMany({ orderBy: [{ examId: 'asc' }, { userId: 'asc' }] }),
    branding: await p.examBranding.findMany({ orderBy: { examId: 'asc' } }),
    summaries: await p.examSummary.findMany({ orderBy: [{ examId: 'asc' }, { language: 'asc' }] }),
    files: await p.storedFile.count(),
    rules: await p.permissionRule.count(),
    tags: await p.contentTag.count(),
    audit: await p.auditEvent.count(),
  };
}

/** Runs a call that must be refused, checks the error and that nothing was written. */
export function refused(t: TestApp, call: () => Promise<RpcResult>, status: number, code?: string, argument?: string): Promise<RpcResult> {
  return refusedUnchanged(() => snapshot(t))(call, status, code, argument);
}
