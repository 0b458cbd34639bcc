import { createContextCache } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { resolveArrayConnection } from '@pothos/plugin-relay';
import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../context.ts';
import { builder } from '../builder.ts';
import { QuestionType, SkillType } from '../questions/question.type.ts';
import * as quizzes from '../../services/quizzes/quizzes.service.ts';
import * as items from '../../services/quizzes/items.service.ts';
import { settingsView, type SettingsView } from '../../services/quizzes/settings.service.ts';
import { viewableQuizSetsWhere } from '../../services/quizzes/access.ts';

/**
 * The entries of every Quiz set a request shows, loaded together, with their questions' relations
 * as the field's selection asks for them (`path` leads from the field to its questions): one
 * loader per request and selection, so `items` and `questions` share one when they ask alike.
 */
const loaders = createContextCache(() => new Map<string, DataLoader<string, items.QuizEntry[]>>());
function entriesOf(ctx: Context, info: GraphQLResolveInfo, path: string[]): DataLoader<string, items.QuizEntry[]> {
  const questions = queryFromInfo({ context: ctx, info, typeName: 'Question', path });
  const key = JSON.stringify(questions);
  const byQuery = loaders(ctx);
  if (!byQuery.has(key)) byQuery.set(key, new DataLoader((ids: readonly string[]) => items.entriesOf(ctx, ids, questions)));
  return byQuery.get(key)!;
}
import { quizModes, quizTypes } from '../../services/quizzes/quizzes.schemas.ts';

export const QuizModeType = builder.enumType('QuizMode', {
  values: quizModes,
  description: 'TEST: all questions at once, answered in any order; TURNS: one question at a time, answered before moving on.',
});
export const QuizSetKind = builder.enumType('QuizSetType', {
  values: quizTypes,
  description: 'set: practice; final: course exam; exam: exam purposes; private: private purposes.',
});

const SettingsType = builder.objectRef<SettingsView>('QuizSettings').implement({
  description: 'Settings of a Quiz set, as read: unconfigured ones read as no shuffling, no limits and no grading.',
  fields: (t) => ({
    shuffle: t.exposeBoolean('shuffle', { description: 'Questions are shuffled.' }),
    timelimit: t.exposeInt('timelimit', { nullable: true, description: 'Seconds for the whole test; null: no limit.' }),
    roundtime: t.exposeInt('roundtime', { nullable: true, description: 'Seconds per question (TURNS only); null: no limit.' }),
    grading: t.exposeString('grading', { description: 'A grading preset code, `custom` or `none`.' }),
    gradingThreshold: t.exposeFloat('gradingThreshold', { nullable: true, description: 'Pass mark in percent for a configurable preset; null when not configured.' }),
  }),
});

const QuizGroupType = builder.objectRef<{ title: string; active: boolean }>('QuizGroup').implement({
  description: 'A question group of a Quiz set.',
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Title, unique in the Quiz set.' }),
    active: t.exposeBoolean('active', { description: 'Active.' }),
  }),
});

const ItemKind = builder.enumType('QuizSetItemKind', { values: ['QUESTION', 'GROUP'] as const, description: 'A question or a question group.' });

const ItemType = builder.objectRef<items.QuizEntry>('QuizSetItem').implement({
  description: 'An entry of a Quiz set: a question, or a question group followed by its questions.',
  fields: (t) => ({
    kind: t.field({ type: ItemKind, description: 'Question or group.', resolve: (e) => (e.kind === 'group' ? 'GROUP' : 'QUESTION') }),
    question: t.field({ type: QuestionType, nullable: true, description: 'The question; null for a group.', resolve: (e) => (e.kind === 'question' ? e.question : null) }),
    group: t.field({
      type: QuizGroupType,
      nullable: true,
      description: 'The group itself, or the group a question is in; null for a question outside groups.',
      resolve: (e) => e.group,
    }),
    active: t.boolean({ description: 'Active.', resolve: (e) => (e.kind === 'group' ? e.group.active : e.item.active) }),
  }),
});

/** A Quiz set; readable with view permission on it. */
export const QuizSetType = builder.prismaNode('QuizSet', {
  id: { field: 'id', description: 'The identification string, the same as in the REST contract.' },
  nullable: true,
  description: 'A Quiz set: questions and question groups, with its settings.',
  findUnique: async (id, ctx) => ({ id, AND: [await viewableQuizSetsWhere(ctx)] }),
  fields: (t) => ({
    externalId: t.exposeString('externalId', { nullable: true, description: 'External identifier (1-64 characters).' }),
    title: t.exposeString('title', { description: 'Title, 1-255 characters.' }),
    language: t.exposeString('language', { description: 'Language.' }),
    description: t.exposeString('description', { nullable: true, description: 'Description, up to 255 characters.' }),
    mode: t.field({ type: QuizModeType, description: 'How questions are shown.', resolve: (q) => q.mode as (typeof quizModes)[number] }),
    type: t.field({ type: QuizSetKind, description: 'What it is for.', resolve: (q) => q.type as (typeof quizTypes)[number] }),
    organization: t.relation('organization', { nullable: true, description: 'Its organization, whose members hold their content level on it; null when none.' }),
    owner: t.relation('owner', { description: 'The user who created it (holds admin on it).' }),
    settings: t.field({ type: SettingsType, description: 'Its settings.', resolve: (q) => settingsView(q) }),
    items: t.field({
      type: [ItemType],
      description: 'Its entries in order: questions and groups, each group followed by its questions.',
      resolve: (q, _args, ctx, info) => entriesOf(ctx, info, ['question']).load(q.id),
    }),
    skills: t.loadableList({
      type: SkillType,
      description: 'Skills of its questions, by title.',
      load: (ids: string[], ctx) => items.skillsOf(ctx, ids),
      resolve: (q) => q.id,
    }),
    questions: t.connection({
      type: QuestionType,
      description: 'Its questions in the order of its entries.',
      resolve: async (q, args, ctx, info) => resolveArrayConnection({ args }, items.questionsOf(await entriesOf(ctx, info, ['edges', 'node']).load(q.id))),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last changed.' }),
  }),
});

builder.queryFields((t) => ({
  quizSets: t.prismaConnection({
    type: 'QuizSet',
    cursor: 'id',
    description: 'Quiz sets the caller may view, by title.',
    args: { search: t.arg.string({ description: 'Matches the title.' }) },
    resolve: (query, _root, args, ctx) => quizzes.listQuizSets(ctx, { search: args.search ?? undefined }, query),
  }),
}));
