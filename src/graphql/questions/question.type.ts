import { builder } from '../builder.ts';
import { given } from '../grading/grading-preset.type.ts';
import type { Question } from '../../generated/prisma/client.ts';
import * as questions from '../../services/questions/questions.service.ts';
import * as access from '../../services/questions/access.ts';
import * as skills from '../../services/questions/skills.service.ts';
import { formatTolerance } from '../../services/questions/export.ts';
import type { Parameter, QuestionData } from '../../services/questions/question-input.ts';
import type { Penalty } from '../../services/questions/questions.schemas.ts';

const dataOf = (q: Question) => q.data as unknown as QuestionData;

/** A skill: what questions train. Readable by its owner and instance administrators. */
export const SkillType = builder.prismaNode('Skill', {
  id: { field: 'id', description: 'The identification string.' },
  nullable: true,
  description: 'A skill questions train; the contract lists those of a Quiz set or exam (`quiz:skills`, `exam:skills`).',
  findUnique: (id, ctx) => ({ id, AND: [skills.visibleSkillsWhere(ctx)] }),
  fields: (t) => ({
    identifier: t.exposeString('identifier', { description: 'Identifier, unique among the skills of its owner.' }),
    title: t.exposeString('title', { description: 'Title, 1-255 characters.' }),
    description: t.exposeString('description', { nullable: true, description: 'Description; null when unset.' }),
    owner: t.relation('owner', { description: 'The user who created the skill.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
  }),
});

const PenaltyType = builder.objectRef<Penalty>('QuestionPenalty').implement({
  description: 'What showing hints (or solution steps) costs: `<MODE>:<percent>` of POST question.',
  fields: (t) => ({
    mode: t.exposeString('mode', { description: 'EACH: the percent is taken off for every one shown; ONCE: once, when the first is shown.' }),
    percent: t.exposeFloat('percent', { description: 'Percent of the points of the question, 0-100.' }),
  }),
});

const ParameterType = builder.objectRef<Parameter>('QuestionParameter').implement({
  description: 'A template parameter `{name; TYPE; min; max}`: `{name}` in the text becomes a random value in [min, max].',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Name used as `{name}` in the question text.' }),
    type: t.exposeString('type', { description: 'INT (whole numbers) or FLOAT.' }),
    min: t.exposeFloat('min', { description: 'Smallest value.' }),
    max: t.exposeFloat('max', { description: 'Largest value.' }),
  }),
});

interface MediaRecord {
  field: string;
  filename: string;
  contentType: string | null;
  size: number | null;
  sha256: string | null;
  url: string | null;
}

const MediaType = builder.objectRef<MediaRecord>('QuestionMedia').implement({
  description: 'A media field of a question: an uploaded file stored by the service, or a URL kept as a reference.',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'The POST question field, in camelCase: image, solutionImage, attachment, mediaAudio, mediaVideo, video, graph or hotspotImage.' }),
    filename: t.exposeString('filename', { description: 'File name as given.' }),
    contentType: t.exposeString('contentType', { nullable: true, description: 'Type found in the content (image/png, audio/mpeg, …); null for a URL.' }),
    size: t.exposeInt('size', { nullable: true, description: 'Bytes; null for a URL.' }),
    sha256: t.exposeString('sha256', { nullable: true, description: 'SHA-256 of the content (hex); null for a URL.' }),
    url: t.exposeString('url', { nullable: true, description: 'The URL given instead of content (never fetched); null for an upload.' }),
  }),
});

const text = (description: string, read: (d: QuestionData) => string | undefined) =>
  ({ nullable: true as const, description, resolve: (q: Question) => read(dataOf(q)) ?? null });
const list = (description: string, read: (d: QuestionData) => string[] | undefined) => ({ description, resolve: (q: Question) => read(dataOf(q)) ?? [] });

/** A question of the question base. Readable with view permission (see the questions service). */
export const QuestionType = builder.prismaNode('Question', {
  id: { field: 'id', description: 'The identification string, the same as in the REST contract.' },
  nullable: true,
  description: 'A question of any of the 20 types, with every field of POST question.',
  findUnique: async (id, ctx) => ({ id, AND: [await access.visibleQuestionsWhere(ctx)] }),
  fields: (t) => ({
    externalId: t.exposeString('externalId', { description: 'External identifier (1-64 characters), unique in its folder or Quiz set.' }),
    path: t.string({ nullable: true, description: 'The folder of its owner; null for a question of a Quiz set.', resolve: (q) => (access.quizOfScope(q.scope) ? null : q.path) }),
    quizId: t.id({ nullable: true, description: 'The Quiz set whose scope it belongs to; null for a question in a folder.', resolve: (q) => access.quizOfScope(q.scope) }),
    type: t.exposeString('type', { description: 'One of the 20 question types (generic, text, numerical, date/time, …).' }),
    content: t.exposeString('content', { description: 'The question text.' }),
    answers: t.exposeStringList('answers', { description: 'Answers or true statements (pairs as a>>>b, matrices as [..;..|..]).' }),
    options: t.exposeStringList('options', { description: 'Incorrect options or false statements.' }),
    difficulty: t.exposeInt('difficulty', { description: '0 unclassified, 1 very easy to 5 very difficult.' }),
    active: t.exposeBoolean('active', { description: 'Active (the REST `active`).' }),
    questionFormat: t.string({ description: 'NORMAL, LATEX or LONG.', resolve: (q) => dataOf(q).questionFormat ?? 'NORMAL' }),
    subject: t.string(text('Subject.', (d) => d.subject)),
    category: t.string(text('Category.', (d) => d.category)),
    mainCategory: t.string(text('Main category.', (d) => d.mainCategory)),
    source: t.string(text('Attribution.', (d) => d.source)),
    note: t.string(text('Shown to test takers below the question.', (d) => d.note)),
    privateNote: t.string(text('Hidden from test takers.', (d) => d.privateNote)),
    explanation: t.string(text('Shown under the answer on the results page.', (d) => d.explanation)),
    hints: t.stringList(list('Hints, shown one at a time.', (d) => d.hint)),
    solution: t.stringList(list('Solution steps.', (d) => d.solution)),
    labels: t.stringList(list('Instance-level labels.', (d) => d.label)),
    tagIds: t.idList(list('Identification strings of its tags.', (d) => d.tags)),
    ai: t.boolean({ description: 'Marked as AI generated.', resolve: (q) => dataOf(q).ai === true }),
    points: t.float({ nullable: true, description: 'Full points; null: the default, 1.', resolve: (q) => dataOf(q).points ?? null }),
    decimals: t.int({ nullable: true, description: 'Decimals compared (numerical, expression, matrix, matrix:expression, set); null for other types.', resolve: (q) => dataOf(q).decimals ?? null }),
    tolerance: t.string({
      nullable: true,
      description: 'Numerical tolerance as `<TYPE>:<value>` (RELATIVE as a fraction); null when unset.',
      resolve: (q) => (dataOf(q).tolerance ? formatTolerance(dataOf(q).tolerance!) : null),
    }),
    datetimePrecision: t.string(text('YEAR, MONTH or DAY (date/time only).', (d) => d.datetimePrecision)),
    hintPenalty: t.field({ type: PenaltyType, nullable: true, description: 'Cost of hints.', resolve: (q) => dataOf(q).hintPenalty ?? null }),
    solutionPenalty: t.field({ type: PenaltyType, nullable: true, description: 'Cost of the solution.', resolve: (q) => dataOf(q).solutionPenalty ?? null }),
    parameters: t.field({ type: [ParameterType], description: 'Template parameters.', resolve: (q) => dataOf(q).parameters ?? [] }),
    data: t.field({
      type: 'JSONObject',
      description: 'Every stored field besides the columns, normalized, by contract name in camelCase (answerRequire, optionsFix, tolerance in parsed form, …).',
      resolve: (q) => dataOf(q) as unknown as Record<string, unknown>,
    }),
    media: t.field({
      type: [MediaType],
      description: 'Media fields: uploaded files and URL references, by field.',
      select: { media: { select: { field: true, file: { select: { filename: true, contentType: true, size: true, sha256: true } } } } },
      resolve: (q) =>
        [
          ...q.media.map((m) => ({ field: m.field, ...m.file, url: null })),
          ...Object.entries(dataOf(q).mediaLinks ?? {}).map(([field, l]) => ({ field, filename: l.filename, url: l.url, contentType: null, size: null, sha256: null })),
        ].sort((a, b) => a.field.localeCompare(b.field)),
    }),
    skills: t.field({
      type: [SkillType],
      description: 'Skills the question trains, by identifier.',
      select: { skills: { select: { skill: true } } },
      resolve: (q) => q.skills.map((s) => s.skill).sort((a, b) => a.identifier.localeCompare(b.identifier)),
    }),
    owner: t.relation('owner', { description: 'The user who created the question.' }),
    organization: t.relation('organization', { nullable: true, description: 'Its organization, whose members view it through their content level; null when none.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last written.' }),
  }),
});

builder.queryFields((t) => ({
  questions: t.prismaConnection({
    type: 'Question',
    cursor: 'id',
    description: 'Questions the caller may view (its own, its organizations’, those in Quiz sets it may view), oldest first.',
    args: { search: t.arg.string({ description: 'Matches the external identifier or the text.' }) },
    resolve: (query, _root, args, ctx) => questions.listQuestions(ctx, { search: args.search ?? undefined }, query),
  }),
  question: t.prismaField({
    type: 'Question',
    description: 'One question by identification string.',
    args: { id: t.arg.id({ required: true, description: 'The identification string.' }) },
    resolve: (query, _root, args, ctx) => access.findQuestion(ctx, args.id, 'question:read', 'id', query),
  }),
  questionByExternalId: t.prismaField({
    type: 'Question',
    description:
      'One question by external id, as REST GET question finds it: in the Quiz set `quiz`, in the caller\'s folder `path`, or with neither ' +
      'wherever the caller keeps questions (its folders and the Quiz sets it may view); an id found in several of those is AMBIGUOUS_ID.',
    args: {
      id: t.arg.string({ required: true, description: 'The external identifier.' }),
      quiz: t.arg.id({ description: 'The Quiz set holding it.' }),
      path: t.arg.string({ description: "The caller's folder holding it." }),
    },
    resolve: (query, _root, args, ctx) => questions.getQuestion(ctx, given(args), query),
  }),
  skills: t.prismaField({
    type: ['Skill'],
    description: 'The caller’s skills (administrators: all), by identifier.',
    resolve: (query, _root, _args, ctx) => skills.listSkills(ctx, query),
  }),
}));
