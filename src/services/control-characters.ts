/**
 * Text may not carry control characters, except tab, line feed and carriage return. PostgreSQL
 * refuses NUL in text and in JSON, and none of them has a meaning in a name, an identifier or a
 * question; refusing them at the edge of both faces keeps them out of every service.
 */
const CONTROL_CHARACTER = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/;
const ANY_CONTROL_CHARACTER = /[\x00-\x1f\x7f-\x9f]/g;

export const CONTROL_CHARACTER_RULE = 'must not contain control characters (tab, line feed and carriage return aside)';

export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

export interface ControlCharacterFinding {
  /** Keys and list positions from the value given down to the offending text. */
  path: (string | number)[];
  /** The offending text is the key at the end of `path`, not a value. */
  inKey: boolean;
}

interface Step {
  value: unknown;
  key?: string | number;
  parent?: Step;
}

function pathOf(step: Step, last?: string): (string | number)[] {
  const path: (string | number)[] = last === undefined ? [] : [last];
  for (let s: Step | undefined = step; s?.key !== undefined; s = s.parent) path.push(s.key);
  return path.reverse();
}

/**
 * The first text holding a control character inside a value as parsed from a request (JSON,
 * forms, GraphQL variables): strings, object keys, and the names of uploaded files. Walks with
 * its own stack and parent links, so deeply nested input neither exhausts the call stack nor
 * costs more than one visit per value.
 */
export function findControlCharacter(value: unknown): ControlCharacterFinding | undefined {
  const stack: Step[] = [{ value }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const v = step.value;
    if (typeof v === 'string') {
      if (hasControlCharacter(v)) return { path: pathOf(step), inKey: false };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: step });
    } else if (v instanceof Blob) {
      if ('name' in v && typeof v.name === 'string' && hasControlCharacter(v.name)) return { path: pathOf(step), inKey: false };
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (const [key] of entries) if (hasControlCharacter(key)) return { path: pathOf(step, key), inKey: true };
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], key: entries[i]![0], parent: step });
    }
  }
  return undefined;
}

/** A name that may hold control characters, readable in a message: `\u0000` instead of the character. */
export function printable(name: string): string {
  return name.replace(ANY_CONTROL_CHARACTER, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
