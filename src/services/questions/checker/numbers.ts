/**
 * Numbers, intervals and tolerances of numerical answers (also used by set, matrix and constant
 * expressions).
 *
 * Accepted number forms (answers and responses alike):
 * - integers and decimals with '.', a leading sign, exponents ('1.5e-3'), and '.5';
 * - a decimal comma when there is no point ('3,14' is 3.14; so '1,000' is 1, not a thousand);
 * - thousands grouped by spaces ('1 000 000', '12 345,6');
 * - fractions 'a/b' ('3/4', '-3/4', '1.5/2'; b must not be 0) and mixed numbers '1 1/2' (= 1.5,
 *   '-1 1/2' = -1.5);
 * - the constants pi (π) and e, alone or as a multiple or part: '2pi', '-π/2', '3*pi/4', 'e'.
 *   Arbitrary arithmetic is not a number: '17*23' is refused, the taker must compute it.
 * - intervals (answers only, see parseNumber): '[a;b]' closed, '(a;b)' open, or half-open.
 * The Unicode minus and dash and the fraction slash are read as '-' and '/'.
 */

import type { Tolerance, ToleranceType } from './types.ts';
import { TOLERANCE_TYPES } from './types.ts';

export type ParsedNumber =
  | { kind: 'value'; value: number }
  | { kind: 'interval'; min: number; max: number; minOpen: boolean; maxOpen: boolean };

export const DEFAULT_DECIMALS = 2;

const NUM = String.raw`(?:\d+(?:\.\d*)?|\.\d+)`;
const PLAIN = new RegExp(String.raw`^[+-]?${NUM}(?:e[+-]?\d+)?$`, 'i');
const COMMA = /^[+-]?\d+,\d+$/;
const GROUPED = /^([+-]?\d{1,3}(?: \d{3})+)([.,]\d+)?$/;
const FRACTION = new RegExp(String.raw`^([+-]?)(${NUM}) ?/ ?(${NUM})$`);
const MIXED = /^([+-]?)(\d+) (\d+) ?\/ ?(\d+)$/;
const CONSTANT = new RegExp(String.raw`^([+-]?)(${NUM})? ?\*? ?(pi|π|e) ?(?:/ ?(${NUM}))?$`, 'i');

function clean(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2212\u2012\u2013\u2014]/g, '-')
    .replace(/\u2044/g, '/')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A single number (no interval), or null. */
export function parseValue(text: string): number | null {
  if (typeof text !== 'string' || text.length > 200) return null;
  let s = clean(text);
  const grouped = GROUPED.exec(s);
  if (grouped) s = grouped[1]!.replace(/ /g, '') + (grouped[2] ?? '').replace(',', '.');
  if (COMMA.test(s)) s = s.replace(',', '.');
  if (PLAIN.test(s)) return finite(Number(s));
  let m = MIXED.exec(s);
  if (m) {
    const den = Number(m[4]);
    if (den === 0) return null;
    const v = Number(m[2]) + Number(m[3]) / den;
    return finite(m[1] === '-' ? -v : v);
  }
  m = FRACTION.exec(s.replace(/,/g, '.'));
  if (m) {
    const den = Number(m[3]);
    if (den === 0) return null;
    const v = Number(m[2]) / den;
    return finite(m[1] === '-' ? -v : v);
  }
  m = CONSTANT.exec(s);
  if (m) {
    const c = m[3]!.toLowerCase() === 'e' ? Math.E : Math.PI;
    const den = m[4] === undefined ? 1 : Number(m[4]);
    if (den === 0) return null;
    const v = ((m[2] === undefined ? 1 : Number(m[2])) * c) / den;
    return finite(m[1] === '-' ? -v : v);
  }
  return null;
}

function finite(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}

/**
 * A numerical answer: a number, or an interval '[a;b]' (closed), '(a;b)' (open), '[a;b)' or
 * '(a;b]'; a <= b (an open interval needs a < b). Ends are numbers in any form of parseValue.
 */
export function parseNumber(text: string): ParsedNumber | null {
  if (typeof text !== 'string') return null;
  const s = clean(text);
  const m = /^([[(])(.*);(.*)([\])])$/.exec(s);
  if (m) {
    const min = parseValue(m[2]!);
    const max = parseValue(m[3]!);
    const minOpen = m[1] === '(';
    const maxOpen = m[4] === ')';
    if (min === null || max === null || min > max || ((minOpen || maxOpen) && min === max)) return null;
    return { kind: 'interval', min, max, minOpen, maxOpen };
  }
  const value = parseValue(s);
  return value === null ? null : { kind: 'value', value };
}

/**
 * `<TYPE>` or `<TYPE>:<value>`, QUOTIENT and QUOTIENT2 optionally with `:SYNCED` (before or after
 * the value). Type and SYNCED are case-insensitive. Values:
 * - ABSOLUTE: a number >= 0 (the largest difference).
 * - RELATIVE: '5%' is 0.05; a number without '%' is a fraction when <= 1 ('0.05') and a percent
 *   when > 1 ('5' is 5%), since a relative tolerance above 100% makes no sense.
 * - QUOTIENT: a factor >= 1 (the response may be the answer scaled by 1/value..value).
 * - QUOTIENT2: a whole number >= 0 (the response may be the answer scaled by 10^k, |k| <= value).
 * null when malformed.
 */
export function parseTolerance(text: string): Tolerance | null {
  if (typeof text !== 'string') return null;
  const [head, ...rest] = text.split(':').map((p) => p.trim());
  const type = head?.toUpperCase() as ToleranceType;
  if (!TOLERANCE_TYPES.includes(type)) return null;
  const tolerance: Tolerance = { type, synced: false };
  for (const part of rest) {
    if (part.toUpperCase() === 'SYNCED') {
      if (tolerance.synced || (type !== 'QUOTIENT' && type !== 'QUOTIENT2')) return null;
      tolerance.synced = true;
      continue;
    }
    if (tolerance.value !== undefined) return null;
    const value = toleranceValue(type, part);
    if (value === null) return null;
    tolerance.value = value;
  }
  return tolerance;
}

function toleranceValue(type: ToleranceType, part: string): number | null {
  const percent = type === 'RELATIVE' && part.endsWith('%');
  const body = percent ? part.slice(0, -1).trim() : part;
  if (!/^\d+(?:[.,]\d+)?$|^[.,]\d+$/.test(body)) return null;
  const n = Number(body.replace(',', '.'));
  switch (type) {
    case 'ABSOLUTE':
      return n;
    case 'RELATIVE':
      return percent || n > 1 ? n / 100 : n;
    case 'QUOTIENT':
      return n >= 1 ? n : null;
    case 'QUOTIENT2':
      return Number.isInteger(n) ? n : null;
  }
}

/**
 * Rounds half away from zero at `decimals` places. Going through 15 significant digits first
 * removes binary noise, so 1.005 rounds to 1.01 as a person expects.
 */
export function roundTo(x: number, decimals: number): number {
  const f = 10 ** decimals;
  const scaled = Number((Math.abs(x) * f).toPrecision(15));
  return (Math.sign(x) * Math.round(scaled)) / f;
}

/** Equal once both are rounded to `decimals` places. */
export function sameAtDecimals(x: number, a: number, decimals: number): boolean {
  return Math.abs(roundTo(x, decimals) - roundTo(a, decimals)) < 0.5 * 10 ** -decimals;
}

/** Slack for binary floating point at inclusive limits: 1.1 − 1 is 0.10000000000000009. */
function slack(...xs: number[]): number {
  return 1e-12 * Math.max(1, ...xs.map(Math.abs));
}

export function normalizeDecimals(decimals: number | undefined): number {
  return decimals === undefined || !Number.isFinite(decimals) ? DEFAULT_DECIMALS : Math.min(12, Math.max(0, Math.trunc(decimals)));
}

export interface NumericSettings {
  decimals: number;
  tolerance?: Tolerance;
}

function inInterval(x: number, a: Extract<ParsedNumber, { kind: 'interval' }>): boolean {
  const e = slack(x, a.min, a.max);
  const aboveMin = a.minOpen ? x > a.min : x >= a.min - e;
  const belowMax = a.maxOpen ? x < a.max : x <= a.max + e;
  return aboveMin && belowMax;
}

/**
 * The scale factor s with x ≈ s·a allowed by a QUOTIENT / QUOTIENT2 tolerance; 'any' when the
 * answer is 0 and the response is 0 (zero fits every factor); null when none fits.
 * QUOTIENT: s = x/a must be positive and within [1/value, value] (any positive factor without a
 * value). QUOTIENT2: s = 10^k for a whole k (|k| <= value when given), and x/s must equal a at
 * `decimals` places in the answer's scale (the digits must be right, the decimal point may move).
 */
export function scaleFactor(x: number, a: number, settings: NumericSettings): number | 'any' | null {
  const t = settings.tolerance;
  if (a === 0 || x === 0) return sameAtDecimals(x, a, settings.decimals) ? 'any' : null;
  const q = x / a;
  if (!(q > 0) || !Number.isFinite(q)) return null;
  if (t?.type === 'QUOTIENT2') {
    const k = Math.round(Math.log10(q));
    if (t.value !== undefined && Math.abs(k) > t.value) return null;
    const s = 10 ** k;
    return sameAtDecimals(x / s, a, settings.decimals) ? s : null;
  }
  if (t?.value !== undefined && (q > t.value * (1 + 1e-12) || q < (1 / t.value) * (1 - 1e-12))) return null;
  return q;
}

/**
 * Does response x match one answer?
 * - interval answer: x inside (ends included unless open); decimals and tolerance do not apply.
 * - no tolerance: equal once both are rounded to `decimals` places.
 * - ABSOLUTE:v: |x − a| <= v (default v: one unit of the last decimal, 10^−decimals).
 * - RELATIVE:v: |x − a| <= v·|a| (default 1%); an answer of 0 needs exactly 0.
 * - QUOTIENT, QUOTIENT2: see scaleFactor. With SYNCED the factor must also be common to all inputs;
 *   numericPredicates builds one predicate per candidate factor for that.
 * Limits are inclusive, with 1e-12 relative slack for binary floating point.
 */
export function numberMatches(x: number, answer: ParsedNumber, settings: NumericSettings): boolean {
  if (!Number.isFinite(x)) return false;
  if (answer.kind === 'interval') return inInterval(x, answer);
  const a = answer.value;
  const t = settings.tolerance;
  switch (t?.type) {
    case undefined:
      return sameAtDecimals(x, a, settings.decimals);
    case 'ABSOLUTE':
      return Math.abs(x - a) <= (t.value ?? 10 ** -settings.decimals) + slack(x, a);
    case 'RELATIVE':
      return Math.abs(x - a) <= (t.value ?? 0.01) * Math.abs(a) + slack(x, a);
    case 'QUOTIENT':
    case 'QUOTIENT2':
      return scaleFactor(x, a, settings) !== null;
  }
}

const MAX_FACTORS = 64;

export type NumberPredicate = (x: number, answer: ParsedNumber) => boolean;

/**
 * The predicates to try for a group of inputs (several inputs, set elements, matrix cells). One
 * predicate normally; with a SYNCED quotient tolerance one per candidate factor (each factor some
 * response/answer pair needs), the caller keeps the best score: the factor is a single choice for
 * the whole answer, e.g. any multiple of an eigenvector or of equation coefficients.
 */
export function numericPredicates(
  responses: readonly (number | null)[],
  answers: readonly ParsedNumber[],
  settings: NumericSettings,
): NumberPredicate[] {
  const t = settings.tolerance;
  if (!t?.synced || (t.type !== 'QUOTIENT' && t.type !== 'QUOTIENT2')) {
    return [(x, a) => numberMatches(x, a, settings)];
  }
  // Positional pairs first (matrices, ordered inputs), then every pair; capped, since each
  // candidate costs a whole scoring pass.
  const factors = new Map<string, number>();
  const consider = (x: number | null | undefined, a: ParsedNumber | undefined) => {
    if (x === null || x === undefined || a?.kind !== 'value' || factors.size >= MAX_FACTORS) return;
    const s = scaleFactor(x, a.value, settings);
    if (typeof s === 'number') factors.set(s.toPrecision(12), s);
  };
  responses.forEach((x, i) => consider(x, answers[i]));
  for (const x of responses) for (const a of answers) consider(x, a);
  if (factors.size === 0) factors.set('1', 1);
  return [...factors.values()].map((s) => (x: number, a: ParsedNumber) => {
    if (!Number.isFinite(x)) return false;
    if (a.kind === 'interval') return inInterval(x, a);
    if (a.value === 0 || x === 0) return sameAtDecimals(x, a.value, settings.decimals);
    return x / a.value > 0 && sameAtDecimals(x / s, a.value, settings.decimals);
  });
}
