import type { z } from 'zod';
import type { Context } from '../../context.ts';
import type { Exam, Prisma, Skill } from '../../generated/prisma/client.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { forgetContent } from '../content/records.ts';
import { parseInput } from '../validation.ts';
import { pageWindow, paging } from '../paging.ts';
import type { Selection, Window } from '../selection.ts';
import { movedOrganization, resolveOrganization } from '../organizations/content-organization.ts';
import { assertActiveLanguage, findQuizSet } from '../quizzes/access.ts';
import { skillsOf } from '../quizzes/items.service.ts';
import { findExam, viewableExamsWhere } from './access.ts';
import { copyExamSettings } from './settings-copy.ts';
import { activeWhere } from './status.ts';
import { clock } from './clock.ts';
import { basicHtml } from './html.ts';
import * as s from './exams.schemas.ts';

/** Exams: time-bound runs of a Quiz set. Status, rounds, branding, examinees and summaries have their own modules. */

/** Exams the viewer may view; `search` matches the title or the external id; `active` keeps the active (true) or the others (false). */
export async function examsWhere(ctx: Context, search?: string, active?: boolean): Promise<Prisma.ExamWhereInput> {
  const now = clock.now();
  return {
    AND: [
      await viewableExamsWhere(ctx),
      search ? { OR: [{ title: { contains: search, mode: 'insensitive' } }, { externalId: { contains: search, mode: 'insensitive' } }] } : {},
      active === undefined ? {} : active ? activeWhere(now) : { NOT: activeWhere(now) },
    ],
  };
}

/** Exams the viewer may view, newest start first: a page of the contract, or a GraphQL connection's window. */
export async function listExams(ctx: Context, raw: Record<string, unknown>, window?: Window<'Exam'>): Promise<Exam[]> {
  const { search, limit, page } = parseInput(paging, raw);
  const { active } = parseInput(s.listExams, raw);
  const rows: Window<'Exam'> = window ?? pageWindow({ search, limit, page });
  return ctx.db.exam.findMany({ ...rows, where: await examsWhere(ctx, search, active), orderBy: [{ start: 'desc' }, { id: 'asc' }] });
}

export async function getExam(ctx: Context, raw: Record<string, unknown>, query?: Selection<'Exam'>): Promise<Exam> {
  return findExam(ctx, parseInput(s.examRef, raw).exam, 'exam:read', 'exam', query);
}

const noOrganization = (v: string | undefined) => v === '' || v === 'none';

function assertPeriod(start: Date, end: Date, argument: string): void {
  if (start.getTime() >= end.getTime()) throw new ArgumentError(argument, 'the start must be before the end');
}

/**
 * Creates an exam owned by the viewer on a Quiz set it may view. `copySettings` names an exam the
 * viewer may view whose settings the new exam takes (copyExamSettings copies them).
 */
export async function createExam(ctx: Context, raw: Record<string, unknown>, query: Selection<'Exam'> = {}): Promise<Exam> {
  const input = parseInput(s.createExam, raw);
  const owner = ctx.viewer.user;
  assertPeriod(input.start, input.end, 'end');
  if (input.language !== undefined) await assertActiveLanguage(ctx, input.language);
  const quiz = await findQuizSet(ctx, input.quiz, 'quiz:read');
  const source = input.copySettings === undefined ? undefined : await findExam(ctx, input.copySettings, 'exam:settings:copy', 'copy_settings');
  const organizationId = await resolveOrganization(ctx, owner, noOrganization(input.organization) ? null : input.organization);
  return ctx.db.$transaction(async (tx) => {
    const exam = await tx.exam.create({
      ...query,
      data: {
        id: newId('Exam'),
        externalId: input.id ?? null,
        title: input.title,
        language: input.language ?? quiz.language,
        quizId: quiz.id,
        ownerId: owner.id,
        organizationId: organizationId ?? null,
        type: input.type,
        start: input.start,
        end: input.end,
        roundStart: input.start,
      },
    });
    if (source) await copyExamSettings(tx, ctx, { source, target: exam, keepCertificateSettings: input.keepCertificateSettings });
    await audit(ctx, tx, 'exam.create', exam.id);
    return exam;
  });
}

/** Whether any test of the exam has started, in any round, archived or not: its results. */
export const hasResults = async (db: Prisma.TransactionClient | Context['db'], examId: string) =>
  (await db.play.count({ where: { examId }, take: 1 })) > 0;

/** PATCH exam: the contract's arguments only. */
export const updateExam = (ctx: Context, raw: Record<string, unknown>) => changeExam(ctx, parseInput(s.updateExam, raw));

/** GraphQL's updateExam: also switches the exam on or off (`enabled`). */
export const updateExamWithSwitch = (ctx: Context, raw: Record<string, unknown>, query: Selection<'Exam'> = {}) =>
  changeExam(ctx, parseInput(s.updateExamWithSwitch, raw), query);

async function changeExam(ctx: Context, input: z.output<typeof s.updateExamWithSwitch>, query: Selection<'Exam'> = {}): Promise<Exam> {
  const exam = await findExam(ctx, input.exam, 'exam:update');
  const data: Prisma.ExamUncheckedUpdateInput = {};
  if (input.title !== undefined) data.title = input.title;
  if (input.id !== undefined) data.externalId = input.id || null;
  if (input.language !== undefined) {
    await assertActiveLanguage(ctx, input.language);
    data.language = input.language;
  }
  if (input.description !== undefined) data.description = basicHtml(input.description) || null;
  if (input.enabled !== undefined) data.active = input.enabled;
  const start = input.start ?? exam.start;
  const end = input.end ?? exam.end;
  const deadline = input.deadline === undefined ? exam.deadline : input.deadline;
  if (input.start !== undefined || input.end !== undefined) assertPeriod(start, end, input.end !== undefined ? 'end' : 'start');
  if (deadline && (deadline < start || deadline > end)) {
    throw new ArgumentError(input.deadline !== undefined ? 'deadline' : input.start !== undefined ? 'start' : 'end', 'the deadline must lie within the exam period');
  }
  if (input.start !== undefined && input.start.getTime() !== exam.start.getTime()) {
    if (await hasResults(ctx.db, exam.id)) throw new PermissionError("Argument 'start': cannot change once the exam has results", 'START_FROZEN');
    data.start = input.start;
  }
  if (input.end !== undefined) data.end = input.end;
  if (input.deadline !== undefined) data.deadline = input.deadline;
  if (input.organization !== undefined) data.organizationId = await movedOrganization(ctx, exam, input.organization, 'exam:organization:update');
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.exam.update({ ...query, where: { id: exam.id }, data });
    if (Object.keys(data).length > 0) await audit(ctx, tx, 'exam.update', exam.id);
    return updated;
  });
}

/**
 * An exam with results is archived: gone for every reader, its results kept for statistics. One
 * without results is removed with its rows (rounds, examinees, branding, summaries, and the
 * settings and fields, which go with it by their foreign keys), its permission rules and tags.
 */
export async function deleteExam(ctx: Context, raw: Record<string, unknown>): Promise<{ exam: Exam; archived: boolean }> {
  const exam = await findExam(ctx, parseInput(s.examRef, raw).exam, 'exam:delete');
  const archived = await ctx.db.$transaction(async (tx) => {
    const keep = await hasResults(tx, exam.id);
    if (keep) await tx.exam.update({ where: { id: exam.id }, data: { archived: true, archivedAt: clock.now() } });
    else {
      await forgetContent(tx, 'exam', exam.id);
      const branding = await tx.examBranding.findUnique({ where: { examId: exam.id }, select: { fileId: true } });
      await tx.exam.delete({ where: { id: exam.id } });
      if (branding?.fileId) await tx.storedFile.delete({ where: { id: branding.fileId } });
    }
    await audit(ctx, tx, 'exam.delete', exam.id);
    return keep;
  });
  return { exam, archived };
}

/** The skills of the questions of each exam's Quiz set, once each, by title. */
export async function skillsOfExams(ctx: Context, exams: readonly Pick<Exam, 'quizId'>[]): Promise<Skill[][]> {
  return skillsOf(ctx, exams.map((e) => e.quizId));
}

export async function examSkills(ctx: Context, raw: Record<string, unknown>): Promise<{ exam: Exam; skills: Skill[] }> {
  const exam = await findExam(ctx, parseInput(s.examRef, raw).exam, 'exam:skills:read');
  return { exam, skills: (await skillsOfExams(ctx, [exam]))[0]! };
}
