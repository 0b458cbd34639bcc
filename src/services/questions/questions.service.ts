import type { Context } from '../../context.ts';
import type { Prisma, Question, QuizSet } from '../../generated/prisma/client.ts';
import { can, viewableWhere, type Level } from '../../auth/permissions.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { deleteFiles, storeFile } from '../files/files.service.ts';
import { movedOrganization, resolveOrganization } from '../organizations/content-organization.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { parseInput } from '../validation.ts';
import { readMedia, type MediaValue } from './media.ts';
import { normalizePath, normalizeQuestion, type QuestionData } from './question-input.ts';
import * as s from './questions.schemas.ts';
import { findQuizSet, quizContent } from '../quizzes/access.ts';
import { nextPosition } from '../quizzes/items.service.ts';

/**
 * The question base. A question's external id is unique within its scope: a folder of its owner
 * (`folder:<owner>:<path>`) or a Quiz set (`quiz:<quiz set>`); POST `question` creates or updates
 * by (scope, external id) and never duplicates, because the insert relies on that unique index.
 *
 * Access follows the content policy (auth/permissions.ts). Questions carry no permission rules of
 * their own; their owner and their organization's content levels apply, and a question in the
 * scope of a Quiz set also gives the levels held on that Quiz set. A question that is an item of
 * a Quiz set the viewer may view can be viewed too. Reading needs view, exporting report,
 * changing or deleting modify.
 */

type Tx = Prisma.TransactionClient;

export const folderScope = (ownerId: string, path: string) => `folder:${ownerId}:${path}`;
export const quizScope = (quizId: string) => `quiz:${quizId}`;
export const quizOfScope = (scope: string) => (scope.startsWith('quiz:') ? scope.slice(5) : null);

/** Questions the viewer may view, as a filter (lists, single reads and GraphQL nodes). */
export async function visibleQuestionsWhere(ctx: Context): Promise<Prisma.QuestionWhereInput> {
  if (ctx.viewer.user.admin) return {};
  // The filter of viewable Quiz sets matches owner and organization columns, which questions
  // share; its id list names Quiz sets, which no question id equals.
  const viewable = await viewableWhere(ctx.db, ctx.viewer, 'quiz');
  return { OR: [viewable as Prisma.QuestionWhereInput, { items: { some: { quiz: viewable as Prisma.QuizSetWhereInput } } }] };
}

/** Whether the viewer holds `level` on the question: through its owner and organization, or its Quiz set scope. */
export async function canOnQuestion(ctx: Context, question: Question, level: Level): Promise<boolean> {
  // A ContentRef on the Quiz set scale: owner and organization levels; no rule names a question id.
  if (await can(ctx, level, { type: 'quiz', id: question.id, ownerId: question.ownerId, organizationId: question.organizationId })) return true;
  const quizId = quizOfScope(question.scope);
  const quiz = quizId ? await ctx.db.quizSet.findUnique({ where: { id: quizId } }) : null;
  return quiz !== null && (await can(ctx, level, quizContent(quiz)));
}

/** A question by identification string (NOT_FOUND naming `argument`), once the viewer holds `level` on it. */
export async function findQuestion(ctx: Context, code: string, level: Level, argument = 'question'): Promise<Question> {
  const question = await ctx.db.question.findUnique({ where: { id: code } });
  if (!question) throw new ArgumentError(argument, `no question with identification string '${code}'`, 'NOT_FOUND');
  const allowed =
    level === 'view' ? (await ctx.db.question.count({ where: { AND: [{ id: code }, await visibleQuestionsWhere(ctx)] } })) === 1 : await canOnQuestion(ctx, question, level);
  if (!allowed) throw new PermissionError(`You need ${level} permission on this question`);
  return question;
}

/**
 * A question by external id: in the given Quiz set (`quiz`), the given folder of the caller
 * (`path`), or, with neither, in any folder of the caller. The same id in several folders is
 * ambiguous: the caller must give `path` (AMBIGUOUS_ID).
 */
export async function findByExternalId(ctx: Context, raw: Record<string, unknown>, level: Level): Promise<Question> {
  const input = parseInput(s.questionLookup, raw);
  const me = ctx.viewer.user.id;
  let where: Prisma.QuestionWhereInput;
  let place: string;
  if (input.quiz !== undefined) {
    const quiz = await findQuizSet(ctx, input.quiz, level, 'quiz', 'manage its questions');
    [where, place] = [{ scope: quizScope(quiz.id) }, `Quiz set ${quiz.id}`];
  } else if (input.path !== undefined) {
    const path = normalizePath(input.path);
    [where, place] = [{ scope: folderScope(me, path) }, `folder ${path}`];
  } else [where, place] = [{ scope: { startsWith: folderScope(me, '') } }, 'your folders'];
  const found = await ctx.db.question.findMany({ where: { ...where, externalId: input.id }, orderBy: { path: 'asc' }, take: 10 });
  if (found.length === 0) throw new ArgumentError('id', `no question with external id '${input.id}' in ${place}`, 'NOT_FOUND');
  if (found.length > 1) {
    throw new ArgumentError('path', `is needed: external id '${input.id}' is used in the folders ${found.map((q) => q.path).join(', ')}`, 'AMBIGUOUS_ID');
  }
  return found[0]!;
}

/** REST names a question by external id (with `path` or `quiz`); GraphQL by identification string (`question`). */
export type QuestionKey = 'externalId' | 'code';

export async function locateQuestion(ctx: Context, raw: Record<string, unknown>, level: Level, key: QuestionKey): Promise<Question> {
  return key === 'code' ? findQuestion(ctx, parseInput(s.questionRef, raw).question, level) : findByExternalId(ctx, raw, level);
}

/** Questions the viewer may view; `search` matches the external id or the text. */
export async function questionsWhere(ctx: Context, search?: string): Promise<Prisma.QuestionWhereInput> {
  const visible = await visibleQuestionsWhere(ctx);
  if (!search) return visible;
  return { AND: [visible, { OR: [{ externalId: { contains: search, mode: 'insensitive' } }, { content: { contains: search, mode: 'insensitive' } }] }] };
}

export async function listQuestions(ctx: Context, raw: Record<string, unknown>): Promise<Question[]> {
  const { search, limit, page } = parseInput(s.paging, raw);
  return ctx.db.question.findMany({
    where: await questionsWhere(ctx, search),
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    ...s.pageWindow({ search, limit, page }),
  });
}

export const getQuestion = (ctx: Context, raw: Record<string, unknown>) => findByExternalId(ctx, raw, 'view');

/**
 * Tags as given (identification string, external id or title) among those the viewer may view;
 * its own tags win over others with the same title.
 */
async function resolveTags(ctx: Context, refs: string[]): Promise<string[] | undefined> {
  if (refs.length === 0) return undefined;
  const visible = await viewableWhere(ctx.db, ctx.viewer, 'tag');
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
export async function upsertQuestion(ctx: Context, raw: Record<string, unknown>): Promise<UpsertResult> {
  const input = normalizeQuestion(parseInput(s.questionInput, raw));
  const media = await readMedia(raw, input.type);
  const me = ctx.viewer.user;
  const quiz = input.quiz === undefined ? null : await findQuizSet(ctx, input.quiz, 'modify', 'quiz', 'manage its questions');
  const scope = quiz ? quizScope(quiz.id) : folderScope(me.id, input.path);
  const tags = await resolveTags(ctx, input.tagRefs);
  const existing = await ctx.db.question.findUnique({ where: { scope_externalId: { scope, externalId: input.externalId } } });
  // Decided before the transaction: the organization rules read memberships.
  const organization = existing
    ? input.organization === undefined
      ? undefined
      : await movedOrganization(ctx, existing, input.organization ?? 'none', 'question')
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
        // Created by a concurrent call since it was read: its organization was decided for a create.
        if (organization !== undefined && current.ownerId !== (existing?.ownerId ?? me.id)) {
          throw new PermissionError('Only the owner of the question or an administrator may change its organization');
        }
        await deleteFiles(tx, await questionFileIds(tx, current.id));
        question = await tx.question.update({
          where: { id: current.id },
          data: { ...fields, ...(organization !== undefined && { organizationId: organization }) },
        });
      }
      await storeMedia(tx, question, media);
      if (quiz) await addToQuiz(tx, quiz.id, question.id);
      await audit(ctx, tx, count === 1 ? 'question.create' : 'question.update', question.id);
      return { question, created: count === 1 };
    },
    // Uploads make these the largest writes; concurrent ones queue for the same row.
    { maxWait: 15_000, timeout: 60_000 },
  );
}

export async function deleteQuestion(ctx: Context, raw: Record<string, unknown>, key: QuestionKey = 'externalId'): Promise<Question> {
  const question = await locateQuestion(ctx, raw, 'modify', key);
  await ctx.db.$transaction(async (tx) => {
    const files = await questionFileIds(tx, question.id);
    await tx.question.delete({ where: { id: question.id } });
    await deleteFiles(tx, files);
    await audit(ctx, tx, 'question.delete', question.id);
  });
  return question;
}

export async function getExternalId(ctx: Context, raw: Record<string, unknown>): Promise<Question> {
  return findQuestion(ctx, parseInput(s.questionRef, raw).question, 'view');
}

/** POST `question:id`: a new external id, refused when another question of the same scope has it. */
export async function setExternalId(ctx: Context, raw: Record<string, unknown>): Promise<Question> {
  const input = parseInput(s.setExternalId, raw);
  const question = await findQuestion(ctx, input.question, 'modify');
  if (question.externalId === input.id) return question;
  const taken = () => new ArgumentError('id', `is taken by another question in the same ${quizOfScope(question.scope) ? 'Quiz set' : 'folder'}`, 'ID_TAKEN');
  if (await ctx.db.question.findUnique({ where: { scope_externalId: { scope: question.scope, externalId: input.id } }, select: { id: true } })) throw taken();
  try {
    return await ctx.db.$transaction(async (tx) => {
      await deleteFiles(tx, (await tx.questionExport.findMany({ where: { questionId: question.id }, select: { fileId: true } })).map((e) => e.fileId));
      const updated = await tx.question.update({ where: { id: question.id }, data: { externalId: input.id } });
      await audit(ctx, tx, 'question.update', question.id);
      return updated;
    });
  } catch (error) {
    // Taken by a concurrent call between the check and the write.
    if (isUniqueViolation(error, 'externalId')) throw taken();
    throw error;
  }
}
