import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.ts';
import * as grading from '../../services/grading/grading.service.ts';
import type { Grade } from '../../services/grading/grades.ts';
import type { GradingPreset } from '../../generated/prisma/client.ts';

const GradeType = builder.objectRef<Grade>('Grade').implement({
  description: 'A grade of a preset, reached from its threshold up to the next grade.',
  fields: (t) => ({
    threshold: t.exposeFloat('threshold', { description: 'Percentage of the points from which the grade applies; the first is 0.' }),
    grade: t.exposeString('grade', { description: 'The grade (named freely only in custom presets).' }),
    text: t.string({ nullable: true, description: 'Shown under the grade: *asterisks* make bold, three or more spaces start a new line.', resolve: (g) => g.text ?? null }),
  }),
});

/** Readable: global presets, the caller's own, those of its organizations; administrators read all. */
export const GradingPresetType = builder.prismaNode('GradingPreset', {
  id: { field: 'id', description: 'The identification string (the preset code of the contract).' },
  nullable: true,
  description: 'A grading preset: how percentages become grades, and whether they decide success.',
  findUnique: (id, ctx) => ({ id, AND: [grading.readablePresetsWhere(ctx)] }),
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Title, 1-128 characters.' }),
    type: t.exposeString('type', { description: 'custom, go-nogo-custom, hungarian-school or hungarian-university.' }),
    language: t.exposeString('language', { nullable: true, description: 'Language; null: any language.' }),
    global: t.exposeBoolean('global', { description: 'Shipped with the service; read-only.' }),
    configurable: t.boolean({ description: 'The threshold can be adjusted per Quiz set (go-nogo-custom).', resolve: (p, _args, ctx) => grading.presetView(ctx, p).configurable }),
    certificates: t.boolean({
      description: 'The preset decides success, so certificates can be issued (every type but custom without successfulAll).',
      resolve: (p, _args, ctx) => grading.presetView(ctx, p).certificates,
    }),
    own: t.boolean({ description: 'A custom preset of the caller.', resolve: (p, _args, ctx) => grading.isOwn(ctx, p) }),
    organization: t.relation('organization', { nullable: true, description: 'The organization it belongs to (read-only for its members); null otherwise.' }),
    used: t.loadable({
      type: 'Boolean',
      description: 'Own presets: any Quiz set or exam uses it (then its type is fixed and it cannot be removed); others: a Quiz set or exam of the caller uses it.',
      load: (presets: GradingPreset[], ctx) => grading.presetsUsed(ctx, presets),
      resolve: (p) => p,
    }),
    grades: t.field({ type: [GradeType], description: 'The grades, by ascending threshold.', resolve: (p, _args, ctx) => grading.presetView(ctx, p).grades }),
    successfulAll: t.boolean({
      nullable: true,
      description: 'Custom presets: every grade counts as passed. Null for the other types.',
      resolve: (p) => (p.type === 'custom' ? p.successfulAll : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
  }),
});

/** A preset as listed for a Quiz set or an exam: whether it is the grading it plays by. */
const ListedPresetType = builder.objectRef<grading.PresetView>('ListedGradingPreset').implement({
  description: 'A grading preset usable by the caller, as listed (for a Quiz set or an exam: whether it is the current one).',
  fields: (t) => ({
    preset: t.field({ type: GradingPresetType, description: 'The preset.', resolve: (v) => v.preset }),
    current: t.boolean({ nullable: true, description: 'The grading the given Quiz set or exam plays by (an exam deferring to its Quiz set: the Quiz set\'s); null when neither was given.', resolve: (v) => v.current ?? null }),
  }),
});

builder.queryFields((t) => ({
  gradingPresets: t.field({
    type: [ListedPresetType],
    description: 'Global presets, the caller\'s own and those of its organizations: global first, then by organization, then own; by title.',
    args: {
      quiz: t.arg.id({ description: 'A Quiz set the caller may view: marks its current preset, and its language is the default filter.' }),
      exam: t.arg.id({ description: 'An exam the caller may view (instead of quiz): marks the preset it plays by, and its language is the default filter.' }),
      language: t.arg.string({ description: 'Only presets of this language (and those without one).' }),
    },
    resolve: async (_root, args, ctx, info) => {
      const presets = queryFromInfo({ context: ctx, info, typeName: 'GradingPreset', path: ['preset'] });
      return (await grading.listPresets(ctx, { quiz: args.quiz ?? undefined, exam: args.exam ?? undefined, language: args.language ?? undefined }, presets)).presets;
    },
  }),
}));

const GradeInput = builder.inputType('GradeInput', {
  description: 'A grade: the first threshold is ignored (it is 0); grade names count only in custom presets.',
  fields: (t) => ({
    threshold: t.float({ description: '0-100, strictly ascending.' }),
    grade: t.string({ description: 'The grade; custom presets: unique and non-empty.' }),
    text: t.string({ description: 'Shown under the grade.' }),
  }),
});

const CreateGradingPresetInput = builder.inputType('CreateGradingPresetInput', {
  description: 'A new custom preset of the caller (needs the custom grading feature).',
  fields: (t) => ({
    title: t.string({ required: true, description: '1-128 characters.' }),
    language: t.string({ description: 'An active language, or `none` for any; default the caller\'s language.' }),
    type: t.string({ required: true, description: 'custom (2-20 grades), go-nogo-custom (2), hungarian-school (5) or hungarian-university (5).' }),
    grades: t.field({ type: [GradeInput], required: true, description: 'Ascending grades.' }),
    successfulAll: t.boolean({ description: 'Custom presets only: every grade counts as passed. Default false.' }),
  }),
});

const UpdateGradingPresetInput = builder.inputType('UpdateGradingPresetInput', {
  description: 'Changes to an own preset: only given fields change. The type is fixed once a Quiz set or exam uses it.',
  fields: (t) => ({
    preset: t.id({ required: true, description: 'The preset.' }),
    title: t.string({ description: '1-128 characters.' }),
    language: t.string({ description: 'An active language, or `none` for any.' }),
    type: t.string({ description: 'The new type; the grades (given or current) must fit it. Leaving custom drops successfulAll.' }),
    grades: t.field({ type: [GradeInput], description: 'Replaces the whole list.' }),
    successfulAll: t.boolean({ description: 'Custom presets only.' }),
  }),
});

/** GraphQL sends null for "not given" (in lists of input objects too); the services take undefined. */
export const given = (input: object): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(input).flatMap(([k, v]) => (v === null || v === undefined ? [] : [[k, Array.isArray(v) ? v.map((x: unknown) => (typeof x === 'object' && x !== null ? given(x) : x)) : v]])),
  );

builder.mutationFields((t) => ({
  createGradingPreset: t.prismaField({
    type: 'GradingPreset',
    description: 'Creates a custom grading preset owned by the caller.',
    args: { input: t.arg({ type: CreateGradingPresetInput, required: true }) },
    resolve: (query, _root, args, ctx) => grading.createPreset(ctx, given(args.input), query),
  }),
  updateGradingPreset: t.prismaField({
    type: 'GradingPreset',
    description: 'Changes an own custom preset; global and organization presets are read-only.',
    args: { input: t.arg({ type: UpdateGradingPresetInput, required: true }) },
    resolve: async (query, _root, args, ctx) => (await grading.updatePreset(ctx, given(args.input), query)).preset,
  }),
  deleteGradingPreset: t.id({
    description: 'Removes an own custom preset no Quiz set or exam uses; returns its identification string.',
    args: { preset: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await grading.deletePreset(ctx, args)).id,
  }),
}));
