import { z } from 'zod';
import type { Context } from '../../context.ts';
import type { Question } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { SystemContext } from '../../jobs/system.ts';
import { defineTask } from '../../jobs/task.ts';
import { audit } from '../audit/audit.service.ts';
import { deleteFiles, endOfDay, fileLink, newLinkToken, storeFile } from '../files/files.service.ts';
import type { Tolerance } from './answer-checker.ts';
import { mediaText } from './media.ts';
import type { QuestionData } from './question-input.ts';
import { quizOfScope } from './access.ts';
import { locateQuestion, type QuestionKey } from './questions.service.ts';

/**
 * POST `question:export`: a link to a JSON file of the question, in the fields of POST
 * `question` (media as `<filename>=<base64>` or their URL), so the file can be posted again to
 * copy the question. The link needs no credentials and works until the end of its `valid` day
 * (UTC); while one is valid it is handed out again. Any write to the question drops its links.
 */

const VALID_DAYS = 7;

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A decimal without exponent, as parseTolerance reads it. */
const decimal = (n: number) => (/e/i.test(String(n)) ? n.toFixed(12).replace(/\.?0+$/, '') : String(n));

export const formatTolerance = (t: Tolerance) => `${t.type}${t.value === undefined ? '' : `:${decimal(t.value)}`}${t.synced ? ':SYNCED' : ''}`;

/** The stored question in the fields of POST `question`. */
export async function contractFields(ctx: Context, question: Question): Promise<Record<string, unknown>> {
  const d = question.data as unknown as QuestionData;
  const [media, tags, skills] = await Promise.all([
    ctx.db.questionMedia.findMany({ where: { questionId: question.id }, include: { file: true }, orderBy: { field: 'asc' } }),
    ctx.db.tag.findMany({ where: { id: { in: d.tags ?? [] } }, select: { id: true, title: true } }),
    ctx.db.skill.findMany({ where: { questions: { some: { questionId: question.id } } }, orderBy: { identifier: 'asc' } }),
  ]);
  const out: Record<string, unknown> = {
    question: question.id,
    id: question.externalId,
    type: question.type,
    content: question.content,
    answer: question.answers,
    ...(question.options.length > 0 && { options: question.options }),
    ...(quizOfScope(question.scope) ? { quiz: quizOfScope(question.scope) } : { path: question.path }),
    difficulty: question.difficulty,
  };
  for (const [key, value] of Object.entries(d) as [keyof QuestionData, unknown][]) {
    if (key === 'tags') out.tags = (value as string[]).map((id) => tags.find((t) => t.id === id)?.title).filter(Boolean);
    else if (key === 'tolerance') out.tolerance = formatTolerance(value as Tolerance);
    else if (key === 'hintPenalty' || key === 'solutionPenalty') out[snake(key)] = `${(value as { mode: string }).mode}:${(value as { percent: number }).percent}`;
    else if (key === 'parameters') out.parameters = (d.parameters ?? []).map((p) => `{${p.name}; ${p.type}; ${p.min}; ${p.max}}`);
    // The third option is '+' alone, or the statements whose right mark it is.
    else if (key === 'truefalseThirdOption') out.truefalse_third_options = d.truefalseThirdStatements ?? '+';
    else if (key === 'truefalseThirdStatements') continue;
    else if (key === 'mediaLinks') for (const [field, link] of Object.entries(d.mediaLinks ?? {})) out[snake(field)] = mediaText(link.filename, link.url);
    else out[snake(key)] = value === true ? '+' : value;
  }
  for (const m of media) out[snake(m.field)] = mediaText(m.file.filename, m.file.data);
  if (skills.length > 0) out.skills = skills.map((s) => ({ identifier: s.identifier, title: s.title, ...(s.description && { description: s.description }) }));
  return out;
}

export interface ExportLink {
  question: Question;
  url: string;
  valid: Date;
}

export async function exportQuestion(ctx: Context, raw: Record<string, unknown>, key: QuestionKey = 'externalId'): Promise<ExportLink> {
  const question = await locateQuestion(ctx, raw, 'question:export', key);
  const current = await ctx.db.questionExport.findFirst({ where: { questionId: question.id, validUntil: { gt: new Date() } }, orderBy: { validUntil: 'desc' } });
  if (current) return { question, url: fileLink(ctx, ctx.secrets.open(current.tokenCipher)), valid: current.validUntil };
  const content = JSON.stringify({ ...(await contractFields(ctx, question)), exported: new Date().toISOString() }, null, 2);
  const { token, tokenHash, tokenCipher } = newLinkToken(ctx);
  const validUntil = endOfDay(VALID_DAYS);
  await ctx.db.$transaction(async (tx) => {
    // Expired links of the question go with their files now; expireQuestionExport removes those nobody asks for again.
    const expired = await tx.questionExport.findMany({ where: { questionId: question.id, validUntil: { lte: new Date() } }, select: { fileId: true } });
    await deleteFiles(tx, expired.map((e) => e.fileId));
    const file = await storeFile(tx, { ownerId: ctx.viewer.user.id, filename: `question-${question.id}.json`, contentType: 'application/json', data: Buffer.from(content) });
    const link = await tx.questionExport.create({ data: { id: newId('QuestionExport'), questionId: question.id, tokenHash, tokenCipher, fileId: file.id, validUntil } });
    await enqueue(tx, expireQuestionExport, { export: link.id }, { runAt: validUntil, dedupeKey: link.id });
    await audit(ctx, tx, 'question.export', question.id);
  });
  return { question, url: fileLink(ctx, token), valid: validUntil };
}

/** Removes an export link and its file once the link has expired (a write to the question may have removed it already). */
export const expireQuestionExport = defineTask('questions.expire-export', z.object({ export: z.string() }), async (ctx: SystemContext, { export: id }) => {
  await ctx.db.$transaction(async (tx) => {
    const link = await tx.questionExport.findUnique({ where: { id }, select: { fileId: true, validUntil: true } });
    if (link && link.validUntil <= new Date()) await deleteFiles(tx, [link.fileId]);
  });
});
