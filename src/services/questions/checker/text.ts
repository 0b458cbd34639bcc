/**
 * Text comparison keys.
 *
 * generic compares exactly: only surrounding whitespace is dropped and Unicode is normalized to NFC,
 * so an accented letter typed as one code point or as letter + combining mark is the same text.
 * Case, inner spaces and punctuation count.
 *
 * text ignores spaces, punctuation and case: NFKC (full-width and ligature forms become plain
 * letters), full case folding (ß = SS = ss, final ς = σ), then only letters, digits and combining
 * marks are kept. Accents are kept: in many languages they change the word.
 */

export function exactKey(s: string): string {
  return s.normalize('NFC').trim();
}

export function textKey(s: string): string {
  return s
    .normalize('NFKC')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, '');
}

/** Words of a text for keyword search: folded like textKey, punctuation runs become one space. */
export function wordsKey(s: string): string {
  return s
    .normalize('NFKC')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ')
    .trim();
}

/** An empty key never matches, so a response of only punctuation cannot equal an answer. */
export function sameExact(a: string, b: string): boolean {
  const k = exactKey(a);
  return k !== '' && k === exactKey(b);
}

export function sameText(a: string, b: string): boolean {
  const k = textKey(a);
  return k !== '' && k === textKey(b);
}
