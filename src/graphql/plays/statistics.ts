import { builder } from '../builder.ts';
import { QuestionType } from '../questions/question.type.ts';
import * as statistics from '../../services/plays/statistics.service.ts';

/** Item analysis on the exam and the Quiz set (report permission); the definitions live in the descriptions. */

/** A figure: a Float, null where its definition is not defined. */
const figure = (description: string) => ({ nullable: true, description }) as const;

const AttemptsEnum = builder.enumType('StatisticsAttempts', {
  values: {
    FIRST: { description: "Each examinee's first finished attempt (the default)." },
    LAST: { description: "Each examinee's last finished attempt." },
    ALL: { description: 'Every finished attempt, each counted as a separate examinee.' },
  } as const,
  description: 'Which finished results of an examinee the statistics count.',
});

const FlagEnum = builder.enumType('QuestionStatisticsFlag', {
  values: {
    VERY_EASY: { description: 'facilityIndex > 90.' },
    VERY_HARD: { description: 'facilityIndex < 10.' },
    POOR_DISCRIMINATION: { description: 'discriminationIndex < 20 (negative ones included).' },
    NEGATIVE_DISCRIMINATION: { description: 'discriminationIndex < 0: better examinees did worse on this question.' },
  } as const,
  description: 'Why a question may need review (flags compare the rounded figures).',
});

const LeftOutType = builder.objectRef<statistics.ResultStatistics['leftOut']>('StatisticsLeftOut').implement({
  description: 'Finished results of the chosen attempts that the figures leave out, by reason.',
  fields: (t) => ({
    awaitingGrading: t.exposeInt('awaitingGrading', {
      description: 'Results with an answer awaiting a person\'s grading (free text, file, hotspot): they count once graded.',
    }),
    withoutPoints: t.exposeInt('withoutPoints', {
      description: 'Results without a question worth points (a questionless exam, only reading questions): they have no score.',
    }),
  }),
});

const OptionType = builder.objectRef<statistics.OptionStatistics>('OptionStatistics').implement({
  description: 'An item of a choice or multiple-choice question and how many chose it (distractor analysis).',
  fields: (t) => ({
    text: t.exposeString('text', { description: 'The item as the question holds it.' }),
    correct: t.exposeBoolean('correct', { description: 'It is one of the answers (false: a distractor).' }),
    chosen: t.exposeInt('chosen', { description: 'Counted results whose response selected it (read as the answer checker reads responses).' }),
  }),
});

const QuestionStatisticsType = builder.objectRef<statistics.QuestionStatistics>('QuestionStatistics').implement({
  description:
    'Figures of one question over the counted results that asked it. p: the points of a result on the question, ' +
    'm: its maximum (an unanswered question scores 0 of its maximum), P: the result\'s total points. Percentages, rounded to 4 decimals.',
  fields: (t) => ({
    question: t.field({ type: QuestionType, description: 'The question.', resolve: (s) => s.question }),
    results: t.exposeInt('results', { description: 'Counted results that asked the question.' }),
    answered: t.exposeInt('answered', { description: 'Of those, results with an answer to it.' }),
    facilityIndex: t.exposeFloat('facilityIndex', { description: '100 * mean(p / m): how easy the question was.' }),
    standardDeviation: t.exposeFloat('standardDeviation', figure('100 * sample standard deviation (n - 1) of p / m; null under 2 results.')),
    discriminationIndex: t.exposeFloat('discriminationIndex', figure('100 * Pearson correlation of p with the rest of the test (P - p); null when either varies not at all (or under 2 results).')),
    randomGuessScore: t.exposeFloat('randomGuessScore', figure('The facility a random guess would reach: 100 / number of items for single-answer choice questions; null for other types.')),
    options: t.field({
      type: [OptionType],
      nullable: true,
      description: 'choice and multiple-choice: every item (answers first, then options) with how many chose it; null for other types.',
      resolve: (s) => s.options,
    }),
    flags: t.field({ type: [FlagEnum], description: 'What makes the question worth a review, if anything.', resolve: (s) => s.flags }),
  }),
});

export const ResultStatisticsType = builder.objectRef<statistics.ResultStatistics>('ExamStatistics').implement({
  description:
    'Item analysis of results: test statistics and question statistics (facility, discrimination, internal consistency). ' +
    'Counted: finished, not archived results (forgotten ones included), one per examinee as `attempts` says; results awaiting grading are left out. ' +
    'S = 100 * P / M is a result\'s score in percent (P its points, M the maxima of the questions it asked; an unanswered question scores 0). ' +
    'Figures are rounded to 4 decimals; null where they are not defined.',
  fields: (t) => ({
    round: t.exposeInt('round', { nullable: true, description: 'The exam round reported; null for a Quiz set\'s practice results.' }),
    attempts: t.field({ type: AttemptsEnum, description: 'Which attempts were counted.', resolve: (s) => s.attempts }),
    results: t.exposeInt('results', { description: 'N, the counted results.' }),
    leftOut: t.field({ type: LeftOutType, description: 'Results left out, and why.', resolve: (s) => s.leftOut }),
    mean: t.exposeFloat('mean', figure('Mean of S; null without results.')),
    median: t.exposeFloat('median', figure('Median of S (the mean of the middle two for an even N); null without results.')),
    standardDeviation: t.exposeFloat('standardDeviation', figure('Sample standard deviation (n - 1) of S; null under 2 results.')),
    skewness: t.exposeFloat('skewness', figure('n / ((n-1)(n-2)) * sum(((S - mean) / sd)^3); null under 3 results or when sd is 0.')),
    kurtosis: t.exposeFloat('kurtosis', figure('Excess kurtosis: n(n+1) / ((n-1)(n-2)(n-3)) * sum(((S - mean) / sd)^4) - 3(n-1)^2 / ((n-2)(n-3)); null under 4 results or when sd is 0.')),
    cronbachAlpha: t.exposeFloat('cronbachAlpha', figure("Cronbach's alpha (coefficient of internal consistency): k / (k-1) * (1 - sum of var(p_j) / var(P)), k questions, sample variances of the points; " +
        'null under 2 questions or when var(P) is 0. A fraction (0.85), not a percentage.')),
    errorRatio: t.exposeFloat('errorRatio', figure('100 * sqrt(1 - alpha); null when alpha is null or negative.')),
    standardError: t.exposeFloat('standardError', figure('errorRatio / 100 * standardDeviation: the standard error of measurement, in points of S.')),
    questions: t.field({
      type: [QuestionStatisticsType],
      description: "Each question asked in a counted result, in the Quiz set's order (then any question no longer in it).",
      resolve: (s) => s.questions,
    }),
  }),
});

builder.prismaObjectFields('Exam', (t) => ({
  statistics: t.field({
    type: ResultStatisticsType,
    nullable: true,
    description: "Item analysis of a round's results (report permission on the exam; null with the error otherwise).",
    args: {
      round: t.arg.int({ description: 'The round; default the current one.' }),
      attempts: t.arg({ type: AttemptsEnum, defaultValue: 'FIRST', description: 'Which attempts count.' }),
    },
    resolve: (exam, args, ctx) => statistics.examStatistics(ctx, exam, args),
  }),
}));

builder.prismaObjectFields('QuizSet', (t) => ({
  statistics: t.field({
    type: ResultStatisticsType,
    nullable: true,
    description: 'Item analysis of its practice results, outside exams (report permission on the Quiz set; null with the error otherwise).',
    args: { attempts: t.arg({ type: AttemptsEnum, defaultValue: 'FIRST', description: 'Which attempts count.' }) },
    resolve: (quiz, args, ctx) => statistics.quizSetStatistics(ctx, quiz, args),
  }),
}));
