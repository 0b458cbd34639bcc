/** The list syntaxes of the contract: `&&&` between items, `>>>` inside a pair. */

export const LIST_SEPARATOR = '&&&';
export const PAIR_SEPARATOR = '>>>';

/** More entries than this in one response is not an answer but an attempt to slow scoring down. */
export const MAX_ENTRIES = 1000;

/**
 * Splits 'a&&&b&&&c' into trimmed items. Empty items are kept (positions matter for ordered
 * inputs; the storage decides whether an empty item is an error). Blank text is an empty list.
 */
export function splitList(text: string): string[] {
  if (text.trim() === '') return [];
  return text.split(LIST_SEPARATOR).map((s) => s.trim());
}

/**
 * Reads pairs 'a>>>b' (a list, or one string joined with &&&). Every item must hold exactly one
 * `>>>` with text on both sides; otherwise null.
 */
export function parsePairs(list: readonly string[] | string): Array<[string, string]> | null {
  const items = typeof list === 'string' ? splitList(list) : list;
  const pairs: Array<[string, string]> = [];
  for (const item of items) {
    const pair = parsePair(item);
    if (!pair) return null;
    pairs.push(pair);
  }
  return pairs;
}

export function parsePair(item: string): [string, string] | null {
  const parts = item.split(PAIR_SEPARATOR);
  if (parts.length !== 2) return null;
  const [a, b] = parts.map((s) => s.trim()) as [string, string];
  return a !== '' && b !== '' ? [a, b] : null;
}

/** A scalar as response text; booleans and objects are not text. */
export function scalarText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/**
 * The inputs of a single- or multi-input response: a string (split on &&&), a number, or a list
 * of them. Unusable list elements become '' so positions are kept. null: not a list of inputs.
 */
export function responseEntries(response: unknown): string[] | null {
  let entries: string[] | null = null;
  if (typeof response === 'string') entries = response.includes(LIST_SEPARATOR) ? splitList(response) : [response.trim()];
  else if (typeof response === 'number') entries = Number.isFinite(response) ? [String(response)] : null;
  else if (Array.isArray(response)) entries = response.map((v) => (scalarText(v) ?? '').trim());
  return entries && entries.length <= MAX_ENTRIES ? entries : null;
}

/** Nothing submitted: null, blank text, or a list / object holding only such values. */
export function isEmptyResponse(response: unknown): boolean {
  if (response === null || response === undefined) return true;
  if (typeof response === 'string') return response.trim() === '';
  if (Array.isArray(response)) return response.every(isEmptyResponse);
  if (typeof response === 'object') return Object.values(response).every(isEmptyResponse);
  return false;
}
