import type { Caller, RpcResult, TestApp } from './app.ts';
import { refusedUnchanged } from './expect.ts';
import { newQuiz } from './quiz-seed.ts';
import { newId } from '../../src/ids.ts';

/** Seed builders for the exam settings and user data fields tests (exams written as rows, so each test sets exactly the period and type it needs). */

const HOUR = 3600_000;

export interface ExamSeed {
  type?: 'exam' | 'championship' | 'homework' | 'survey';
  mode?: 'TEST' | 'TURNS';
  title?: string;
  start?: Date;
  end?: Date;
  organizationId?: string;
}

/** An exam of a new Quiz set of `owner`; by default running from an hour ago for a day. */
export async function newExam(t: TestApp, owner: Caller, seed: ExamSeed = {}): Promise<string> {
  const quiz = await newQuiz(t, owner, seed.mode ? { mode: seed.mode } : {});
  const exam = await t.db.prisma.exam.create({
    data: {
      id: newId('Exam'),
      title: seed.title ?? 'Exam',
      language: 'en',
      quizId: quiz,
      ownerId: owner.user.id,
      organizationId: seed.organizationId ?? null,
      type: seed.type ?? 'exam',
      start: seed.start ?? new Date(Date.now() - HOUR),
      end: seed.end ?? new Date(Date.now() + 24 * HOUR),
    },
  });
  return exam.id;
}

export async function grantExam(t: TestApp, exam: string, user: Caller, level: string): Promise<void> {
  await t.db.prisma.permissionRule.create({ data: { contentType: 'exam', contentId: exam, userId: user.user.id, level } });
}

/** A play (result) of the exam; the player records them through GraphQL. */
export async function newPlay(t: TestApp, exam: string, user: Caller | null, play: { round?: number; status?: string; archived?: boolean; attempt?: number } = {}) {
  const row = await t.db.prisma.exam.findUniqueOrThrow({ where: { id: exam } });
  return t.db.prisma.play.create({
    data: {
      id: newId('Play'),
      examId: exam,
      quizId: row.quizId,
      userId: user?.user.id ?? null,
      round: play.round ?? row.round,
      attempt: play.attempt ?? 1,
      status: play.status ?? 'finished',
      archived: play.archived ?? false,
      timeStart: new Date('2026-01-02T10:00:00Z'),
      timeEnd: play.status && play.status !== 'finished' ? null : new Date('2026-01-02T10:30:00Z'),
    },
  });
}

/** A value an examinee entered in a custom field (by the field's label). */
export async function enterValue(t: TestApp, exam: string, label: string, user: Caller, value: string): Promise<void> {
  const field = await t.db.prisma.examField.findUniqueOrThrow({ where: { examId_label: { examId: exam, label } } });
  await t.db.prisma.examFieldValue.create({ data: { fieldId: field.id, userId: user.user.id, value } });
}

/** Turns a feature on or off for one user. */
export async function setFeature(t: TestApp, user: Caller, feature: string, on: boolean): Promise<void> {
  const row = await t.db.prisma.user.findUniqueOrThrow({ where: { id: user.user.id } });
  await t.db.prisma.user.update({ where: { id: user.user.id }, data: { features: { ...((row.features as object | null) ?? {}), [feature]: on } } });
}

/** Everything an exam settings or fields call could write. */
async function snapshot(t: TestApp) {
  const p = t.db.prisma;
  return {
    settings: await p.examSettings.findMany({ orderBy: { examId: 'asc' }, select: { examId: true, values: true } }),
    certificates: await p.examCertificateSettings.findMany({ orderBy: { examId: 'asc' } }),
    sets: await p.examFieldSet.findMany({ orderBy: { examId: 'asc' } }),
    fields: await p.examField.findMany({ orderBy: [{ examId: 'asc' }, { label: 'asc' }] }),
    values: await p.examFieldValue.count(),
    audit: await p.auditEvent.count(),
  };
}

/** A call that must be refused and write nothing. */
export function refused(t: TestApp, call: () => Promise<RpcResult>, status: number, code: string, argument?: string): Promise<RpcResult> {
  return refusedUnchanged(() => snapshot(t))(call, status, code, argument);
}
