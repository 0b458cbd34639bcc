import type { Question } from '../../generated/prisma/client.ts';
import { parseFreeTextRules, type CheckableQuestion, type QuestionType } from './answer-checker.ts';
import type { QuestionData } from './question-input.ts';

/**
 * A stored question as the answer checker reads it. Storage validated every field with the
 * checker's own parsers, so what was accepted is what the checker scores against.
 */
export function toCheckable(question: Pick<Question, 'type' | 'answers' | 'options' | 'data'>): CheckableQuestion {
  const d = (question.data ?? {}) as unknown as QuestionData;
  const q: CheckableQuestion = {
    type: question.type as QuestionType,
    answers: question.answers,
    options: question.options,
    answerOrder: d.answerOrder,
    answerLabels: d.answerLabel,
    answerRequire: d.answerRequire,
    decimals: d.decimals,
    tolerance: d.tolerance,
    datetimePrecision: d.datetimePrecision,
    datetimeRange: d.datetimeRange,
    truefalseThirdOption: d.truefalseThirdOption,
    truefalseThirdStatements: d.truefalseThirdStatements,
    maximumChoices: d.maximumChoices,
    freetextRules: d.freetextRules === undefined ? undefined : (parseFreeTextRules(d.freetextRules) ?? []),
    freetextCharacters: d.freetextCharacters,
    freetextWords: d.freetextWords,
    points: d.points,
  };
  for (const key of Object.keys(q) as (keyof CheckableQuestion)[]) if (q[key] === undefined) delete q[key];
  return q;
}
