/**
 * Matrix and set text: `[` `]` boundaries, `;` between elements, `|` between rows
 * ('[1;2|3;4]' is a 2×2 matrix). The brackets are optional ('1;2|3;4' is read the same), but
 * unbalanced or nested brackets are refused. Cells are trimmed.
 */

export interface MatrixOptions {
  /** Keep empty cells ('' ) instead of refusing the text: a response may leave cells blank. */
  allowEmpty?: boolean;
}

function unwrap(text: string, open: string, close: string): string | null {
  const s = text.trim();
  const opened = s.startsWith(open);
  const closed = s.endsWith(close);
  if (opened !== closed) return null;
  const inner = opened ? s.slice(open.length, s.length - close.length) : s;
  return /[[\]{}]/.test(inner) ? null : inner;
}

/** Rows of cells; every row must have the same length. null when malformed or empty. */
export function parseMatrix(text: string, options: MatrixOptions = {}): string[][] | null {
  if (typeof text !== 'string' || text.length > 100_000) return null;
  const inner = unwrap(text, '[', ']');
  if (inner === null || inner.trim() === '') return null;
  const rows = inner.split('|').map((row) => row.split(';').map((cell) => cell.trim()));
  const width = rows[0]!.length;
  if (rows.some((row) => row.length !== width)) return null;
  if (!options.allowEmpty && rows.some((row) => row.some((cell) => cell === ''))) return null;
  return rows;
}

/**
 * Elements of a set: '[a;b;c]', '{a;b;c}' or 'a;b;c' (one element without ';'). No rows ('|').
 * '[]' is the empty set. null when malformed or when an element is empty.
 */
export function parseSet(text: string): string[] | null {
  if (typeof text !== 'string' || text.length > 100_000) return null;
  const inner = text.trim().startsWith('{') ? unwrap(text, '{', '}') : unwrap(text, '[', ']');
  if (inner === null || inner.includes('|')) return null;
  if (inner.trim() === '') return text.trim() === '' ? null : [];
  const elements = inner.split(';').map((e) => e.trim());
  return elements.some((e) => e === '') ? null : elements;
}
