import { builder } from '../builder.ts';
import * as plays from '../../services/plays/plays.service.ts';
import { given } from '../grading/grading-preset.type.ts';

const StartPlayInput = builder.inputType('StartPlayInput', {
  description: 'Exactly one of exam (a play of an exam the caller is an examinee of) and quiz (a practice play of a Quiz set it may view).',
  isOneOf: true,
  fields: (t) => ({
    exam: t.id({ description: 'The exam.' }),
    quiz: t.id({ description: 'The Quiz set.' }),
  }),
});

const AnswerQuestionInput = builder.inputType('AnswerQuestionInput', {
  description: 'The response to one question of the caller\'s open play; a new one replaces the last (TEST mode).',
  fields: (t) => ({
    play: t.id({ required: true, description: 'The play.' }),
    question: t.id({ required: true, description: 'A question of the play.' }),
    response: t.field({ type: 'JSON', required: true, description: 'The answer checker\'s shapes: a string (generic, text, numerical, …) or a list (multiple-choice, order, pairing, …).' }),
    hints: t.int({ description: 'Hints shown before answering (practice plays only; their penalty applies).' }),
    solutionSteps: t.int({ description: 'Solution steps shown before answering (practice plays only; their penalty applies).' }),
  }),
});

const FinishPlayInput = builder.inputType('FinishPlayInput', {
  description: 'The caller\'s open play to finish.',
  fields: (t) => ({ play: t.id({ required: true, description: 'The play.' }) }),
});

const GradeAnswerInput = builder.inputType('GradeAnswerInput', {
  description: 'Points for an answer of a finished play (control on the exam, or modify on the Quiz set of a practice play).',
  fields: (t) => ({
    play: t.id({ required: true, description: 'The play.' }),
    question: t.id({ required: true, description: 'The question answered.' }),
    points: t.float({ required: true, description: 'From 0 to the question\'s maximum.' }),
  }),
});

builder.mutationFields((t) => ({
  startPlay: t.prismaField({
    type: 'Play',
    description: 'Starts a play for the caller (or assumed user), or continues its open play of the exam (Quiz set).',
    args: { input: t.arg({ type: StartPlayInput, required: true }) },
    resolve: (query, _root, { input }, ctx) => plays.startPlay(ctx, given(input), query),
  }),
  answerQuestion: t.prismaField({
    type: 'PlayAnswer',
    description: 'Records (or replaces) the response to one question of the caller\'s open play.',
    args: { input: t.arg({ type: AnswerQuestionInput, required: true }) },
    // The answer row is all a PlayAnswer has (it exposes no relations).
    resolve: (_query, _root, { input }, ctx) => plays.answerQuestion(ctx, given(input)),
  }),
  finishPlay: t.prismaField({
    type: 'Play',
    description: 'Finishes the caller\'s open play: every answer is scored; free-text, file and hotspot answers wait for gradeAnswer.',
    args: { input: t.arg({ type: FinishPlayInput, required: true }) },
    resolve: (query, _root, { input }, ctx) => plays.finishPlay(ctx, given(input), query),
  }),
  gradeAnswer: t.prismaField({
    type: 'PlayAnswer',
    description: 'An educator\'s points for an answer; the play\'s totals, grade and validity follow.',
    args: { input: t.arg({ type: GradeAnswerInput, required: true }) },
    resolve: (query, _root, { input }, ctx) => plays.gradeAnswer(ctx, given(input), query),
  }),
}));
