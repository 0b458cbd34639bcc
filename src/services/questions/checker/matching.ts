/** Scoring of several inputs against several answers, shared by the single-value types. */

/** An input left blank: skipped. */
export const EMPTY: unique symbol = Symbol('empty');
/** An input that cannot be read (not a number, not a date…): it takes its place and fits nothing. */
export const UNREADABLE: unique symbol = Symbol('unreadable');
export type Input<R> = R | typeof EMPTY | typeof UNREADABLE;

export interface UnitScore {
  correct: number;
  required: number;
  marks: boolean[];
}

/** answer_require clamped to 1..units; unset or unusable falls back to the type's default. */
export function requiredUnits(answerRequire: number | undefined, units: number, fallback: number): number {
  const wanted = answerRequire !== undefined && Number.isFinite(answerRequire) && answerRequire >= 1 ? Math.floor(answerRequire) : fallback;
  return Math.max(1, Math.min(units, wanted));
}

/**
 * Maximum one-to-one matching (augmenting paths): the largest number of left items each paired
 * with a different right item they fit. Greedy pairing could waste an answer that two responses
 * fit (intervals, tolerances). Returns, per left item, the matched right index or -1.
 */
export function maxMatching(left: number, right: number, fits: (l: number, r: number) => boolean): number[] {
  const adjacency: number[][] = [];
  for (let l = 0; l < left; l++) {
    const row: number[] = [];
    for (let r = 0; r < right; r++) if (fits(l, r)) row.push(r);
    adjacency.push(row);
  }
  const owner = new Array<number>(right).fill(-1);
  const assigned = new Array<number>(left).fill(-1);
  const tryAssign = (l: number, seen: boolean[]): boolean => {
    for (const r of adjacency[l]!) {
      if (seen[r]) continue;
      seen[r] = true;
      if (owner[r] === -1 || tryAssign(owner[r]!, seen)) {
        owner[r] = l;
        assigned[l] = r;
        return true;
      }
    }
    return false;
  };
  for (let l = 0; l < left; l++) tryAssign(l, new Array<boolean>(right).fill(false));
  return assigned;
}

/**
 * Inputs against answers (generic, text, numerical, date/time, expression).
 * - ordered (answer_order or answer_label): input i is compared with answer i; inputs beyond the
 *   answers are ignored; default required = all answers. marks are per answer position.
 * - unordered: the answers are alternatives, default required = 1 ("any of the answers"). Only the
 *   first `required` non-empty inputs count (the inputs the taker is asked to fill), each must fit
 *   a different answer (a repeated answer counts once), so typing extra guesses never helps.
 *   marks are per counted input.
 * score = min(correct, required) / required.
 */
export function scoreInputs<R, A>(
  inputs: readonly Input<R>[],
  answers: readonly A[],
  fits: (input: R, answer: A) => boolean,
  options: { ordered: boolean; answerRequire?: number },
): UnitScore {
  if (options.ordered) {
    const marks = answers.map((a, i) => {
      const input = inputs[i];
      return input !== undefined && input !== EMPTY && input !== UNREADABLE && fits(input, a);
    });
    const correct = marks.filter(Boolean).length;
    return { correct, required: requiredUnits(options.answerRequire, answers.length, answers.length), marks };
  }
  const required = requiredUnits(options.answerRequire, answers.length, 1);
  const counted = inputs.filter((x) => x !== EMPTY).slice(0, required);
  const assigned = maxMatching(counted.length, answers.length, (l, r) => {
    const input = counted[l]!;
    return input !== UNREADABLE && fits(input as R, answers[r]!);
  });
  const marks = assigned.map((r) => r !== -1);
  return { correct: marks.filter(Boolean).length, required, marks };
}

export function unitFraction(score: UnitScore): number {
  return Math.min(score.correct, score.required) / score.required;
}
