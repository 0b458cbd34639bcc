import type { Context } from '../../context.ts';
import type { Prisma, QuizSet } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { forgetContent } from '../content/records.ts';
import { parseInput } from '../validation.ts';
import { pageWindow, paging } from '../paging.ts';
import type { Selection, Window } from '../selection.ts';
import { movedOrganization, resolveOrganization } from '../organizations/content-organization.ts';
import { assertActiveLanguage, findQuizSet, viewableQuizSetsWhere } from './access.ts';
import { copiedSettings, unconfigured } from './settings.service.ts';
import { copyItems } from './items.service.ts';
import * as s from './quizzes.schemas.ts';

/** Quiz sets: collections of questions and question groups, with their settings. */

/** Quiz sets the viewer may view; `search` matches the title. */
export async function quizSetsWhere(ctx: Context, search?: string): Promise<Prisma.QuizSetWhereInput> {
  return { AND: [await viewableQuizSetsWhere(ctx), search ? { title: { contains: search, mode: 'insensitive' } } : {}] };
}

/** Quiz sets the viewer may view, by title: a page of the contract, or a GraphQL connection's window. */
export async function listQuizSets(ctx: Context, raw: Record<string, unknown>, window?: Window<'QuizSet'>): Promise<QuizSet[]> {
  const { search, limit, page } = parseInput(paging, raw);
  const rows: Window<'QuizSet'> = window ?? pageWindow({ search, limit, page });
  return ctx.db.quizSet.findMany({ ...rows, where: await quizSetsWhere(ctx, search), orderBy: [{ title: 'asc' }, { id: 'asc' }] });
}

export async function getQuizSet(ctx: Context, raw: Record<string, unknown>): Promise<QuizSet> {
  return findQuizSet(ctx, parseInput(s.quizRef, raw).quiz, 'quiz:read');
}

const noOrganization = (v: string | undefined) => v === '' || v === 'none';

/**
 * Creates a Quiz set owned by the viewer. `copySettings` takes the settings of a Quiz set the
 * viewer may view (as PUT `quiz:settings` would), `copyQuestions` its groups and items.
 */
export async function createQuizSet(ctx: Context, raw: Record<string, unknown>, query: Selection<'QuizSet'> = {}): Promise<QuizSet> {
  const input = parseInput(s.createQuizSet, raw);
  const owner = ctx.viewer.user;
  if (input.language !== undefined) await assertActiveLanguage(ctx, input.language);
  const settingsSource = input.copySettings === undefined ? undefined : await findQuizSet(ctx, input.copySettings, 'quiz:settings:copy', 'copySettings');
  const questionsSource = input.copyQuestions === undefined ? undefined : await findQuizSet(ctx, input.copyQuestions, 'quiz:questions:copy', 'copyQuestions');
  const organizationId = await resolveOrganization(ctx, owner, noOrganization(input.organization) ? null : input.organization);
  return ctx.db.$transaction(async (tx) => {
    const fields = {
      id: newId('QuizSet'),
      externalId: input.id ?? null,
      title: input.title,
      language: input.language ?? owner.language,
      description: input.description || null,
      mode: input.mode,
      type: input.type,
      ownerId: owner.id,
      organizationId: organizationId ?? null,
    };
    const settings = settingsSource ? copiedSettings({ ...unconfigured, mode: input.mode }, settingsSource, 'replace') : {};
    const quiz = await tx.quizSet.create({ ...query, data: { ...fields, ...settings } });
    if (questionsSource) await copyItems(tx, questionsSource.id, quiz.id);
    await audit(ctx, tx, 'quiz.create', quiz.id);
    return quiz;
  });
}

export async function updateQuizSet(ctx: Context, raw: Record<string, unknown>, query: Selection<'QuizSet'> = {}): Promise<QuizSet> {
  const input = parseInput(s.updateQuizSet, raw);
  const quiz = await findQuizSet(ctx, input.quiz, 'quiz:update', 'quiz', query);
  const data: Prisma.QuizSetUncheckedUpdateInput = {};
  if (input.title !== undefined) data.title = input.title;
  if (input.id !== undefined) data.externalId = input.id || null;
  if (input.language !== undefined) {
    await assertActiveLanguage(ctx, input.language);
    data.language = input.language;
  }
  if (input.description !== undefined) data.description = input.description || null;
  if (input.organization !== undefined) data.organizationId = await movedOrganization(ctx, quiz, input.organization, 'quiz:organization:update');
  if (Object.keys(data).length === 0) return quiz;
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.quizSet.update({ ...query, where: { id: quiz.id }, data });
    await audit(ctx, tx, 'quiz.update', quiz.id);
    return updated;
  });
}

/**
 * A Quiz set used elsewhere (by an exam, archived ones included, or by plays) is archived, so
 * what used it keeps its questions; one used nowhere is deleted with its groups, items,
 * permission rules and tags. Its questions stay in the owner's question base.
 */
const isQuizSetUsed = async (tx: Prisma.TransactionClient, quizId: string) =>
  (await tx.exam.count({ where: { quizId }, take: 1 })) + (await tx.play.count({ where: { quizId }, take: 1 })) > 0;

export async function deleteQuizSet(ctx: Context, raw: Record<string, unknown>): Promise<QuizSet> {
  const quiz = await findQuizSet(ctx, parseInput(s.quizRef, raw).quiz, 'quiz:delete');
  await ctx.db.$transaction(async (tx) => {
    if (await isQuizSetUsed(tx, quiz.id)) await tx.quizSet.update({ where: { id: quiz.id }, data: { archived: true } });
    else {
      await forgetContent(tx, 'quiz', quiz.id);
      await tx.quizSet.delete({ where: { id: quiz.id } });
    }
    await audit(ctx, tx, 'quiz.delete', quiz.id);
  });
  return quiz;
}
