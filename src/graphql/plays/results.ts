import { builder } from '../builder.ts';
import { ExamType } from '../exams/exam.type.ts';
import { given } from '../grading/grading-preset.type.ts';
import * as results from '../../services/plays/results.service.ts';
import { requestResultsExport, type ExportRequest } from '../../services/plays/results-export.ts';
import type { ResultQuestion } from '../../services/plays/result-record.ts';
import { mirrorDescription } from '../operation-prose.ts';

/** Results lists on the exam and the Quiz set (report permission); kept here so the types' own files stay theirs. */

builder.prismaObjectFields('Exam', (t) => ({
  results: t.prismaConnection({
    type: 'Play',
    cursor: 'id',
    description: 'Its results (report permission), oldest first; archived ones only with archived: true.',
    args: {
      round: t.arg.int({ description: 'Only this round.' }),
      archived: t.arg.boolean({ description: 'true: only archived results; default false: current ones.' }),
      user: t.arg.id({ description: 'Only this user\'s.' }),
    },
    resolve: (query, exam, args, ctx) => results.examResults(ctx, exam, args, query),
  }),
}));

builder.prismaObjectFields('QuizSet', (t) => ({
  results: t.prismaConnection({
    type: 'Play',
    cursor: 'id',
    description: 'Its practice results (report permission), oldest first.',
    args: { user: t.arg.id({ description: 'Only this user\'s.' }) },
    resolve: (query, quiz, args, ctx) => results.quizResults(ctx, quiz, args, query),
  }),
}));

const ResultQuestionType = builder.objectRef<ResultQuestion>('ResultQuestion').implement({
  description: 'A question of a play as its result shows it, answered or not (the `questions` of REST quiz:results:play).',
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'Position in the play, from 1.' }),
    question: t.exposeID('question', { description: "The question's identification string." }),
    externalId: t.exposeString('id', { description: "The question's external identifier." }),
    timeAnswer: t.float({ nullable: true, description: 'Seconds to the answer (as PlayAnswer.timeAnswer); null when it has none (not answered).', resolve: (q) => q.time_answer ?? null }),
    pointsMaximum: t.exposeFloat('points_maximum', { description: "The question's points: as scored for an answer, else its current maximum (reading questions 0)." }),
    points: t.exposeFloat('points', { description: 'Points scored; 0 until scored and for an unanswered question.' }),
  }),
});

builder.prismaObjectFields('Play', (t) => ({
  resultQuestions: t.field({
    type: [ResultQuestionType],
    description: 'Each question of the play in its order with its maximum and points, unanswered ones included (REST quiz:results:play `questions`).',
    select: { answers: true },
    resolve: (play, _args, ctx) => results.playResultQuestions(ctx, play),
  }),
}));

const RemovedResultType = builder.objectRef<{ play: string; archived?: boolean; forgotten?: boolean }>('RemovedResult').implement({
  description: 'What removeResult did (REST DELETE quiz:results:play).',
  fields: (t) => ({
    play: t.exposeID('play', { description: "The result's identification string." }),
    archived: t.boolean({ description: 'An exam result was archived: kept, left out of lists and reports.', resolve: (r) => r.archived ?? false }),
    forgotten: t.boolean({ description: 'A practice result was forgotten: detached from its user, kept for statistics.', resolve: (r) => r.forgotten ?? false }),
  }),
});

const ResultsExportType = builder.objectRef<ExportRequest>('ResultsExport').implement({
  description: 'A link to an export of exam results (REST POST exam:results:export): the file is written when the link is first read.',
  fields: (t) => ({
    exam: t.field({ type: ExamType, description: 'The exam.', resolve: (r) => r.exam }),
    format: t.exposeString('format', { description: 'csv or xlsx.' }),
    url: t.exposeString('url', { description: 'The link, readable once without credentials, `BASE_URL/exports/<token>`.' }),
    valid: t.expose('valid', { type: 'DateTime', description: 'The link works until this moment (one hour).' }),
  }),
});

const RequestResultsExportInput = builder.inputType('RequestResultsExportInput', {
  description: mirrorDescription('What to export, with the rules of POST exam:results:export.', 'POST exam:results:export'),
  fields: (t) => ({
    exam: t.id({ required: true, description: 'The exam (report permission).' }),
    format: t.string({ description: "csv or xlsx; default the exam's export format setting." }),
    preset: t.string({ description: 'default, or answers (anonymous surveys only).' }),
    sort: t.string({ description: "default or name; default the exam's export sort setting." }),
    round: t.int({ description: 'A closed round; default the current one. Not with filters.' }),
    filters: t.field({ type: 'JSONObject', description: 'Label of a select field with filtering -> an option or a list of options.' }),
    language: t.string({ description: 'Language of the headers; default the language of the call.' }),
  }),
});

builder.mutationFields((t) => ({
  removeResult: t.field({
    type: RemovedResultType,
    description:
      "Archives an exam result (control on the exam, its `archive` setting on, only the user's current result) or forgets a practice result (administrators); REST DELETE quiz:results:play.",
    args: { play: t.arg.id({ required: true, description: 'The result.' }) },
    resolve: (_root, args, ctx) => results.deletePlayResult(ctx, args),
  }),
  requestResultsExport: t.field({
    type: ResultsExportType,
    description: 'A one-time link to a CSV or XLSX file of the exam results (report permission); the permissions apply again when it is read.',
    args: { input: t.arg({ type: RequestResultsExportInput, required: true }) },
    resolve: (_root, { input }, ctx) => requestResultsExport(ctx, given(input)),
  }),
}));

builder.queryFields((t) => ({
  myPlays: t.prismaConnection({
    type: 'Play',
    cursor: 'id',
    description: "The caller's own plays (exams and practice), newest first.",
    resolve: (query, _root, _args, ctx) => results.ownPlays(ctx, query),
  }),
}));

builder.subscriptionFields((t) => ({
  examResultFinished: t.prismaField({
    type: 'Play',
    description:
      'Each play of the exam as it finishes (or an educator grades it), for live dashboards: report permission on the exam. ' +
      'Over server-sent events (Accept: text/event-stream); with Redis configured, plays finished on any instance arrive.',
    args: { exam: t.arg.id({ required: true }) },
    subscribe: (_root, args, ctx) => results.watchExamResults(ctx, args.exam),
    resolve: (query, event: { play: string }, _args, ctx) => results.announcedPlay(ctx, event.play, query),
  }),
}));
