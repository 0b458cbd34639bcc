import type { Context } from '../../context.ts';
import type { Prisma, Question } from '../../generated/prisma/client.ts';
import { allowedWhere, refused } from '../../auth/policy.ts';
import { ArgumentError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { deleteFiles, storeFile } from '../files/files.service.ts';
import { movedOrganization, resolveOrganization } from '../organizations/content-organization.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { parseInput } from '../validation.ts';
import { readMedia, type MediaValue } from './media.ts';
import { normalizePath, normalizeQuestion, type QuestionData } from './question-input.ts';
import type { Selection, Window } from '../selection.ts';
import * as s from './questions.schemas.ts';
import { findQuizSet, quizSetsWhere } from '../quizzes/access.ts';
import { nextPosition } from '../quizzes/positions.ts';
import { findQuestion, folderScope, quizOfScope, quizScope, visibleQuestionsWhere, type QuestionAction } from './access.ts';

/**
 * The question base. A question's external id is unique within its scope: a folder of its owner
 * (`folder:<owner>:<path>`) or a Quiz set (`quiz:<quiz set>`); POST `question` creates or updates
 * by (scope, external id) and never duplicates, because the insert relies on that unique index.
 *
 * Access follows the content policy (access.ts): reading needs view, exporting report, changing
 * or deleting modify.
 */

type Tx = Prisma.TransactionClient;

/**
 * A question by external id: in the given Quiz set (`quiz`), the given folder of the caller
 * (`path`), or, with neither, wherever the caller keeps questions: its folders and the Quiz sets it
 * may do the action on (the scopes POST `question` writes to). An id found in several of those
 * places is ambiguous: refused (AMBIGUOUS_ID) naming them, and `path` or `quiz` picks one.
 */
export async function findByExternalId(ctx: Context, raw: Record<string, unknown>, action: QuestionAction, query: Selection<'Question'> = {}): Promise<Question> {
  const input = parseInput(s.questionLookup, raw);
  const me = ctx.viewer.user.id;
  if (input.quiz !== undefined) {
    const quiz = await findQuizSet(ctx, input.quiz, `quiz:${action}`);
    return single(await ctx.db.question.findMany({ ...query, where: { scope: quizScope(quiz.id), externalId: input.id } }), input.id, `Quiz set ${quiz.id}`);
  }
  if (input.path !== undefined) {
    const path = normalizePath(input.path);
    return single(await ctx.db.question.findMany({ ...query, where: { scope: folderScope(me, path), externalId: input.id } }), input.id, `folder ${path}`);
  }
  const candidates = await ctx.db.question.findMany({
    ...query,
    where: { externalId: input.id, OR: [{ scope: { startsWith: folderScope(me, '') } }, { scope: { startsWith: quizScope('') } }] },
    orderBy: [{ scope: 'asc' }],
    take: 50,
  });
  const quizIds = [...new Set(candidates.map((q) => quizOfScope(q.scope)).filter((id) => id !== null))];
  const kept =
    quizIds.length === 0
      ? new Set<string>()
      : new Set((await ctx.db.quizSet.findMany({ where: { AND: [{ id: { in: quizIds } }, await quizSetsWhere(ctx, `quiz:${action}`)] }, select: { id: true } })).map((q) => q.id));
  const found = candidates.filter((q) => {
    const quizId = quizOfScope(q.scope);
    return quizId === null || kept.has(quizId);
  });
  return single(found, input.id, 'your folders or Quiz sets');
}

/** The one question found, or NOT_FOUND, or AMBIGUOUS_ID naming the folders (then `path` resolves it) and Quiz sets (`quiz`). */
function single(found: Question[], externalId: string, place: string): Question {
  if (found.length === 0) throw new ArgumentError('id', `no question with external id '${externalId}' in ${place}`, 'NOT_FOUND');
  if (found.length === 1) return found[0]!;
  const folders = found.filter((q) => quizOfScope(q.scope) === null).map((q) => q.path);
  const quizzes = found.map((q) => quizOfScope(q.scope)).filter((id) => id !== null);
  const places = [...(folders.length ? [`the folders ${folders.join(', ')}`] : []), ...(quizzes.length ? [`the Quiz sets ${quizzes.join(', ')}`] : [])];
  throw new ArgumentError(quizzes.length ? 'quiz' : 'path', `is needed: external id '${externalId}' is used in ${places.join(' and ')}`, 'AMBIGUOUS_ID');
}

/** REST names a question by external id (with `path` or `quiz`); GraphQL by identification string (`question`). */
export type QuestionKey = 'externalId' | 'code';

export async function locateQuestion(ctx: Context, raw: Record<string, unknown>, action: QuestionAction, key: QuestionKey): Promise<Question> {
  return key === 'code' ? findQuestion(ctx, parseInput(s.questionRef, raw).question, action) : findByExternalId(ctx, raw, action);
}

/** Questions the viewer may view; `search` matches the external id or the text. */
export async function questionsWhere(ctx: Context, search?: string): Promise<Prisma.QuestionWhereInput> {
  const visible = await visibleQuestionsWhere(ctx);
  if (!search) return visible;
  return { AND: [visible, { OR: [{ externalId: { contains: search, mode: 'insensitive' } }, { content: { contains: search, mode: 'insensitive' } }] }] };
}

/** Questions the viewer may view, oldest first: a page of the contract, or a GraphQL connection's window. */
export async function listQuestions(ctx: Context, raw: Record<string, unknown>, window?: Window<'Question'>): Promise<Question[]> {
  const { search, limit, page } = parseInput(s.paging, raw);
  const rows: Window<'Question'> = window ?? s.pageWindow({ search, limit, page });
  return ctx.db.question.findMany({ ...rows, where: await questionsWhere(ctx, search), orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** The question as written, with the relations a GraphQL selection asks for (read again only then). */
export const withSelection = async (db: Prisma.TransactionClient, question: Question, query?: Selection<'Question'>): Promise<Question> =>
  query ? db.question.findUniqueOrThrow({ ...query, where: { id: question.id } }) : question;

/** GET question; GraphQL questionByExternalId hands the selection of its answer (`query`). */
export const getQuestion = (ctx: Context, raw: Record<string, unknown>, query?: Selection<'Question'>) => findByExternalId(ctx, raw, 'question:read', query);

/**
 * Tags as given (identification string, external id or title) among those the viewer may view;
 * its own tags win over others with the same title.
 */
async function resolveTags(ctx: Context, refs: string[]): Promise<string[] | undefined> {
  if (refs.length === 0) return undefined;
  const visible = await allowedWhere(ctx, 'tag:use');
  const tags = await ctx.db.tag.findMany({
    where: { AND: [visible as Prisma.TagWhereInput, { OR: [{ id: { in: refs } }, { externalId: { in: refs } }, { title: { in: refs } }] }] },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const mine = (list: typeof tags) => list.find((t) => t.ownerId === ctx.viewer.user.id) ?? list[0];
  return [
    ...new Set(
      refs.map((ref) => {
        const tag = tags.find((t) => t.id === ref) ?? mine(tags.filter((t) => t.externalId === ref)) ?? mine(tags.filter((t) => t.title === ref));
        if (!tag) throw new ArgumentError('tags', `no tag '${ref}' you may use; tags are registered beforehand`, 'NOT_FOUND');
        return tag.id;
      }),
    ),
  ];
}

/** Files of a question's media and export links: replaced on every write, deleted with it. */
async function questionFileIds(tx: Tx, questionId: string): Promise<string[]> {
  const [media, exports] = await Promise.all([
    tx.questionMedia.findMany({ where: { questionId }, select: { fileId: true } }),
    tx.questionExport.findMany({ where: { questionId }, select: { fileId: true } }),
  ]);
  return [...media, ...exports].map((r) => r.fileId);
}

/** A question created in a Quiz set scope is an item of that Quiz set, after its last entry. */
async function addToQuiz(tx: Tx, quizId: string, questionId: string): Promise<void> {
  await tx.quizItem.createMany({ data: [{ quizId, questionId, position: await nextPosition(tx, quizId) }], skipDuplicates: true });
}

async function storeMedia(tx: Tx, question: Question, media: MediaValue[]): Promise<void> {
  for (const m of media) {
    if (!('data' in m)) continue;
    const file = await storeFile(tx, { ownerId: question.ownerId, filename: m.filename, contentType: m.contentType, data: m.data });
    await tx.questionMedia.create({ data: { questionId: question.id, field: m.field, fileId: file.id } });
  }
}

export interface UpsertResult {
  question: Question;
  created: boolean;
}

/**
 * POST `question`: creates the question, or replaces the definition of the one with the same
 * external id in the same scope. What the call gives is the whole question: fields left out
 * take their defaults and media left out are removed. The organization is the exception: left
 * out it stays; `none` or empty removes it (owner or administrator only). Skills and the
 * external id's scope stay. A write drops the question's export links (they hold the old text).
 *
 * Concurrent identical calls: the insert is INSERT … ON CONFLICT DO NOTHING on the unique
 * (scope, external id) index, so exactly one creates the row; the others wait for it and update.
 */
export async function upsertQuestion(ctx: Context, raw: Record<string, unknown>, query?: Selection<'Question'>): Promise<UpsertResult> {
  const given = parseInput(s.questionInput, raw);
  const input = normalizeQuestion(given);
  const media = await readMedia(given, input.type);
  const me = ctx.viewer.user;
  const quiz = input.quiz === undefined ? null : await findQuizSet(ctx, input.quiz, 'quiz:question:update');
  const scope = quiz ? quizScope(quiz.id) : folderScope(me.id, input.path);
  const tags = await resolveTags(ctx, input.tagRefs);
  const existing = await ctx.db.question.findUnique({ where: { scope_externalId: { scope, externalId: input.externalId } } });
  // Decided before the transaction: the organization rules read memberships.
  const organization = existing
    ? input.organization === undefined
      ? undefined
      : await movedOrganization(ctx, existing, input.organization ?? 'none', 'question:organization:update')
    : await resolveOrganization(ctx, me, input.organization);
  const links = Object.fromEntries(media.flatMap((m) => ('url' in m ? [[m.field, { filename: m.filename, url: m.url }]] : [])));
  const data: QuestionData = { ...input.data, ...(tags && { tags }), ...(Object.keys(links).length > 0 && { mediaLinks: links }) };
  const fields = {
    type: input.type,
    content: input.content,
    answers: input.answers,
    options: input.options,
    difficulty: input.difficulty,
    path: input.path,
    data: data as unknown as Prisma.InputJsonObject,
  };

  return ctx.db.$transaction(
    async (tx) => {
      const id = newId('Question');
      const { count } = await tx.question.createMany({
        data: [{ id, externalId: input.externalId, scope, ownerId: me.id, organizationId: organization ?? null, ...fields }],
        skipDuplicates: true,
      });
      let question: Question;
      if (count === 1) question = await tx.question.findUniqueOrThrow({ where: { id } });
      else {
        const current = await tx.question.findUniqueOrThrow({ where: { scope_externalId: { scope, externalId: input.externalId } } });
        // Created by a concurrent call since it was read: its organization was decided for a create
        // by its expected owner, which is not the owner of the row found.
        if (organization !== undefined && current.ownerId !== (existing?.ownerId ?? me.id)) throw refused('question:organization:update');
        await deleteFiles(tx, await questionFileIds(tx, current.id));
        question = await tx.question.update({
          where: { id: current.id },
          data: { ...fields, ...(organization !== undefined && { organizationId: organization }) },
        });
      }
      await storeMedia(tx, question, media);
      if (quiz) await addToQuiz(tx, quiz.id, question.id);
      await audit(ctx, tx, count === 1 ? 'question.create' : 'question.update', question.id);
      return { question: await withSelection(tx, question, query), created: count === 1 };
    },
    // Uploads make these the largest writes; concurrent ones queue for the same row.
    { maxWait: 15_000, timeout: 60_000 },
  );
}

export async function deleteQuestion(ctx: Context, raw: Record<string, unknown>, key: QuestionKey = 'externalId'): Promise<Question> {
  const question = await locateQuestion(ctx, raw, 'question:delete', key);
  await ctx.db.$transaction(async (tx) => {
    const files = await questionFileIds(tx, question.id);
    await tx.question.delete({ where: { id: question.id } });
    await deleteFiles(tx, files);
    await audit(ctx, tx, 'question.delete', question.id);
  });
  return question;
}

export async function getExternalId(ctx: Context, raw: Record<string, unknown>): Promise<Question> {
  return findQuestion(ctx, parseInput(s.questionRef, raw).question, 'question:read');
}

/** POST `question:id`: a new external id, refused when another question of the same scope has it. */
export async function setExternalId(ctx: Context, raw: Record<string, unknown>, query: Selection<'Question'> = {}): Promise<Question> {
  const input = parseInput(s.setExternalId, raw);
  const question = await findQuestion(ctx, input.question, 'question:update', 'question', query);
  if (question.externalId === input.id) return question;
  const taken = () => new ArgumentError('id', `is taken by another question in the same ${quizOfScope(question.scope) ? 'Quiz set' : 'folder'}`, 'ID_TAKEN');
  if (await ctx.db.question.findUnique({ where: { scope_externalId: { scope: question.scope, externalId: input.id } }, select: { id: true } })) throw taken();
  try {
    return await ctx.db.$transaction(async (tx) => {
      await deleteFiles(tx, (await tx.questionExport.findMany({ where: { questionId: question.id }, select: { fileId: true } })).map((e) => e.fileId));
      const updated = await tx.question.update({ ...query, where: { id: question.id }, data: { externalId: input.id } });
      await audit(ctx, tx, 'question.update', question.id);
      return updated;
    });
  } catch (error) {
    // Taken by a concurrent call between the check and the write.
    if (isUniqueViolation(error, 'externalId')) throw taken();
    throw error;
  }
}
