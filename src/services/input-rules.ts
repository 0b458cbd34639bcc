/**
 * Rules every piece of request input obeys, whatever the operation, checked at the edge of both
 * faces and again where JSON text is parsed:
 * - text carries no control characters except tab, line feed and carriage return: PostgreSQL
 *   refuses NUL in text and in JSON, and none of them has a meaning in a name, an identifier or a
 *   question;
 * - text is well-formed Unicode: a lone UTF-16 surrogate (JSON's `"\ud800"`, or invalid UTF-8 in
 *   a percent-encoded form) cannot be stored as it is, and would otherwise be altered to U+FFFD or
 *   refused by the database as an internal error;
 * - at most MAX_NESTING lists and objects sit inside each other: no documented value comes
 *   close, and deeper ones exhaust the call stack of JSON.stringify, zod and the database driver.
 */
const CONTROL_CHARACTER = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/;
const ANY_CONTROL_CHARACTER = /[\x00-\x1f\x7f-\x9f]/g;
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const MAX_NESTING = 32;
export const CONTROL_CHARACTER_RULE = 'must not contain control characters (tab, line feed and carriage return aside)';
export const NESTING_RULE = `must not nest more than ${MAX_NESTING} lists and objects inside each other`;

export const WELL_FORMED_RULE = 'must be well-formed Unicode text (no lone UTF-16 surrogates or invalid UTF-8)';

export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

/** The text rule a string breaks, if any. */
export function textProblem(text: string): string | undefined {
  if (CONTROL_CHARACTER.test(text)) return CONTROL_CHARACTER_RULE;
  return text.isWellFormed() ? undefined : WELL_FORMED_RULE;
}

export interface InputProblem {
  /** Keys and list positions from the value given down to the offending one. */
  path: (string | number)[];
  /** The offending text is the key at the end of `path`, not a value. */
  inKey: boolean;
  rule: string;
}

interface Step {
  value: unknown;
  depth: number;
  key?: string | number;
  parent?: Step;
}

function pathOf(step: Step, last?: string): (string | number)[] {
  const path: (string | number)[] = last === undefined ? [] : [last];
  for (let s: Step | undefined = step; s?.key !== undefined; s = s.parent) path.push(s.key);
  return path.reverse();
}

/**
 * The first problem inside a value as parsed from a request (JSON, forms, GraphQL variables):
 * in strings, object keys and the names of uploaded files, or in its depth. Walks with its own
 * stack and parent links, so that any input costs one visit per value and no recursion.
 */
export function findInputProblem(value: unknown): InputProblem | undefined {
  const stack: Step[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const v = step.value;
    if (typeof v === 'string') {
      const rule = textProblem(v);
      if (rule) return { path: pathOf(step), inKey: false, rule };
    } else if (v instanceof Blob) {
      const rule = 'name' in v && typeof v.name === 'string' ? textProblem(v.name) : undefined;
      if (rule) return { path: pathOf(step), inKey: false, rule };
    } else if (v !== null && typeof v === 'object') {
      if (step.depth >= MAX_NESTING) return { path: pathOf(step), inKey: false, rule: NESTING_RULE };
      const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((item, i) => [i, item]) : Object.entries(v);
      for (const [key] of entries) {
        const rule = typeof key === 'string' ? textProblem(key) : undefined;
        if (rule) return { path: pathOf(step, key as string), inKey: true, rule };
      }
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], key: entries[i]![0], parent: step, depth: step.depth + 1 });
    }
  }
  return undefined;
}

/** A name that may hold control characters or lone surrogates, readable in a message: `\u0000` instead of the character. */
export function printable(name: string): string {
  const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  const shown = name.replace(ANY_CONTROL_CHARACTER, escape);
  return shown.isWellFormed() ? shown : shown.replace(LONE_SURROGATE, escape);
}
