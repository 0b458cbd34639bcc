import type { Context } from '../../context.ts';
import type { Prisma, Question, QuizSet, Skill } from '../../generated/prisma/client.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import { visibleQuestionsWhere } from '../questions/access.ts';
import { findQuizSet } from './access.ts';
import { nextPosition } from './positions.ts';
import type { Selection } from '../selection.ts';
import * as s from './quizzes.schemas.ts';
import { entriesOf, type QuizEntry } from './entries.ts';

export { entriesOf, type QuizEntry };

/**
 * The items of a Quiz set: questions, directly or in a question group. A question is in a Quiz
 * set once. Groups and items draw their positions from one counter per Quiz set, so the order of
 * the top level (groups and ungrouped questions) and the order inside each group both follow it.
 */

type Tx = Prisma.TransactionClient;

export const quizEntries = async (ctx: Context, quizId: string) => (await entriesOf(ctx, [quizId]))[0]!;

/** The questions among entries, in their order. */
export const questionsOf = (entries: readonly QuizEntry[]): Question[] => entries.flatMap((e) => (e.kind === 'question' ? [e.question] : []));

export async function listItems(ctx: Context, raw: Record<string, unknown>): Promise<{ quiz: QuizSet; entries: QuizEntry[] }> {
  const quiz = await findQuizSet(ctx, parseInput(s.quizRef, raw).quiz, 'quiz:questions:read');
  return { quiz, entries: await quizEntries(ctx, quiz.id) };
}

const byTitle = (a: Skill, b: Skill) => a.title.localeCompare(b.title) || a.identifier.localeCompare(b.identifier);

/** Skills of the questions of each Quiz set, once each, by title. */
export async function skillsOf(ctx: Context, quizIds: readonly string[]): Promise<Skill[][]> {
  const links = await ctx.db.quizItem.findMany({
    where: { quizId: { in: [...quizIds] } },
    select: { quizId: true, question: { select: { skills: { select: { skill: true } } } } },
  });
  return quizIds.map((quizId) => {
    const skills = new Map(links.filter((l) => l.quizId === quizId).flatMap((l) => l.question.skills.map((s) => [s.skill.id, s.skill] as const)));
    return [...skills.values()].sort(byTitle);
  });
}

export async function listSkills(ctx: Context, raw: Record<string, unknown>): Promise<{ quiz: QuizSet; skills: Skill[] }> {
  const quiz = await findQuizSet(ctx, parseInput(s.quizRef, raw).quiz, 'quiz:skills:read');
  return { quiz, skills: (await skillsOf(ctx, [quiz.id]))[0]! };
}

/**
 * Every named question must be one the viewer may view (see the questions service: its own, its
 * organizations', those in Quiz sets it may view, so also the items of the Quiz set changed), as
 * copying a viewable Quiz set's items would; any other is answered as an id of nothing (NOT_FOUND
 * naming `questions`).
 */
async function findQuestions(ctx: Context, codes: string[]): Promise<string[]> {
  const ids = [...new Set(codes)];
  const where = { AND: [{ id: { in: ids } }, await visibleQuestionsWhere(ctx)] };
  const found = new Set((await ctx.db.question.findMany({ where, select: { id: true } })).map((q) => q.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw new ArgumentError('questions', `no question with identification string '${missing}'`, 'NOT_FOUND');
  return ids;
}

export interface ItemsChange {
  quiz: QuizSet;
  group?: string;
  questions: string[];
}

/**
 * Assigns questions to a Quiz set, or to one of its groups (created, last, when missing). A
 * question already in the Quiz set moves to the group asked for (or out of its group), to the end.
 */
export async function assignQuestions(ctx: Context, raw: Record<string, unknown>, query?: Selection<'QuizSet'>): Promise<ItemsChange> {
  const input = parseInput(s.assignQuestions, raw);
  const quiz = await findQuizSet(ctx, input.quiz, 'quiz:questions:update', 'quiz', query);
  const ids = await findQuestions(ctx, input.questions);
  await ctx.db.$transaction(async (tx) => {
    let position = await nextPosition(tx, quiz.id);
    let groupId: string | null = null;
    if (input.group) {
      // ON CONFLICT DO NOTHING: a concurrent call may be creating the same group.
      const where = { quizId_title: { quizId: quiz.id, title: input.group } };
      await tx.quizGroup.createMany({ data: [{ id: newId('QuizGroup'), quizId: quiz.id, title: input.group, position: position++ }], skipDuplicates: true });
      groupId = (await tx.quizGroup.findUniqueOrThrow({ where })).id;
    }
    const existing = new Map((await tx.quizItem.findMany({ where: { quizId: quiz.id, questionId: { in: ids } } })).map((i) => [i.questionId, i]));
    const added: Prisma.QuizItemCreateManyInput[] = [];
    for (const questionId of ids) {
      const item = existing.get(questionId);
      if (!item) added.push({ quizId: quiz.id, questionId, groupId, position: position++ });
      else if (item.groupId !== groupId) {
        await tx.quizItem.update({ where: { quizId_questionId: { quizId: quiz.id, questionId } }, data: { groupId, position: position++ } });
      }
    }
    // A concurrent identical call may have added some meanwhile: a question stays in the set once.
    if (added.length) await tx.quizItem.createMany({ data: added, skipDuplicates: true });
    await audit(ctx, tx, 'quiz.questions.assign', quiz.id);
  });
  return { quiz, group: input.group, questions: ids };
}

/**
 * Removes questions from a Quiz set; with `group`, only those in that group. Groups left empty
 * are removed too, as assigning creates them. Questions not in the Quiz set are passed over.
 */
export async function removeQuestions(ctx: Context, raw: Record<string, unknown>, query?: Selection<'QuizSet'>): Promise<ItemsChange> {
  const input = parseInput(s.assignQuestions, raw);
  const quiz = await findQuizSet(ctx, input.quiz, 'quiz:questions:update', 'quiz', query);
  const ids = await findQuestions(ctx, input.questions);
  const group = input.group ? await ctx.db.quizGroup.findUnique({ where: { quizId_title: { quizId: quiz.id, title: input.group } } }) : null;
  if (input.group && !group) throw new ArgumentError('group', `the Quiz set has no question group '${input.group}'`, 'NOT_FOUND');
  await ctx.db.$transaction(async (tx) => {
    const removed = await tx.quizItem.findMany({ where: { quizId: quiz.id, questionId: { in: ids }, ...(group ? { groupId: group.id } : {}) } });
    await tx.quizItem.deleteMany({ where: { quizId: quiz.id, questionId: { in: removed.map((i) => i.questionId) } } });
    const touched = [...new Set(removed.flatMap((i) => (i.groupId ? [i.groupId] : [])))];
    await tx.quizGroup.deleteMany({ where: { id: { in: touched }, items: { none: {} } } });
    await audit(ctx, tx, 'quiz.questions.remove', quiz.id);
  });
  return { quiz, group: input.group, questions: ids };
}

/** Copies the groups and items of one Quiz set into another (same questions, new items). */
export async function copyItems(tx: Tx, fromId: string, toId: string): Promise<void> {
  const [groups, items] = await Promise.all([tx.quizGroup.findMany({ where: { quizId: fromId } }), tx.quizItem.findMany({ where: { quizId: fromId } })]);
  const groupIds = new Map(groups.map((g) => [g.id, newId('QuizGroup')]));
  if (groups.length) {
    await tx.quizGroup.createMany({ data: groups.map((g) => ({ id: groupIds.get(g.id)!, quizId: toId, title: g.title, position: g.position, active: g.active })) });
  }
  if (items.length) {
    await tx.quizItem.createMany({
      data: items.map((i) => ({ quizId: toId, questionId: i.questionId, groupId: i.groupId && groupIds.get(i.groupId)!, position: i.position, active: i.active })),
    });
  }
}
