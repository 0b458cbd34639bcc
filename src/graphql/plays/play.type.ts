import { builder } from '../builder.ts';
import { isValid } from '../../services/plays/result-record.ts';
import { readablePlaysWhere } from '../../services/plays/play-access.ts';
import { playQuestions } from '../../services/plays/results.service.ts';

interface QuestionShown {
  id: string;
  content: string;
  type: string;
  choices: string[] | null;
}

const PlayQuestionContent = builder.objectRef<QuestionShown>('PlayQuestionContent');
PlayQuestionContent.implement({
  description: 'A question as the player shows it (never its answers).',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The question's identification string (answerQuestion takes it)." }),
    content: t.exposeString('content', { description: 'The question text.' }),
    type: t.exposeString('type', { description: 'The question type (generic, choice, multiple-choice, free-text, …).' }),
    choices: t.exposeStringList('choices', {
      nullable: true,
      description: 'choice, multiple-choice, true/false: answers and options mixed; order: the items to arrange; in an order fixed per play. Null for other types.',
    }),
  }),
});

const PlayQuestion = builder.objectRef<{ index: number; question: QuestionShown }>('PlayQuestion');
PlayQuestion.implement({
  description: 'A question of a play at its place.',
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'Position in the play, from 1.' }),
    question: t.field({ type: PlayQuestionContent, description: 'The question.', resolve: (q) => q.question }),
  }),
});

export const PlayAnswerType = builder.prismaObject('PlayAnswer', {
  description: 'The response to one question of a play and its score.',
  fields: (t) => ({
    question: t.exposeID('questionId', { description: 'The question\'s identification string.' }),
    index: t.exposeInt('index', { description: 'Position of the question in the play, from 1.' }),
    response: t.expose('response', { type: 'JSON', description: 'The response as recorded.' }),
    hints: t.exposeInt('hints', { description: 'Hints shown before answering (practice plays).' }),
    solutionSteps: t.exposeInt('solutionSteps', { description: 'Solution steps shown before answering (practice plays).' }),
    timeAnswer: t.exposeFloat('timeAnswer', { nullable: true, description: 'Seconds: TURNS from the question being shown, TEST from the start of the play.' }),
    points: t.exposeFloat('points', { nullable: true, description: 'Points scored (hint and solution penalties applied); null until the play is finished.' }),
    pointsMaximum: t.exposeFloat('pointsMaximum', { description: 'The question\'s points (default 1).' }),
    evaluated: t.exposeBoolean('evaluated', { description: 'Scored, or graded by an educator; free-text, file and hotspot answers wait for gradeAnswer.' }),
  }),
});

const PlayResultType = builder.objectRef<{ questionsTotal: number; questionsCorrect: number; pointsTotal: number; pointsCorrect: number; valid: boolean; successful: boolean | null; grade: string | null }>('PlayResult');
PlayResultType.implement({
  description: 'The result of a finished play (the contract\'s Quiz play result).',
  fields: (t) => ({
    questionsTotal: t.exposeInt('questionsTotal', { description: 'Scored questions (reading questions are not).' }),
    questionsCorrect: t.exposeInt('questionsCorrect', { description: 'Questions with full points.' }),
    pointsTotal: t.exposeFloat('pointsTotal', { description: 'Sum of the maxima.' }),
    pointsCorrect: t.exposeFloat('pointsCorrect', { description: 'Sum of the points scored.' }),
    valid: t.exposeBoolean('valid', { description: 'Finished, every question evaluated, not archived.' }),
    successful: t.exposeBoolean('successful', { nullable: true, description: 'Passed by the grading preset; null when the grading decides nothing or answers await review.' }),
    grade: t.exposeString('grade', { nullable: true, description: 'The grade of the preset; null without a preset or while answers await review.' }),
  }),
});

/** A play; readable by its user and by whoever holds report on its exam (its Quiz set for practice). */
export const PlayType = builder.prismaNode('Play', {
  id: { field: 'id', description: 'The identification string: the contract\'s `play`.' },
  nullable: true,
  description: 'A play of a Quiz set: in an exam (a result of it) or practice.',
  findUnique: async (id, ctx) => ({ id, AND: [await readablePlaysWhere(ctx)] }),
  fields: (t) => ({
    exam: t.relation('exam', { nullable: true, description: 'The exam; null for a practice play.' }),
    quiz: t.relation('quiz', { description: 'The Quiz set played.' }),
    user: t.relation('user', { nullable: true, description: 'The user; null once a practice result is forgotten.' }),
    status: t.exposeString('status', { description: 'open or finished.' }),
    round: t.exposeInt('round', { description: 'The exam round it was played in (1 outside exams).' }),
    attempt: t.exposeInt('attempt', { description: 'Index of the attempt of the user in this exam round (or Quiz set), from 1.' }),
    archived: t.exposeBoolean('archived', { description: 'An archived exam result (kept, left out of lists).' }),
    timeStart: t.expose('timeStart', { type: 'DateTime', description: 'When it started.' }),
    timeEnd: t.expose('timeEnd', { type: 'DateTime', nullable: true, description: 'When it finished; null while open.' }),
    deadline: t.expose('deadline', { type: 'DateTime', nullable: true, description: 'When it closes while open: its time limit, or the end of the exam period; null: never.' }),
    questions: t.field({
      type: [PlayQuestion],
      description: 'Its questions in the play\'s order (fixed at the start).',
      resolve: (play, _args, ctx) => playQuestions(ctx, play),
    }),
    answers: t.relation('answers', { description: 'Its answers in the order of its questions.', query: { orderBy: { index: 'asc' } } }),
    result: t.field({
      type: PlayResultType,
      nullable: true,
      description: 'The result; null while the play is open.',
      resolve: (play) => (play.status === 'finished' ? { ...play, valid: isValid(play) } : null),
    }),
  }),
});
