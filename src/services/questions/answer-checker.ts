/**
 * The answer checker: scores what a test taker submitted for a question of any type. Pure: no
 * database, no clock, no randomness that varies between calls, and it never throws (a response
 * it cannot read scores 0 with reason 'malformed').
 *
 * Grading per type:
 * - auto: generic, text, numerical, date/time, expression, choice, multiple-choice, order,
 *   grouping, pairing, matrix:generic, matrix, matrix:expression, set, set:text, true/false.
 *   correct is true exactly when score is 1.
 * - semi-automatic: free-text; keyword rules give a provisional score, correct is null until a
 *   person reviews it.
 * - manual: file, hotspot; score 0 and correct null until a person scores them.
 * - none: reading; not scored (score 0, correct null, pointsMaximum 0) whatever the response.
 * An empty response (nothing given, blank text, only empty entries or unmarked statements) scores
 * 0 with correct false for every scored type, free-text, file and hotspot included: there is
 * nothing to review.
 *
 * Partial credit: most types count units (inputs, selections, statements, pairs, items, elements,
 * cells), score = min(right units, required) / required, with answer_require as `required` where
 * the contract allows it (not choice, not free-text). The rules of each type are documented beside
 * its scorer under ./checker/. Hint and solution penalties are the exam's concern, not the
 * checker's.
 */

import { checkMatrix, checkSet } from './checker/collections.ts';
import { checkFreeText } from './checker/freetext.ts';
import { isEmptyResponse, parsePairs } from './checker/lists.ts';
import { zero, type Outcome } from './checker/outcome.ts';
import { checkChoice, checkGrouping, checkMultipleChoice, checkOrder, checkPairing, checkTrueFalse } from './checker/selection.ts';
import { sameExact, sameText } from './checker/text.ts';
import { checkDate, checkExpression, checkNumerical, checkStrings } from './checker/values.ts';
import type { CheckableQuestion, CheckResult, Grading, Response } from './checker/types.ts';

export type * from './checker/types.ts';
export { QUESTION_TYPES, TOLERANCE_TYPES } from './checker/types.ts';
export { parseNumber, parseValue, parseTolerance, roundTo, numberMatches, DEFAULT_DECIMALS, type ParsedNumber } from './checker/numbers.ts';
export { parseMatrix, parseSet } from './checker/matrix.ts';
export { splitList, parsePairs, parsePair } from './checker/lists.ts';
export { parseDate, parseDateRange, type DateParts } from './checker/datetime.ts';
export { parseExpression, evaluateExpression, expressionsEquivalent, type Expr } from './checker/expression.ts';
export { parseFreeTextRules } from './checker/freetext.ts';
export { exactKey, textKey } from './checker/text.ts';

/** Types whose score needs at least one answer; the others can do without. */
const NEED_NO_ANSWER = new Set(['true/false', 'free-text', 'file', 'hotspot', 'reading']);

function maximum(q: CheckableQuestion): number {
  return typeof q.points === 'number' && Number.isFinite(q.points) && q.points >= 0 ? q.points : 1;
}

function result(q: CheckableQuestion, grading: Grading, outcome: Outcome): CheckResult {
  let score = Number.isFinite(outcome.score) ? Math.min(1, Math.max(0, outcome.score)) : 0;
  if (score > 1 - 1e-9) score = 1;
  const pointsMaximum = maximum(q);
  const points = Math.round(score * pointsMaximum * 1e6) / 1e6;
  const correct = grading === 'auto' ? score === 1 : null;
  return { score, correct, grading, points, pointsMaximum, details: outcome.details };
}

/** Plain arrays of strings, whatever the storage handed over. */
function normalize(q: CheckableQuestion): CheckableQuestion {
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
  return {
    ...q,
    answers: strings(q.answers),
    options: strings(q.options),
    ...(q.truefalseThirdStatements !== undefined && { truefalseThirdStatements: strings(q.truefalseThirdStatements) }),
  };
}

function score(q: CheckableQuestion, response: unknown): Outcome {
  switch (q.type) {
    case 'generic':
      return checkStrings(q, response, sameExact);
    case 'text':
      return checkStrings(q, response, sameText);
    case 'numerical':
      return checkNumerical(q, response);
    case 'date/time':
      return checkDate(q, response);
    case 'expression':
      return checkExpression(q, response);
    case 'choice':
      return checkChoice(q, response);
    case 'multiple-choice':
      return checkMultipleChoice(q, response);
    case 'order':
      return checkOrder(q, response);
    case 'true/false':
      return checkTrueFalse(q, response);
    case 'pairing':
    case 'grouping': {
      const pairs = parsePairs(q.answers);
      if (!pairs) return zero('invalid-question');
      return q.type === 'pairing' ? checkPairing(q, response, pairs) : checkGrouping(q, response, pairs);
    }
    case 'set':
    case 'set:text':
      return checkSet(q, response);
    case 'matrix:generic':
    case 'matrix':
    case 'matrix:expression':
      return checkMatrix(q, response);
    default:
      return zero('invalid-question');
  }
}

export function checkAnswer(question: CheckableQuestion, response: Response): CheckResult {
  const q = normalize(question);
  if (q.type === 'reading') {
    return { score: 0, correct: null, grading: 'none', points: 0, pointsMaximum: 0, details: { reason: 'not-scored' } };
  }
  if (isEmptyResponse(response)) return result(q, 'auto', zero('empty'));
  try {
    if (q.type === 'free-text') {
      const text = Array.isArray(response) ? response.filter((v) => typeof v === 'string').join('\n') : typeof response === 'string' ? response : null;
      if (text === null || text.trim() === '') return result(q, 'auto', zero(text === null ? 'malformed' : 'empty'));
      return result(q, 'semi-automatic', checkFreeText(q, text));
    }
    if (q.type === 'file' || q.type === 'hotspot') return result(q, 'manual', zero('review'));
    if (q.answers.length === 0 && !NEED_NO_ANSWER.has(q.type)) return result(q, 'auto', zero('invalid-question'));
    return result(q, 'auto', score(q, response));
  } catch {
    // Last line of defence: a scorer bug must not break scoring a whole play.
    return result(q, 'auto', zero('malformed'));
  }
}
