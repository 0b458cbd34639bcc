import { PassThrough, type Readable } from 'node:stream';
import { z } from 'zod';
import type { Context, Platform } from '../../context.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { Exam, Prisma, ResultsExport } from '../../generated/prisma/client.ts';
import { sha256 } from '../../auth/secrets.ts';
import { AppError, ArgumentError, PermissionError } from '../../errors.ts';
import { newId, randomToken } from '../../ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { SystemContext } from '../../jobs/system.ts';
import { defineTask } from '../../jobs/task.ts';
import { audit } from '../audit/audit.service.ts';
import { findExam } from '../exams/access.ts';
import { storedSettings } from '../exams/settings.service.ts';
import { settingsView } from '../exams/settings.model.ts';
import { assertActiveLanguage } from '../quizzes/access.ts';
import { parseInput } from '../validation.ts';
import { isAnonymousSurvey, planTable, tableRows, type ExportChoice } from './results-table.ts';
import { contentTypes, csvWriter, xlsxWriter } from './sheet-writers.ts';
import * as s from './plays.schemas.ts';
import { withPlatform } from '../../platform-fields.ts';

/**
 * POST `exam:results:export` and its download. The call checks everything (permission, preset,
 * round, filters, language) and stores a link: the digest of a random token, the caller and its
 * choices, valid one hour. The file is not made then: the one download that claims the link
 * writes it into the response while it reads the results in batches (results-table.ts), so an
 * export of any size takes the memory of one batch, and no file is ever stored. At the download
 * the caller's permissions apply again (a caller who lost report permission gets no file).
 */

const EXPORT_VALID_MS = 60 * 60 * 1000;

const exportLink = (platform: Pick<Platform, 'config'>, token: string) => `${platform.config.baseUrl}/exports/${token}`;

export interface ExportRequest {
  exam: Exam;
  format: 'csv' | 'xlsx';
  url: string;
  valid: Date;
}

/** The filters as stored: label -> options, each label a select field with filtering, each option a filterable one. */
async function checkFilters(ctx: Context, exam: Exam, filters: Record<string, unknown>): Promise<Record<string, string[]>> {
  const labels = Object.keys(filters);
  if (labels.length === 0) return {};
  const fields = await ctx.db.examField.findMany({ where: { examId: exam.id, removedAt: null, label: { in: labels } } });
  const out: Record<string, string[]> = {};
  for (const label of labels) {
    const field = fields.find((f) => f.label === label);
    const filtering = field?.type === 'select' && field.filtering && typeof field.filtering === 'object' ? Object.keys(field.filtering) : [];
    const options = new Set(((field?.options as string[] | null) ?? []).filter((o) => filtering.includes(o)));
    if (!field || options.size === 0) throw new ArgumentError('filters', `'${label}' is not a select field of the exam with filtering configured`);
    const given = filters[label];
    const list = Array.isArray(given) ? given : [given];
    if (list.length === 0 || list.length > 200 || !list.every((o) => typeof o === 'string' || typeof o === 'number')) {
      throw new ArgumentError('filters', `'${label}' must be an option or a list of 1 to 200 options`);
    }
    const wanted = [...new Set(list.map(String))];
    const other = wanted.find((o) => !options.has(o));
    if (other !== undefined) throw new ArgumentError('filters', `'${other}' is not a filterable option of '${label}' (${[...options].join(', ')})`);
    out[label] = wanted;
  }
  return out;
}

export async function requestResultsExport(ctx: Context, raw: Record<string, unknown>): Promise<ExportRequest> {
  const input = parseInput(s.exportResults, raw);
  const exam = await findExam(ctx, input.exam, 'exam:results:read');
  if (input.round !== undefined && input.filters !== undefined) throw new ArgumentError('filters', 'cannot be combined with round', 'ARGUMENT_CONFLICT');
  const [stored, set, quiz] = await Promise.all([
    storedSettings(ctx.db, exam.id),
    ctx.db.examFieldSet.findUnique({ where: { examId: exam.id } }),
    ctx.db.quizSet.findUniqueOrThrow({ where: { id: exam.quizId }, select: { mode: true } }),
  ]);
  if (input.preset === 'answers' && !isAnonymousSurvey(exam, set)) {
    throw new PermissionError('The answers preset is available only for anonymous surveys (a survey asking for no name, email or phone)', 'NOT_ANONYMOUS_SURVEY');
  }
  if (input.round !== undefined && input.round !== exam.round) {
    const closed = await ctx.db.examRound.findUnique({ where: { examId_round: { examId: exam.id, round: input.round } } });
    if (!closed) throw new ArgumentError('round', `is not a closed round of the exam (the current round is ${exam.round})`);
  } else if (input.round !== undefined) {
    throw new ArgumentError('round', `is the current round (${exam.round}), not a closed one; leave it out to export the current round`);
  }
  const filters = input.filters ? await checkFilters(ctx, exam, input.filters) : {};
  if (input.language !== undefined) await assertActiveLanguage(ctx, input.language);
  const settings = settingsView({ id: exam.id, type: exam.type, quizMode: quiz.mode }, stored);
  const choice: ExportChoice = {
    format: input.format ?? settings.exportFormat,
    preset: input.preset,
    sort: input.sort ?? settings.exportSort,
    round: input.round ?? exam.round,
    closedRound: input.round !== undefined,
    filters,
    language: input.language ?? ctx.language,
  };
  const token = randomToken(48);
  const validUntil = new Date(Date.now() + EXPORT_VALID_MS);
  await ctx.db.$transaction(async (tx) => {
    const link = await tx.resultsExport.create({
      data: {
        id: newId('ResultsExport'),
        examId: exam.id,
        userId: ctx.viewer.user.id,
        integrationId: ctx.viewer.integration.id,
        tokenHash: sha256(token),
        options: choice as unknown as Prisma.InputJsonObject,
        validUntil,
      },
    });
    await enqueue(tx, removeResultsExport, { export: link.id }, { runAt: validUntil, dedupeKey: link.id });
    await audit(ctx, tx, 'exam.results.export', exam.id);
  });
  return { exam, format: choice.format, url: exportLink(ctx, token), valid: validUntil };
}

// ---------------------------------------------------------------------------------------------
// The download.

export type ExportDownload =
  | { status: 'ok'; filename: string; contentType: string; body: Readable }
  | { status: 'missing' | 'used' | 'expired' | 'revoked' };

/** The caller who asked for the export, as it is now (its application, its owner); undefined when it can no longer act. */
async function viewerOf(platform: Platform, link: ResultsExport): Promise<Viewer | undefined> {
  const [user, integration] = await Promise.all([
    platform.db.user.findUnique({ where: { id: link.userId } }),
    platform.db.integration.findUnique({ where: { id: link.integrationId }, include: { owner: true } }),
  ]);
  if (!user?.enabled || !integration?.active || !integration.owner.enabled) return undefined;
  const { owner, ...record } = integration;
  return { user, owner, integration: record };
}

/**
 * The file behind `/exports/<token>`: once. The link is claimed with one conditional update (unused
 * and unexpired), so of two simultaneous downloads exactly one gets the file; the other, and any
 * later one, gets `used`. The caller's permissions are checked again before the claim, so a
 * refused download does not use the link up.
 */
export async function downloadResultsExport(platform: Platform, token: string, requestId: string): Promise<ExportDownload> {
  const link = await platform.db.resultsExport.findUnique({ where: { tokenHash: sha256(token) } });
  if (!link) return { status: 'missing' };
  if (link.usedAt) return { status: 'used' };
  if (link.validUntil <= new Date()) return { status: 'expired' };
  const choice = link.options as unknown as ExportChoice;
  const viewer = await viewerOf(platform, link);
  if (!viewer) return { status: 'revoked' };
  const ctx: Context = withPlatform(platform, { viewer, requestId, language: choice.language });
  let exam: Exam;
  try {
    exam = await findExam(ctx, link.examId, 'exam:results:read');
  } catch (error) {
    if (error instanceof AppError) return { status: 'revoked' };
    throw error;
  }
  const plan = await planTable(ctx, exam, choice);
  const now = new Date();
  const { count } = await platform.db.resultsExport.updateMany({ where: { id: link.id, usedAt: null, validUntil: { gt: now } }, data: { usedAt: now } });
  if (count === 0) {
    const again = await platform.db.resultsExport.findUnique({ where: { id: link.id }, select: { usedAt: true } });
    return { status: again?.usedAt ? 'used' : 'expired' };
  }
  const body = new PassThrough();
  const writer = choice.format === 'csv' ? csvWriter(body, plan.header) : xlsxWriter(body, plan.header, plan.words.sheet);
  void (async () => {
    for await (const rows of tableRows(ctx, plan)) {
      if (body.destroyed) return;
      await writer.rows(rows);
    }
    await writer.end();
  })().catch((error: unknown) => {
    platform.log.error({ reqId: requestId, err: error, export: link.id }, 'results export failed while streaming');
    body.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  const round = choice.closedRound ? `-round-${choice.round}` : '';
  return { status: 'ok', filename: `results-${exam.id}${round}.${choice.format}`, contentType: contentTypes[choice.format], body };
}

/** Removes an export link at the end of its validity, used or not, and any other expired one left behind. */
export const removeResultsExport = defineTask('exams.remove-results-export', z.object({ export: z.string() }), async (ctx: SystemContext, { export: id }) => {
  await ctx.db.resultsExport.deleteMany({ where: { OR: [{ id }, { validUntil: { lte: new Date() } }] } });
});
