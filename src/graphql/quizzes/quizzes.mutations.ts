import { builder } from '../builder.ts';
import * as quizzes from '../../services/quizzes/quizzes.service.ts';
import * as settings from '../../services/quizzes/settings.service.ts';
import * as items from '../../services/quizzes/items.service.ts';
import { QuizModeType, QuizSetKind } from './quiz-set.type.ts';
import { given } from '../grading/grading-preset.type.ts';

const CreateQuizSetInput = builder.inputType('CreateQuizSetInput', {
  description: 'A new Quiz set owned by the caller.',
  fields: (t) => ({
    title: t.string({ required: true, description: '1-255 characters.' }),
    externalId: t.string({ description: 'External identifier, 1-64 characters.' }),
    language: t.string({ description: 'An active language; default the caller\'s.' }),
    description: t.string({ description: 'Up to 255 characters.' }),
    copySettings: t.id({ description: 'A Quiz set the caller may view whose settings it takes.' }),
    copyQuestions: t.id({ description: 'A Quiz set the caller may view whose groups and items it takes (the same questions).' }),
    organization: t.id({ description: 'An organization the caller owns or administers; organizational members always get theirs.' }),
    mode: t.field({ type: QuizModeType, description: 'Default TEST.' }),
    type: t.field({ type: QuizSetKind, description: 'Default set.' }),
  }),
});

const UpdateQuizSetInput = builder.inputType('UpdateQuizSetInput', {
  description: 'Changes to a Quiz set (modify permission): only given fields change; null or empty removes externalId, description and organization.',
  fields: (t) => ({
    quiz: t.id({ required: true, description: 'The Quiz set.' }),
    title: t.string({ description: '1-255 characters.' }),
    externalId: t.string({ description: 'External identifier, up to 64 characters.' }),
    language: t.string({ description: 'An active language.' }),
    description: t.string({ description: 'Up to 255 characters.' }),
    organization: t.id({ description: 'Only its owner or an administrator moves it: an organization of its owner.' }),
  }),
});

const UpdateQuizSettingsInput = builder.inputType('UpdateQuizSettingsInput', {
  description: 'Settings to change (modify permission): only given ones change.',
  fields: (t) => ({
    quiz: t.id({ required: true, description: 'The Quiz set.' }),
    shuffle: t.boolean({ description: 'Shuffle the questions.' }),
    timelimit: t.int({ description: 'Seconds for the whole test; 0: no limit.' }),
    roundtime: t.int({ description: 'Seconds per question, TURNS Quiz sets only; 0: no limit.' }),
    grading: t.string({ description: 'A usable grading preset code, `custom` or `none`.' }),
    gradingThreshold: t.float({ description: '0-100 (decimals allowed), only for presets with a configurable threshold.' }),
  }),
});

const CopyMode = builder.enumType('QuizSettingsCopyMode', {
  values: { REPLACE: { description: 'Every setting of the source (PUT quiz:settings).' }, FILL: { description: 'Only settings the target has not configured (PATCH quiz:settings).' } },
  description: 'How settings are copied.',
});

/** Null removes these, as an empty value does in the contract. */
const removable = (value: string | null | undefined) => (value === null ? '' : value);

const itemsArgs = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0]) => ({
  quiz: t.arg.id({ required: true, description: 'The Quiz set (modify permission).' }),
  group: t.arg.string({ description: 'A question group title; created when assigning to a missing one.' }),
  questions: t.arg.idList({ required: true, description: 'Questions the caller may view.' }),
});

builder.mutationFields((t) => ({
  createQuizSet: t.prismaField({
    type: 'QuizSet',
    description: 'Creates a Quiz set owned by the caller.',
    args: { input: t.arg({ type: CreateQuizSetInput, required: true }) },
    resolve: (query, _root, { input: { externalId, ...input } }, ctx) => quizzes.createQuizSet(ctx, given({ ...input, id: externalId }), query),
  }),
  updateQuizSet: t.prismaField({
    type: 'QuizSet',
    description: 'Changes a Quiz set.',
    args: { input: t.arg({ type: UpdateQuizSetInput, required: true }) },
    resolve: async (query, _root, { input: { externalId, description, organization, ...input } }, ctx) => {
      const changes = { ...input, id: removable(externalId), description: removable(description), organization: removable(organization) };
      return quizzes.updateQuizSet(ctx, given(changes), query);
    },
  }),
  deleteQuizSet: t.id({
    description: 'Deletes a Quiz set (admin permission) with its groups and items; its questions stay. Returns its identification string.',
    args: { quiz: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await quizzes.deleteQuizSet(ctx, args)).id,
  }),
  updateQuizSettings: t.prismaField({
    type: 'QuizSet',
    description: 'Changes the settings of a Quiz set.',
    args: { input: t.arg({ type: UpdateQuizSettingsInput, required: true }) },
    resolve: async (query, _root, args, ctx) => (await settings.updateSettings(ctx, given(args.input), query)).quiz,
  }),
  copyQuizSettings: t.prismaField({
    type: 'QuizSet',
    description: 'Copies the settings of a source Quiz set (view permission) to another (modify permission); questions, groups and selection, filtering and export settings stay.',
    args: {
      quiz: t.arg.id({ required: true, description: 'The target.' }),
      source: t.arg.id({ required: true, description: 'The source, another Quiz set.' }),
      mode: t.arg({ type: CopyMode, required: true }),
    },
    resolve: async (query, _root, { mode, ...args }, ctx) => (await settings.copySettings(ctx, args, mode === 'REPLACE' ? 'replace' : 'fill', query)).quiz,
  }),
  assignQuestions: t.prismaField({
    type: 'QuizSet',
    description: 'Puts questions into a Quiz set or one of its groups; a question already in it moves there.',
    args: itemsArgs(t),
    resolve: async (query, _root, args, ctx) => (await items.assignQuestions(ctx, given(args), query)).quiz,
  }),
  removeQuestions: t.prismaField({
    type: 'QuizSet',
    description: 'Takes questions out of a Quiz set (with group: only out of that group); groups left empty go too.',
    args: itemsArgs(t),
    resolve: async (query, _root, args, ctx) => (await items.removeQuestions(ctx, given(args), query)).quiz,
  }),
}));
