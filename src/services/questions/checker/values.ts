/**
 * Typed-in single values: generic, text, numerical, date/time, expression. They share the input
 * rules of scoreInputs (matching.ts): several inputs with answer_order / answer_label compare by
 * position, otherwise the answers are alternatives and answer_require inputs must each fit a
 * different answer.
 */

import { dateMatches, parseDate, parseDateAnswers, type DateParts } from './datetime.ts';
import { expressionsEquivalent, parseExpression, type Expr } from './expression.ts';
import { responseEntries } from './lists.ts';
import { EMPTY, UNREADABLE, scoreInputs, unitFraction, type Input, type UnitScore } from './matching.ts';
import { normalizeDecimals, numericPredicates, parseNumber, parseValue, type ParsedNumber } from './numbers.ts';
import { zero, type Outcome } from './outcome.ts';
import type { CheckableQuestion } from './types.ts';

export function isOrdered(q: CheckableQuestion): boolean {
  return q.answerOrder === true || (q.answerLabels?.length ?? 0) > 0;
}

export function fromUnits(units: UnitScore): Outcome {
  return {
    score: unitFraction(units),
    details: { correctUnits: units.correct, requiredUnits: units.required, marks: units.marks },
  };
}

/** Reads every input with `read` (null: unreadable); blank inputs are EMPTY. */
function readInputs<R>(response: unknown, read: (text: string) => R | null): Input<R>[] | null {
  const entries = responseEntries(response);
  if (!entries) return null;
  return entries.map((e) => (e === '' ? EMPTY : (read(e) ?? UNREADABLE)));
}

/** 'malformed' when nothing given could be read, so the details say why rather than just 0. */
function withReason(outcome: Outcome, inputs: readonly Input<unknown>[]): Outcome {
  const given = inputs.filter((x) => x !== EMPTY);
  return outcome.score === 0 && given.length > 0 && given.every((x) => x === UNREADABLE)
    ? { ...outcome, details: { ...outcome.details, reason: 'malformed' } }
    : outcome;
}

function best(outcomes: Outcome[]): Outcome {
  return outcomes.reduce((a, b) => (b.score > a.score ? b : a));
}

/** generic (exact) and text (folded): `same` decides; see text.ts. */
export function checkStrings(q: CheckableQuestion, response: unknown, same: (a: string, b: string) => boolean): Outcome {
  const inputs = readInputs(response, (s) => s);
  if (!inputs) return zero('malformed');
  return fromUnits(scoreInputs(inputs, q.answers, same, { ordered: isOrdered(q), answerRequire: q.answerRequire }));
}

/** numerical: see numbers.ts for number forms, intervals, decimals and tolerances. */
export function checkNumerical(q: CheckableQuestion, response: unknown): Outcome {
  const answers = q.answers.map(parseNumber);
  if (answers.some((a) => a === null)) return zero('invalid-question');
  const inputs = readInputs(response, parseValue);
  if (!inputs) return zero('malformed');
  const settings = { decimals: normalizeDecimals(q.decimals), tolerance: q.tolerance };
  const values = inputs.map((x) => (typeof x === 'number' ? x : null));
  const options = { ordered: isOrdered(q), answerRequire: q.answerRequire };
  const outcomes = numericPredicates(values, answers as ParsedNumber[], settings).map((fits) =>
    fromUnits(scoreInputs(inputs, answers as ParsedNumber[], fits, options)),
  );
  return withReason(best(outcomes), inputs);
}

/** date/time: see datetime.ts. */
export function checkDate(q: CheckableQuestion, response: unknown): Outcome {
  const answers = parseDateAnswers(q.answers, q.datetimeRange === true);
  if (!answers) return zero('invalid-question');
  const inputs = readInputs<DateParts>(response, parseDate);
  if (!inputs) return zero('malformed');
  const precision = q.datetimePrecision ?? 'DAY';
  const units = scoreInputs(inputs, answers, (d, a) => dateMatches(d, a, precision), {
    ordered: isOrdered(q),
    answerRequire: q.answerRequire,
  });
  return withReason(fromUnits(units), inputs);
}

/** expression: see expression.ts for the syntax and the equivalence test. */
export function checkExpression(q: CheckableQuestion, response: unknown): Outcome {
  const answers = q.answers.map(parseExpression);
  if (answers.some((a) => a === null)) return zero('invalid-question');
  const inputs = readInputs<Expr>(response, parseExpression);
  if (!inputs) return zero('malformed');
  const decimals = normalizeDecimals(q.decimals);
  const units = scoreInputs(inputs, answers as Expr[], (x, a) => expressionsEquivalent(a, x, decimals), {
    ordered: isOrdered(q),
    answerRequire: q.answerRequire,
  });
  return withReason(fromUnits(units), inputs);
}
