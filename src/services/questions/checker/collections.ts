/** Collections: set, set:text (unordered) and the matrix types (positional cells). */

import { expressionsEquivalent, parseExpression, type Expr } from './expression.ts';
import { LIST_SEPARATOR, MAX_ENTRIES, scalarText, splitList } from './lists.ts';
import { EMPTY, UNREADABLE, maxMatching, requiredUnits, scoreInputs, type Input } from './matching.ts';
import { parseMatrix, parseSet } from './matrix.ts';
import { normalizeDecimals, numericPredicates, parseNumber, parseValue, type ParsedNumber } from './numbers.ts';
import { zero, type Outcome } from './outcome.ts';
import { sameExact, sameText } from './text.ts';
import type { CheckableQuestion } from './types.ts';
import { fromUnits } from './values.ts';

/** The highest score; on a tie an alternative of the right size, whose marks say more. */
function best(outcomes: Outcome[]): Outcome {
  const sized = (o: Outcome) => o.details.reason !== 'wrong-size';
  return outcomes.reduce((a, b) => (b.score > a.score || (b.score === a.score && !sized(a) && sized(b)) ? b : a));
}

/** Set elements of a response: a list, '[a;b]' text, or text joined with &&&. Blank ones dropped. */
function setElements(response: unknown): string[] | null {
  if (typeof response === 'string') return response.includes(LIST_SEPARATOR) ? splitList(response).filter((e) => e !== '') : parseSet(response);
  if (typeof response === 'number') return scalarText(response) === null ? null : [String(response)];
  if (!Array.isArray(response)) return null;
  const texts = response.map(scalarText);
  if (texts.some((t, i) => t === null && response[i] !== null && response[i] !== undefined)) return null;
  return texts.filter((t): t is string => t !== null).map((t) => t.trim()).filter((t) => t !== '');
}

/**
 * set (numbers, with decimals and tolerance like numerical, SYNCED included) and set:text
 * (compared like text). The answer's elements are all answers, each either one element or a
 * whole set '[a;b;c]'. Order and repetition in the response do not matter. Any response element
 * that is not in the answer scores 0 (listing guesses never pays); otherwise score =
 * min(answer elements covered, required) / required, required = answer_require (default: all).
 * marks are per response element: in the answer or not.
 */
export function checkSet(q: CheckableQuestion, response: unknown): Outcome {
  const parsed = q.answers.map(parseSet);
  if (parsed.some((p) => p === null)) return zero('invalid-question');
  const elements = parsed.flat() as string[];
  if (elements.length === 0) return zero('invalid-question');
  const given = setElements(response);
  if (!given || given.length > MAX_ENTRIES) return zero('malformed');
  const required = requiredUnits(q.answerRequire, elements.length, elements.length);

  const score = <R, A>(inputs: readonly (R | null)[], answers: readonly A[], fits: (x: R, a: A) => boolean): Outcome => {
    const marks = inputs.map((x) => x !== null && answers.some((a) => fits(x, a)));
    const assigned = maxMatching(inputs.length, answers.length, (l, r) => inputs[l] !== null && fits(inputs[l]!, answers[r]!));
    const covered = assigned.filter((r) => r !== -1).length;
    const details = { correctUnits: covered, requiredUnits: required, marks };
    if (marks.includes(false)) return zero('wrong-selection', details);
    return { score: Math.min(covered, required) / required, details };
  };

  if (q.type === 'set:text') return score(given, elements, sameText);
  const answers = elements.map(parseNumber);
  if (answers.some((a) => a === null)) return zero('invalid-question');
  const values = given.map(parseValue);
  const settings = { decimals: normalizeDecimals(q.decimals), tolerance: q.tolerance };
  return best(numericPredicates(values, answers as ParsedNumber[], settings).map((fits) => score(values, answers as ParsedNumber[], fits)));
}

/** Matrix cells of a response: matrix text, a list of rows (lists of cells), or a list of row texts 'a;b'. */
function responseMatrix(response: unknown): string[][] | null {
  if (typeof response === 'string') return parseMatrix(response, { allowEmpty: true });
  if (!Array.isArray(response) || response.length === 0) return null;
  if (response.every(Array.isArray)) {
    const rows = (response as unknown[][]).map((row) => row.map((c) => (scalarText(c) ?? '').trim()));
    return rows.every((row) => row.length === rows[0]!.length && row.length > 0) ? rows : null;
  }
  if (response.every((r) => typeof r === 'string')) return parseMatrix((response as string[]).join('|'), { allowEmpty: true });
  return null;
}

/**
 * matrix:generic (cells compared exactly), matrix (numbers, with decimals and tolerance; a SYNCED
 * quotient tolerance means one factor for the whole matrix, e.g. any multiple of an eigenvector)
 * and matrix:expression (cells are expressions, compared like expression). Several answers are
 * alternative matrices; the best one counts. Dimensions must agree (else 0, 'wrong-size'). Each
 * cell is a unit: score = min(right cells, required) / required, required = answer_require
 * (default: all cells). marks are per cell, row by row.
 */
export function checkMatrix(q: CheckableQuestion, response: unknown): Outcome {
  const alternatives = q.answers.map((a) => parseMatrix(a));
  if (alternatives.length === 0 || alternatives.some((m) => m === null)) return zero('invalid-question');
  const given = responseMatrix(response);
  if (!given || given.length * (given[0]?.length ?? 0) > 10 * MAX_ENTRIES) return zero('malformed');
  const cells = given.flat();
  const decimals = normalizeDecimals(q.decimals);
  const outcomes: Outcome[] = [];
  for (const answer of alternatives as string[][][]) {
    if (answer.length !== given.length || answer[0]!.length !== given[0]!.length) {
      outcomes.push(zero('wrong-size'));
      continue;
    }
    const expected = answer.flat();
    const options = { ordered: true, answerRequire: q.answerRequire ?? expected.length };
    if (q.type === 'matrix:generic') {
      outcomes.push(fromUnits(scoreInputs(cells.map((c) => (c === '' ? EMPTY : c)), expected, sameExact, options)));
    } else if (q.type === 'matrix:expression') {
      const answers = expected.map(parseExpression);
      if (answers.some((a) => a === null)) return zero('invalid-question');
      const inputs: Input<Expr>[] = cells.map((c) => (c === '' ? EMPTY : (parseExpression(c) ?? UNREADABLE)));
      outcomes.push(fromUnits(scoreInputs(inputs, answers as Expr[], (x, a) => expressionsEquivalent(a, x, decimals), options)));
    } else {
      const answers = expected.map(parseNumber);
      if (answers.some((a) => a === null)) return zero('invalid-question');
      const values = cells.map(parseValue);
      const inputs: Input<number>[] = cells.map((c, i) => (c === '' ? EMPTY : (values[i] ?? UNREADABLE)));
      const settings = { decimals, tolerance: q.tolerance };
      for (const fits of numericPredicates(values, answers as ParsedNumber[], settings)) {
        outcomes.push(fromUnits(scoreInputs(inputs, answers as ParsedNumber[], fits, options)));
      }
    }
  }
  return best(outcomes);
}
