import { builder } from '../builder.ts';
import * as questions from '../../services/questions/questions.service.ts';
import * as skills from '../../services/questions/skills.service.ts';
import { exportQuestion, type ExportLink } from '../../services/questions/export.ts';
import { QuestionType } from './question.type.ts';

const ExportLinkType = builder.objectRef<ExportLink>('QuestionExportLink').implement({
  description: 'A link to a JSON export of a question (the fields of POST question), readable without credentials until `valid`.',
  fields: (t) => ({
    question: t.field({ type: QuestionType, description: 'The question.', resolve: (link) => link.question }),
    url: t.exposeString('url', { description: 'The link, `BASE_URL/files/<token>`.' }),
    valid: t.expose('valid', { type: 'DateTime', description: 'The link works until this moment (the end of a UTC day).' }),
  }),
});

const CreateSkillInput = builder.inputType('CreateSkillInput', {
  description: 'A new skill of the caller.',
  fields: (t) => ({
    identifier: t.string({ required: true, description: '1-64 letters, digits, _ . : -; unique among the caller’s skills.' }),
    title: t.string({ required: true, description: '1-255 characters.' }),
    description: t.string({ description: 'Up to 1024 characters.' }),
  }),
});

const UpdateSkillInput = builder.inputType('UpdateSkillInput', {
  description: 'Changes to a skill: only given fields change; an empty or null description removes it.',
  fields: (t) => ({
    skill: t.id({ required: true, description: 'The skill.' }),
    title: t.string({ description: '1-255 characters.' }),
    description: t.string({ description: 'Up to 1024 characters.' }),
  }),
});

/** Contract field names (snake_case) as the service's (camelCase); camelCase keys pass unchanged. */
const serviceFields = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), v]));

builder.mutationFields((t) => ({
  upsertQuestion: t.prismaField({
    type: 'Question',
    description:
      'Creates or updates a question exactly as POST question does (same rules, same errors). `fields` is a JSON object of the fields of POST question, by their contract names (snake_case, or camelCase); media as `<filename>=<base64 or URL>`.',
    args: { fields: t.arg({ type: 'JSONObject', required: true, description: 'The fields of POST question: id, type, content, answer, …' }) },
    resolve: async (query, _root, args, ctx) => (await questions.upsertQuestion(ctx, serviceFields(args.fields), query)).question,
  }),
  deleteQuestion: t.id({
    description: 'Deletes a question permanently (modify permission); returns its identification string.',
    args: { question: t.arg.id({ required: true, description: 'The question.' }) },
    resolve: async (_root, args, ctx) => (await questions.deleteQuestion(ctx, args, 'code')).id,
  }),
  setQuestionExternalId: t.prismaField({
    type: 'Question',
    description: 'Sets the external identifier; refused (ID_TAKEN) when another question of the same folder or Quiz set has it.',
    args: { question: t.arg.id({ required: true, description: 'The question.' }), id: t.arg.string({ required: true, description: '1-64 characters.' }) },
    resolve: (query, _root, args, ctx) => questions.setExternalId(ctx, args, query),
  }),
  exportQuestion: t.field({
    type: ExportLinkType,
    description: 'A link to a JSON export of the question (report permission); a valid existing link is returned again.',
    args: { question: t.arg.id({ required: true, description: 'The question.' }) },
    resolve: (_root, args, ctx) => exportQuestion(ctx, args, 'code'),
  }),
  createSkill: t.prismaField({
    type: 'Skill',
    description: 'Creates a skill of the caller.',
    args: { input: t.arg({ type: CreateSkillInput, required: true }) },
    resolve: (query, _root, args, ctx) => skills.createSkill(ctx, { ...args.input }, query),
  }),
  updateSkill: t.prismaField({
    type: 'Skill',
    description: 'Changes a skill of the caller.',
    args: { input: t.arg({ type: UpdateSkillInput, required: true }) },
    resolve: (query, _root, args, ctx) => skills.updateSkill(ctx, { ...args.input }, query),
  }),
  deleteSkill: t.id({
    description: 'Deletes a skill of the caller, detaching it from every question; returns its identification string.',
    args: { skill: t.arg.id({ required: true, description: 'The skill.' }) },
    resolve: async (_root, args, ctx) => (await skills.deleteSkill(ctx, args)).id,
  }),
  attachSkill: t.prismaField({
    type: 'Question',
    description: 'Attaches a skill of the caller to a question it may modify; attaching it again changes nothing.',
    args: { question: t.arg.id({ required: true, description: 'The question.' }), skill: t.arg.id({ required: true, description: 'The skill.' }) },
    resolve: (query, _root, args, ctx) => skills.attachSkill(ctx, args, query),
  }),
  detachSkill: t.prismaField({
    type: 'Question',
    description: 'Detaches a skill from a question it may modify.',
    args: { question: t.arg.id({ required: true, description: 'The question.' }), skill: t.arg.id({ required: true, description: 'The skill.' }) },
    resolve: (query, _root, args, ctx) => skills.detachSkill(ctx, args, query),
  }),
}));
