import type { Context } from '../../context.ts';
import type { Exam, ExamSummary } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import { assertActiveLanguage } from '../quizzes/access.ts';
import { findExam } from './access.ts';
import { basicHtml } from './html.ts';
import * as s from './exams.schemas.ts';

/**
 * Summaries of an exam, one per language (type `ai`: written by a language model). Storing one
 * again for the same language replaces it. Readers of the exam read them (GraphQL `Exam.summaries`).
 */

/** The summaries of each exam, by language: one statement for any number of exams. */
export async function summariesOf(ctx: Context, examIds: readonly string[]): Promise<ExamSummary[][]> {
  const rows = await ctx.db.examSummary.findMany({ where: { examId: { in: [...examIds] } }, orderBy: [{ language: 'asc' }] });
  return examIds.map((id) => rows.filter((r) => r.examId === id));
}

export async function setSummary(ctx: Context, raw: Record<string, unknown>): Promise<{ exam: Exam; summary: ExamSummary }> {
  const input = parseInput(s.setSummary, raw);
  if (input.model !== undefined && input.llm === undefined) throw new ArgumentError('model', 'needs llm', 'ARGUMENT_CONFLICT');
  const text = basicHtml(input.summary);
  if (text === '') throw new ArgumentError('summary', 'must hold text once scripts and unsupported markup are removed');
  const exam = await findExam(ctx, input.exam, 'exam:summary:update');
  const language = input.language ?? exam.language;
  if (input.language !== undefined) await assertActiveLanguage(ctx, input.language);
  const summary = await ctx.db.$transaction(async (tx) => {
    const fields = { type: input.type, summary: text, llm: input.llm ?? null, model: input.model ?? null, createdById: ctx.viewer.user.id };
    const saved = await tx.examSummary.upsert({
      where: { examId_language: { examId: exam.id, language } },
      create: { examId: exam.id, language, ...fields },
      update: fields,
    });
    await audit(ctx, tx, 'exam.summary.update', exam.id);
    return saved;
  });
  return { exam, summary };
}
