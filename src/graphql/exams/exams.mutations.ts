import { builder } from '../builder.ts';
import { given } from '../grading/grading-preset.type.ts';
import * as exams from '../../services/exams/exams.service.ts';
import * as rounds from '../../services/exams/rounds.service.ts';
import * as branding from '../../services/exams/branding.service.ts';
import * as examinees from '../../services/exams/users.service.ts';
import * as summaries from '../../services/exams/summaries.service.ts';
import { BrandingColor, BrandingKind, ExamKind } from './exam.type.ts';
import { mirrorDescription } from '../operation-prose.ts';

const CreateExamInput = builder.inputType('CreateExamInput', {
  description: mirrorDescription('A new exam owned by the caller (POST exam).', 'POST exam'),
  fields: (t) => ({
    title: t.string({ required: true, description: '1-255 characters.' }),
    externalId: t.string({ description: 'External identifier, 1-64 characters.' }),
    language: t.string({ description: "An active language; default the Quiz set's." }),
    quiz: t.id({ required: true, description: 'A Quiz set the caller may view.' }),
    type: t.field({ type: ExamKind, description: 'Default exam.' }),
    organization: t.id({ description: 'An organization the caller owns or administers; organizational members always get theirs.' }),
    start: t.field({ type: 'DateTime', required: true, description: 'Start of the exam period.' }),
    end: t.field({ type: 'DateTime', required: true, description: 'End of the exam period, after the start.' }),
    copySettings: t.id({ description: 'An exam the caller may view whose settings it takes.' }),
    keepCertificateSettings: t.boolean({ description: 'With copySettings: also take its certificate settings (default false).' }),
  }),
});

const UpdateExamInput = builder.inputType('UpdateExamInput', {
  description: mirrorDescription('Changes to an exam (PATCH exam, modify permission): only given fields change; null or empty removes externalId, description, organization and deadline.', 'PATCH exam'),
  fields: (t) => ({
    exam: t.id({ required: true, description: 'The exam.' }),
    title: t.string({ description: '1-255 characters.' }),
    externalId: t.string({ description: 'External identifier, up to 64 characters.' }),
    language: t.string({ description: 'An active language.' }),
    description: t.string({ description: 'Basic HTML; scripts, event handlers and javascript: links are removed.' }),
    organization: t.id({ description: 'Only its owner or an administrator moves it: an organization of its owner.' }),
    start: t.field({ type: 'DateTime', description: 'Changeable only until the first result arrives.' }),
    end: t.field({ type: 'DateTime', description: 'End of the exam period.' }),
    deadline: t.field({ type: 'DateTime', description: 'Within the exam period.' }),
    enabled: t.boolean({ description: 'Switches the exam on or off (off: INACTIVE).' }),
  }),
});

/** Null removes these, as an empty value does in the contract. */
const removable = <T>(value: T | null | undefined) => (value === null ? '' : value);

const examArg = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0]) => t.arg.id({ required: true, description: 'The exam.' });

builder.mutationFields((t) => ({
  createExam: t.prismaField({
    type: 'Exam',
    description: 'Creates an exam owned by the caller.',
    args: { input: t.arg({ type: CreateExamInput, required: true }) },
    resolve: (query, _root, { input: { externalId, ...input } }, ctx) => exams.createExam(ctx, given({ ...input, id: externalId }), query),
  }),
  updateExam: t.prismaField({
    type: 'Exam',
    description: 'Changes an exam.',
    args: { input: t.arg({ type: UpdateExamInput, required: true }) },
    resolve: async (query, _root, { input: { externalId, description, organization, deadline, ...input } }, ctx) => {
      const changes = { ...input, id: removable(externalId), description: removable(description), organization: removable(organization), deadline: removable(deadline) };
      return exams.updateExamWithSwitch(ctx, given(changes), query);
    },
  }),
  deleteExam: t.id({
    description: 'Deletes an exam (admin permission): archived when it has results, removed with its rows otherwise. Returns its identification string.',
    args: { exam: examArg(t) },
    resolve: async (_root, args, ctx) => (await exams.deleteExam(ctx, args)).exam.id,
  }),
  closeExamRound: t.prismaField({
    type: 'Exam',
    description: mirrorDescription('Closes the current round and opens the next (POST exam:round); refused while freeze_round is on.', 'POST exam:round'),
    args: { exam: examArg(t) },
    resolve: async (_query, _root, args, ctx) => (await rounds.closeRound(ctx, args)).exam,
  }),
  setExamBranding: t.prismaField({
    type: 'Exam',
    description: mirrorDescription('Sets the branding of an exam (POST exam:branding).', 'POST exam:branding'),
    args: {
      exam: examArg(t),
      type: t.arg({ type: BrandingKind, description: 'Default foreground.' }),
      image: t.arg.string({ required: true, description: 'A base64-encoded PNG, JPEG or WebP image (10 MiB at most), or an http(s) URL.' }),
      color: t.arg({ type: BrandingColor, required: true }),
    },
    resolve: async (_query, _root, args, ctx) => (await branding.setBranding(ctx, given(args))).exam,
  }),
  deleteExamBranding: t.prismaField({
    type: 'Exam',
    description: 'Removes the branding of an exam.',
    args: { exam: examArg(t) },
    resolve: async (_query, _root, args, ctx) => (await branding.deleteBranding(ctx, args)).exam,
  }),
  addExamUsers: t.prismaField({
    type: 'Exam',
    description: 'Adds examinees: users the caller may read (control permission on the exam).',
    args: { exam: examArg(t), users: t.arg.idList({ required: true }) },
    resolve: async (_query, _root, args, ctx) => (await examinees.addExamUsers(ctx, args)).exam,
  }),
  removeExamUsers: t.prismaField({
    type: 'Exam',
    description: 'Removes examinees; their results stay.',
    args: { exam: examArg(t), users: t.arg.idList({ required: true }) },
    resolve: async (_query, _root, args, ctx) => (await examinees.removeExamUsers(ctx, args)).exam,
  }),
  setExamSummary: t.prismaField({
    type: 'Exam',
    description: mirrorDescription('Stores the summary of an exam in a language (POST exam:summary), replacing an earlier one.', 'POST exam:summary'),
    args: {
      exam: examArg(t),
      language: t.arg.string({ description: "An active language; default the exam's." }),
      summary: t.arg.string({ required: true, description: 'Short text in basic HTML; should avoid personal information.' }),
      llm: t.arg.string({ description: 'The language model used.' }),
      model: t.arg.string({ description: 'The exact model name; needs llm.' }),
    },
    resolve: async (_query, _root, args, ctx) => (await summaries.setSummary(ctx, given(args))).exam,
  }),
}));
