import type { Exam, ExamBranding, Skill } from '../../generated/prisma/client.ts';
import * as exams from '../../services/exams/exams.service.ts';
import * as status from '../../services/exams/status.service.ts';
import * as rounds from '../../services/exams/rounds.service.ts';
import * as branding from '../../services/exams/branding.service.ts';
import * as examinees from '../../services/exams/users.service.ts';
import * as summaries from '../../services/exams/summaries.service.ts';
import { compact, datetime } from '../format.ts';
import type { Handler } from './types.ts';

/** The exam record; `status` and `active` come from its derived status. */
const examRecord = (e: Exam, s: status.ExamStatusView) =>
  compact({
    exam: e.id,
    id: e.externalId,
    title: e.title,
    description: e.description ?? undefined,
    language: e.language,
    quiz: e.quizId,
    active: s.active,
    status: s.status,
    secure: e.secure,
    start: datetime(e.start),
    end: datetime(e.end),
    deadline: datetime(e.deadline),
  });

const statusRecord = (s: status.ExamStatusView) => ({
  exam: s.exam.id,
  status: s.status,
  active: s.active,
  start: datetime(s.exam.start),
  end: datetime(s.exam.end),
  deadline: datetime(s.exam.deadline),
  paused: s.paused,
  round: s.round,
  users: s.users,
  started: s.started,
  finished: s.finished,
  archived: s.archived,
});

const skillRecord = (k: Skill) => compact({ identifier: k.identifier, title: k.title, description: k.description ?? undefined });

const brandingRecord = (exam: Exam, b: ExamBranding | null) => (b ? { exam: exam.id, enabled: true, type: b.type, color: b.color } : { exam: exam.id, enabled: false });

const roundsRecord = (r: rounds.RoundsView) => ({
  exam: r.exam.id,
  round: r.current.round,
  start: datetime(r.current.start),
  frozen: r.frozen,
  results: r.current.results,
  rounds: r.closed.map((c) => ({ round: c.round, start: datetime(c.start), end: datetime(c.end), results: c.results })),
});

export const examRoutes: Record<string, Handler> = {
  'GET exams': async (ctx, args) => {
    const list = await exams.listExams(ctx, args);
    const statuses = await status.statusesOf(ctx, list);
    return { exams: statuses.map((s) => ({ exam: s.exam.id, id: s.exam.externalId, title: s.exam.title, active: s.active })) };
  },
  'GET exam': async (ctx, args) => {
    const exam = await exams.getExam(ctx, args);
    return examRecord(exam, (await status.statusesOf(ctx, [exam]))[0]!);
  },
  'POST exam': async (ctx, args) => ({ exam: (await exams.createExam(ctx, args)).id }),
  'PATCH exam': async (ctx, args) => ({ exam: (await exams.updateExam(ctx, args)).id, success: true }),
  'DELETE exam': async (ctx, args) => ({ exam: (await exams.deleteExam(ctx, args)).exam.id, success: true }),
  'GET exam:status': async (ctx, args) => statusRecord(await status.examStatus(ctx, args)),
  'GET exam:round': async (ctx, args) => roundsRecord(await rounds.getRounds(ctx, args)),
  'POST exam:round': async (ctx, args) => {
    const r = await rounds.closeRound(ctx, args);
    return { exam: r.exam.id, round: r.current.round, start: datetime(r.current.start), closed: r.closed.at(-1)!.round };
  },
  'GET exam:skills': async (ctx, args) => {
    const { exam, skills } = await exams.examSkills(ctx, args);
    return { exam: exam.id, skills: skills.map(skillRecord) };
  },
  'GET exam:branding': async (ctx, args) => {
    const { exam, branding: b } = await branding.getBranding(ctx, args);
    return brandingRecord(exam, b);
  },
  'POST exam:branding': async (ctx, args) => {
    const { exam, branding: b } = await branding.setBranding(ctx, args);
    return { ...brandingRecord(exam, b), success: true };
  },
  'DELETE exam:branding': async (ctx, args) => {
    const { exam, removed } = await branding.deleteBranding(ctx, args);
    return { exam: exam.id, success: removed };
  },
  'GET exam:users': async (ctx, args) => ({ users: (await examinees.listExamUsers(ctx, args)).users.map((u) => ({ user: u.id, name: u.fullName })) }),
  'POST exam:users': async (ctx, args) => {
    const { exam, changed } = await examinees.addExamUsers(ctx, args);
    return { exam: exam.id, users: changed, success: true };
  },
  'DELETE exam:users': async (ctx, args) => {
    const { exam, changed } = await examinees.removeExamUsers(ctx, args);
    return { exam: exam.id, users: changed, success: true };
  },
  'POST exam:summary': async (ctx, args) => {
    const { exam, summary } = await summaries.setSummary(ctx, args);
    return { exam: exam.id, language: summary.language, success: true };
  },
};
