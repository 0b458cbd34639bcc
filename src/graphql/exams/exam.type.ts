import { resolveArrayConnection } from '@pothos/plugin-relay';
import type { Exam, ExamBranding, ExamSummary } from '../../generated/prisma/client.ts';
import { builder } from '../builder.ts';
import { SkillType } from '../questions/question.type.ts';
import { UserType } from '../users/user.type.ts';
import { viewableExamsWhere } from '../../services/exams/access.ts';
import * as exams from '../../services/exams/exams.service.ts';
import * as status from '../../services/exams/status.service.ts';
import * as rounds from '../../services/exams/rounds.service.ts';
import * as examinees from '../../services/exams/users.service.ts';
import { brandingsOf } from '../../services/exams/branding.service.ts';
import { summariesOf } from '../../services/exams/summaries.service.ts';
import { examStatuses } from '../../services/exams/status.ts';
import { brandingColors, brandingTypes, examTypes } from '../../services/exams/exams.schemas.ts';
import { mirrorDescription } from '../operation-prose.ts';

export const ExamKind = builder.enumType('ExamType', {
  values: examTypes,
  description: 'exam; championship; homework (can be paused and continued in the exam period); survey (no grading, may be anonymous).',
});
export const ExamStatusEnum = builder.enumType('ExamStatus', {
  values: examStatuses,
  description: 'INACTIVE: before the start or switched off; ACTIVE: new tests can start; PAUSED: active, new tests cannot start; REVIEW: active, in its results viewing period; EXPIRED: after the end.',
});
export const BrandingKind = builder.enumType('ExamBrandingType', { values: brandingTypes, description: 'foreground: logo; background: cover.' });
export const BrandingColor = builder.enumType('ExamBrandingColor', { values: brandingColors, description: 'Colour of the branding.' });

const ExamStateType = builder.objectRef<status.ExamStatusView>('ExamState').implement({
  description: mirrorDescription('The derived status of an exam with its counts (GET exam:status).', 'GET exam:status'),
  fields: (t) => ({
    status: t.field({ type: ExamStatusEnum, description: 'The derived status.', resolve: (s) => s.status }),
    active: t.exposeBoolean('active', { description: 'ACTIVE, PAUSED or REVIEW.' }),
    paused: t.exposeBoolean('paused', { description: 'New tests cannot start: tests are paused or the deadline has passed.' }),
    round: t.exposeInt('round', { description: 'The current round.' }),
    users: t.exposeInt('users', { description: 'Examinees on the exam.' }),
    started: t.exposeInt('started', { description: 'Current (not archived) results of every round.' }),
    finished: t.exposeInt('finished', { description: 'Finished current results.' }),
    archived: t.exposeInt('archived', { description: 'Archived results.' }),
  }),
});

const RoundType = builder.objectRef<rounds.RoundView>('ExamRound').implement({
  description: 'A round of an exam.',
  fields: (t) => ({
    round: t.exposeInt('round', { description: 'Its number, from 1.' }),
    start: t.expose('start', { type: 'DateTime', description: 'When it began.' }),
    end: t.expose('end', { type: 'DateTime', nullable: true, description: 'When it was closed; null for the current round.' }),
    results: t.exposeInt('results', { description: 'Current (not archived) results played in it.' }),
  }),
});

const RoundsType = builder.objectRef<rounds.RoundsView>('ExamRounds').implement({
  description: mirrorDescription('The rounds of an exam (GET exam:round).', 'GET exam:round'),
  fields: (t) => ({
    current: t.field({ type: RoundType, description: 'The current round.', resolve: (r) => r.current }),
    frozen: t.exposeBoolean('frozen', { description: 'freeze_round is on: the round cannot be closed.' }),
    closed: t.field({ type: [RoundType], description: 'Closed rounds, oldest first.', resolve: (r) => r.closed }),
  }),
});

const BrandingObject = builder.objectRef<ExamBranding>('ExamBranding').implement({
  description: 'The branding of an exam.',
  fields: (t) => ({
    type: t.field({ type: BrandingKind, description: 'How the image is used.', resolve: (b) => b.type as (typeof brandingTypes)[number] }),
    color: t.field({ type: BrandingColor, description: 'The colour.', resolve: (b) => b.color as (typeof brandingColors)[number] }),
    imageUrl: t.exposeString('imageUrl', { nullable: true, description: 'The image given as a URL; null when it was uploaded.' }),
  }),
});

const SummaryObject = builder.objectRef<ExamSummary>('ExamSummary').implement({
  description: 'A summary of an exam in one language (type ai: written by a language model).',
  fields: (t) => ({
    language: t.exposeString('language', { description: 'Its language.' }),
    type: t.exposeString('type', { description: 'ai.' }),
    summary: t.exposeString('summary', { description: 'The summary in basic HTML.' }),
    llm: t.exposeString('llm', { nullable: true, description: 'The language model used.' }),
    model: t.exposeString('model', { nullable: true, description: 'The exact model name.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last stored.' }),
  }),
});

/** An exam; readable with view permission on it. node(id) answers null for one the caller may not view. */
export const ExamType = builder.prismaNode('Exam', {
  id: { field: 'id', description: 'The identification string, the same as the `exam` of the REST contract.' },
  nullable: true,
  description: 'An exam: a time-bound run of a Quiz set with its own examinees, branding and rules.',
  findUnique: async (id, ctx) => ({ id, AND: [await viewableExamsWhere(ctx)] }),
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Title, 1-255 characters.' }),
    externalId: t.exposeString('externalId', { nullable: true, description: 'External identifier (1-64 characters).' }),
    description: t.exposeString('description', { nullable: true, description: 'Description in basic HTML.' }),
    language: t.exposeString('language', { description: 'Language code.' }),
    type: t.field({ type: ExamKind, description: 'What kind of exam.', resolve: (e) => e.type as (typeof examTypes)[number] }),
    start: t.expose('start', { type: 'DateTime', description: 'Start of the exam period.' }),
    end: t.expose('end', { type: 'DateTime', description: 'End of the exam period.' }),
    deadline: t.expose('deadline', { type: 'DateTime', nullable: true, description: 'Latest moment a test can be started; null: until the end.' }),
    enabled: t.exposeBoolean('active', { description: 'The exam is switched on (switched off it is INACTIVE).' }),
    secure: t.exposeBoolean('secure', { description: 'Can be started only with a secure exam browser.' }),
    status: t.loadable({
      type: ExamStateType,
      description: 'The derived status with its counts; loaded for every exam of a request together.',
      load: (list: Exam[], ctx) => status.statusesOf(ctx, list),
      loaderOptions: { cacheKeyFn: (e: Exam) => e.id },
      resolve: (e) => e,
    }),
    round: t.field({ type: RoundsType, description: 'Its rounds.', resolve: (e, _args, ctx) => rounds.getRounds(ctx, { exam: e.id }) }),
    skills: t.loadableList({
      type: SkillType,
      description: 'Skills of the questions of its Quiz set, once each, by title.',
      load: (list: Exam[], ctx) => exams.skillsOfExams(ctx, list),
      loaderOptions: { cacheKeyFn: (e: Exam) => e.id },
      resolve: (e) => e,
    }),
    quizSet: t.relation('quiz', { description: 'The Quiz set it runs.' }),
    organization: t.relation('organization', { nullable: true, description: 'The organization whose members hold their content level on it; null for personal content.' }),
    owner: t.relation('owner', { description: 'The owner, who holds admin on it.' }),
    users: t.connection({
      type: UserType,
      nullable: true,
      description: 'Examinees by name (report permission on the exam).',
      resolve: async (e, args, ctx) => resolveArrayConnection({ args }, await examinees.examineesFor(ctx, e)),
    }),
    branding: t.field({
      type: BrandingObject,
      nullable: true,
      description: 'Its branding; null when none.',
      resolve: async (e, _args, ctx) => (await brandingsOf(ctx, [e.id])).get(e.id) ?? null,
    }),
    summaries: t.loadableList({
      type: SummaryObject,
      description: 'Its summaries, one per language, by language.',
      load: (ids: string[], ctx) => summariesOf(ctx, ids),
      resolve: (e) => e.id,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
  }),
});

builder.queryFields((t) => ({
  exams: t.prismaConnection({
    type: 'Exam',
    cursor: 'id',
    description: 'Exams the caller may view, latest start first.',
    args: {
      search: t.arg.string({ description: 'Matches the title or the external identifier.' }),
      active: t.arg.boolean({ description: 'true: only active exams (ACTIVE, PAUSED, REVIEW); false: only the others.' }),
    },
    resolve: (query, _root, args, ctx) => exams.listExams(ctx, { search: args.search ?? undefined, active: args.active ?? undefined }, query),
  }),
}));
