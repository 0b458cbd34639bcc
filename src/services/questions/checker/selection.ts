/**
 * Types where the taker picks, orders or assigns given items: choice, multiple-choice, order,
 * true/false, pairing, grouping. Items are compared exactly (trimmed, NFC; see text.ts): they are
 * the texts the taker was shown, not typed answers.
 */

import { exactKey } from './text.ts';
import { LIST_SEPARATOR, MAX_ENTRIES, parsePair, scalarText, splitList } from './lists.ts';
import { requiredUnits } from './matching.ts';
import { zero, type Outcome } from './outcome.ts';
import type { CheckableQuestion } from './types.ts';

interface Item {
  text: string;
  correct: boolean;
}

/** The items in their canonical order: answers, then options. */
function items(q: CheckableQuestion): Item[] {
  return [...q.answers.map((text) => ({ text, correct: true })), ...q.options.map((text) => ({ text, correct: false }))];
}

/**
 * A selection as an index into the canonical items: a number is a 0-based index; 'ANSWER:N' and
 * 'OPTION:N' are 1-based references as in options_order; other text is matched against the item
 * texts (answers first). -1 when it names no item.
 */
function resolve(selection: unknown, q: CheckableQuestion, all: Item[]): number {
  if (typeof selection === 'number') return Number.isInteger(selection) && selection >= 0 && selection < all.length ? selection : -1;
  if (typeof selection !== 'string') return -1;
  const ref = /^\s*(ANSWER|OPTION):(\d+)\s*$/i.exec(selection);
  if (ref) {
    const n = Number(ref[2]) - 1;
    const answer = ref[1]!.toUpperCase() === 'ANSWER';
    const size = answer ? q.answers.length : q.options.length;
    if (n < 0 || n >= size) return -1;
    return answer ? n : q.answers.length + n;
  }
  const key = exactKey(selection);
  return key === '' ? -1 : all.findIndex((item) => exactKey(item.text) === key);
}

/** A list of selections: a list, one value, or one string joined with &&&. Blank entries dropped. */
function selections(response: unknown): unknown[] {
  const list = Array.isArray(response)
    ? response
    : typeof response === 'string' && response.includes(LIST_SEPARATOR)
      ? splitList(response)
      : [response];
  const picked = list.filter((v) => !(v === null || v === undefined || (typeof v === 'string' && v.trim() === '')));
  return picked.length <= MAX_ENTRIES ? picked : [undefined];
}

/**
 * The items a choice or multiple-choice response selects, as indexes into the canonical items
 * (answers, then options), once each, by the rules the checker scores with; selections that name
 * no item are left out. Item analysis counts how many chose each item (distractor analysis).
 */
export function selectedItems(q: CheckableQuestion, response: unknown): number[] {
  const all = items(q);
  return [...new Set(selections(response).map((s) => resolve(s, q, all)))].filter((i) => i !== -1);
}

/** choice: exactly one selection; score 1 when it is the answer. answer_require does not apply. */
export function checkChoice(q: CheckableQuestion, response: unknown): Outcome {
  const all = items(q);
  const picked = selections(response);
  if (picked.length > 1) return zero('too-many-selections');
  const index = resolve(picked[0], q, all);
  if (index === -1) return zero('malformed');
  const correct = all[index]!.correct;
  return { score: correct ? 1 : 0, details: { correctUnits: correct ? 1 : 0, requiredUnits: 1, marks: [correct] } };
}

/**
 * multiple-choice: selections are counted once each. Any incorrect option selected scores 0
 * (otherwise selecting everything would pay); else score = min(correct selections, required) /
 * required, required = answer_require (default: all answers). More selections than
 * maximumChoices score 0. A selection naming no item makes the response malformed (0).
 */
export function checkMultipleChoice(q: CheckableQuestion, response: unknown): Outcome {
  const all = items(q);
  const picked = [...new Set(selections(response).map((s) => resolve(s, q, all)))];
  if (picked.includes(-1)) return zero('malformed');
  const required = requiredUnits(q.answerRequire, q.answers.length, q.answers.length);
  const marks = picked.map((i) => all[i]!.correct);
  const correct = marks.filter(Boolean).length;
  const details = { correctUnits: correct, requiredUnits: required, marks };
  if (q.maximumChoices !== undefined && q.maximumChoices >= 1 && picked.length > q.maximumChoices) {
    return zero('too-many-selections', details);
  }
  if (correct < picked.length) return zero('wrong-selection', details);
  return { score: Math.min(correct, required) / required, details };
}

/**
 * order: the response lists the items; position i is right when it holds the text of answer i
 * (items may be given as texts, 'ANSWER:N' references or 0-based indexes into the answers).
 * score = min(right positions, required) / required, required = answer_require (default: all).
 * Positions are compared one by one: an item inserted early shifts the ones after it.
 */
export function checkOrder(q: CheckableQuestion, response: unknown): Outcome {
  const list = Array.isArray(response) ? response : typeof response === 'string' ? splitList(response) : null;
  if (!list || list.length > MAX_ENTRIES) return zero('malformed');
  const texts = list.map((entry) => {
    if (typeof entry === 'number') return Number.isInteger(entry) ? q.answers[entry] : undefined;
    const ref = typeof entry === 'string' ? /^\s*ANSWER:(\d+)\s*$/i.exec(entry) : null;
    return ref ? q.answers[Number(ref[1]) - 1] : typeof entry === 'string' ? entry : undefined;
  });
  const marks = q.answers.map((answer, i) => {
    const given = texts[i];
    return given !== undefined && exactKey(given) !== '' && exactKey(given) === exactKey(answer);
  });
  const correct = marks.filter(Boolean).length;
  const required = requiredUnits(q.answerRequire, q.answers.length, q.answers.length);
  return { score: Math.min(correct, required) / required, details: { correctUnits: correct, requiredUnits: required, marks } };
}

type Mark = boolean | 'third' | null;

/** true/false marks; undefined when the value is not a mark at all. */
function readMark(v: unknown): Mark | undefined {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') return undefined;
  const s = v.trim().toLowerCase();
  if (s === '') return null;
  if (['true', 't', '+', 'yes', 'y'].includes(s)) return true;
  if (['false', 'f', '-', 'no', 'n'].includes(s)) return false;
  if (['third', 'unknown', '?'].includes(s)) return 'third';
  return undefined;
}

/**
 * true/false: answers are true statements, options false ones, truefalseThirdStatements those
 * whose right mark is the third one ('unknown'). The third mark is allowed when
 * truefalseThirdOption is set or third statements exist; otherwise it counts as a wrong mark.
 * Each statement is a unit: score = min(right marks, required) / required, required =
 * answer_require (default: all statements). Unmarked statements are not right. Unknown statements
 * or unreadable marks in an object response are ignored.
 */
export function checkTrueFalse(q: CheckableQuestion, response: unknown): Outcome {
  const third = q.truefalseThirdStatements ?? [];
  const statements: Array<{ text: string; mark: Mark }> = [
    ...q.answers.map((text) => ({ text, mark: true as Mark })),
    ...q.options.map((text) => ({ text, mark: false as Mark })),
    ...third.map((text) => ({ text, mark: 'third' as Mark })),
  ];
  const thirdAllowed = q.truefalseThirdOption === true || third.length > 0;
  const given = new Array<Mark>(statements.length).fill(null);
  if (Array.isArray(response)) {
    response.forEach((v, i) => {
      if (i < given.length) given[i] = readMark(v) ?? null;
    });
  } else if (response !== null && typeof response === 'object') {
    for (const [key, v] of Object.entries(response)) {
      const index = statementIndex(key, q, third, statements);
      if (index !== -1) given[index] = readMark(v) ?? null;
    }
  } else return zero('malformed');
  const marks = statements.map((s, i) => given[i] !== null && (given[i] !== 'third' || thirdAllowed) && given[i] === s.mark);
  const correct = marks.filter(Boolean).length;
  const required = requiredUnits(q.answerRequire, statements.length, statements.length);
  return { score: Math.min(correct, required) / required, details: { correctUnits: correct, requiredUnits: required, marks } };
}

/** A statement by text or by 'ANSWER:N' / 'OPTION:N' / 'THIRD:N' (1-based). */
function statementIndex(key: string, q: CheckableQuestion, third: string[], statements: Array<{ text: string }>): number {
  const ref = /^\s*(ANSWER|OPTION|THIRD):(\d+)\s*$/i.exec(key);
  if (ref) {
    const n = Number(ref[2]) - 1;
    const kind = ref[1]!.toUpperCase();
    const [offset, size] =
      kind === 'ANSWER' ? [0, q.answers.length] : kind === 'OPTION' ? [q.answers.length, q.options.length] : [q.answers.length + q.options.length, third.length];
    return n >= 0 && n < size ? offset + n : -1;
  }
  const k = exactKey(key);
  return k === '' ? -1 : statements.findIndex((s) => exactKey(s.text) === k);
}

/**
 * Pairs of a pairing or grouping response, as exact keys: 'a>>>b' strings, [a, b] tuples, an
 * object {a: b} or {a: [b, c]}, or one string joined with &&&. Unreadable entries are skipped.
 */
function responsePairs(response: unknown): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const add = (a: unknown, b: unknown) => {
    const l = scalarText(a);
    const r = scalarText(b);
    if (l !== null && r !== null && exactKey(l) !== '' && exactKey(r) !== '') out.push([exactKey(l), exactKey(r)]);
  };
  const entry = (v: unknown) => {
    if (typeof v === 'string') {
      const pair = parsePair(v);
      if (pair) add(pair[0], pair[1]);
    } else if (Array.isArray(v) && v.length === 2) add(v[0], v[1]);
  };
  const list = typeof response === 'string' ? splitList(response) : Array.isArray(response) ? response : null;
  if (list) list.forEach(entry);
  else if (response !== null && typeof response === 'object') {
    for (const [a, b] of Object.entries(response)) (Array.isArray(b) ? b : [b]).forEach((v) => add(a, v));
  }
  // More pairs than MAX_ENTRIES is not an answer: nothing counts.
  return out.length <= MAX_ENTRIES ? out : [];
}

/** Right sides given for each left side. */
function byLeft(pairs: Array<[string, string]>): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const [l, r] of pairs) map.set(l, (map.get(l) ?? new Set()).add(r));
  return map;
}

/**
 * pairing: answers 'a>>>b'. Each answer pair is a unit; it is right when the response pairs its
 * left item with its right item and with nothing else (pairing one left item with several right
 * items earns nothing for it, so listing every combination never pays). options are distractor
 * right items and need no rule of their own. score = min(right pairs, required) / required,
 * required = answer_require (default: all pairs).
 */
export function checkPairing(q: CheckableQuestion, response: unknown, answerPairs: Array<[string, string]>): Outcome {
  const given = byLeft(responsePairs(response));
  const marks = answerPairs.map(([l, r]) => {
    const rights = given.get(exactKey(l));
    return rights !== undefined && rights.size === 1 && rights.has(exactKey(r));
  });
  const correct = marks.filter(Boolean).length;
  const required = requiredUnits(q.answerRequire, answerPairs.length, answerPairs.length);
  return { score: Math.min(correct, required) / required, details: { correctUnits: correct, requiredUnits: required, marks } };
}

/**
 * grouping: answers 'group>>>item', options are distractor items that belong to no group. Each
 * answer pair is a unit, right when the response puts the item in that group and in no group the
 * answer does not list for it. Each distractor put into any group cancels one right unit.
 * score = max(0, min(right, required) − distractors placed) / required, required =
 * answer_require (default: all answer pairs).
 */
export function checkGrouping(q: CheckableQuestion, response: unknown, answerPairs: Array<[string, string]>): Outcome {
  const placed = new Map<string, Set<string>>();
  for (const [group, item] of responsePairs(response)) placed.set(item, (placed.get(item) ?? new Set()).add(group));
  const groupsOf = new Map<string, Set<string>>();
  for (const [group, item] of answerPairs) {
    const k = exactKey(item);
    groupsOf.set(k, (groupsOf.get(k) ?? new Set()).add(exactKey(group)));
  }
  const marks = answerPairs.map(([group, item]) => {
    const given = placed.get(exactKey(item));
    const allowed = groupsOf.get(exactKey(item))!;
    return given !== undefined && given.has(exactKey(group)) && [...given].every((g) => allowed.has(g));
  });
  const distractors = new Set(q.options.map(exactKey).filter((k) => k !== '' && !groupsOf.has(k)));
  const misplaced = [...distractors].filter((k) => placed.has(k)).length;
  const correct = marks.filter(Boolean).length;
  const required = requiredUnits(q.answerRequire, answerPairs.length, answerPairs.length);
  const score = Math.max(0, Math.min(correct, required) - misplaced) / required;
  return { score, details: { correctUnits: correct, requiredUnits: required, marks } };
}
