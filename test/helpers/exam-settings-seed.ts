import type { Caller, RpcResult, TestApp } from './app.ts';
import { refusedUnchanged } from './expect.ts';
import { newId } from '../../src/ids.ts';
import type { Level } from '../../src/auth/levels.ts';
import { seed } from './seed.ts';

/** Seed builders for the exam settings and user data fields tests (each test sets exactly the period and type it needs). */

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
export async function newExam(t: TestApp, owner: Caller, exam: ExamSeed = {}): Promise<string> {
  const quiz = await seed(t).as(owner).quizSet({ title: 'Quiz', ...(exam.mode && { mode: exam.mode }) });
  const created = await quiz.exam({
    title: exam.title ?? 'Exam',
    type: exam.type ?? 'exam',
    start: exam.start ?? new Date(Date.now() - HOUR),
    end: exam.end ?? new Date(Date.now() + 24 * HOUR),
    ...(exam.organizationId && { organization: exam.organizationId }),
  });
  return created.id;
}

/** An explicit permission rule on an exam, granted by the administrator. */
export async function grantExam(t: TestApp, exam: string, user: Caller, level: Level): Promise<void> {
  await seed(t).admin.grant('exam', exam, user, level);
}

/** A play (result) of the exam, written directly: its timestamps are fixed in the past and its status chosen, which the player cannot do. */
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

/** A value an examinee entered in a custom field (by the field's label), written directly: no service records them yet. */
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
