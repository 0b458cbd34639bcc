/**
 * free-text is semi-automatic: keyword rules give a provisional score, a person decides.
 *
 * Rule text (freetext_rules): rules joined by &&&; a rule is keyword alternatives joined by '|',
 * optionally followed by '>>>' and a weight: a fraction ('0.5') or a percent ('50%'), negative to
 * take points away for a word that must not appear ('wrong claim>>>-25%'). Example:
 * 'photosynthesis>>>50%&&&chlorophyll|chloroplast&&&sunlight|light'. Rules without a weight share
 * equally what the positive weights leave of 1 (here 25% each).
 *
 * Matching: a keyword matches when its words occur consecutively as whole words of the text, with
 * case, punctuation and spacing ignored like the text type (accents count). The provisional score
 * is the sum of the weights of matching rules, clamped to 0..1.
 */

import { LIST_SEPARATOR, PAIR_SEPARATOR } from './lists.ts';
import { wordsKey } from './text.ts';
import type { Outcome } from './outcome.ts';
import type { CheckableQuestion, FreeTextRule } from './types.ts';

/** Reads freetext_rules text; null when a rule is malformed (no keyword, bad weight). */
export function parseFreeTextRules(text: string): FreeTextRule[] | null {
  if (typeof text !== 'string') return null;
  if (text.trim() === '') return [];
  const rules: FreeTextRule[] = [];
  for (const part of text.split(LIST_SEPARATOR)) {
    const [words, weightText, extra] = part.split(PAIR_SEPARATOR);
    if (extra !== undefined) return null;
    const keywords = words!.split('|').map((k) => k.trim());
    if (keywords.some((k) => wordsKey(k) === '')) return null;
    const rule: FreeTextRule = { keywords };
    if (weightText !== undefined) {
      const m = /^\s*([+-]?\d+(?:\.\d+)?|[+-]?\.\d+)\s*(%?)\s*$/.exec(weightText);
      if (!m) return null;
      const weight = Number(m[1]) / (m[2] ? 100 : 1);
      if (Math.abs(weight) > 1) return null;
      rule.weight = weight;
    }
    rules.push(rule);
  }
  return rules;
}

function weights(rules: readonly FreeTextRule[]): number[] {
  const fixed = rules.reduce((sum, r) => sum + Math.max(0, r.weight ?? 0), 0);
  const open = rules.filter((r) => r.weight === undefined).length;
  const share = open === 0 ? 0 : Math.max(0, 1 - fixed) / open;
  return rules.map((r) => r.weight ?? share);
}

export function checkFreeText(q: CheckableQuestion, text: string): Outcome {
  const rules = q.freetextRules ?? [];
  const haystack = ` ${wordsKey(text)} `;
  const w = weights(rules);
  const matchedRules = rules.flatMap((rule, i) => (rule.keywords.some((k) => wordsKey(k) !== '' && haystack.includes(` ${wordsKey(k)} `)) ? [i] : []));
  const sum = matchedRules.reduce((s, i) => s + w[i]!, 0);
  const characters = [...text.trim()].length;
  const words = text.trim() === '' ? 0 : text.trim().split(/\s+/u).length;
  const overLimit =
    (q.freetextCharacters !== undefined && q.freetextCharacters > 0 && characters > q.freetextCharacters) ||
    (q.freetextWords !== undefined && q.freetextWords > 0 && words > q.freetextWords);
  return {
    score: Math.min(1, Math.max(0, sum)),
    details: { reason: 'review', freeText: { characters, words, matchedRules, overLimit } },
  };
}
