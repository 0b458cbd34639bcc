import { ArgumentError } from '../errors.ts';
import type { HeaderReader } from '../auth/authenticate.ts';
import { CONTROL_CHARACTER_RULE, findInputProblem, hasControlCharacter, LONE_SURROGATE, printable } from '../services/input-rules.ts';

/** The credential forms of the contract that arrive as headers; their text reaches the database. */
export const CREDENTIAL_HEADERS = Object.freeze(['authorization', 'service-api-app', 'service-api-secret', 'service-api-assume'] as const);

/** The first credential header holding a control character. */
export function uncleanHeader(headers: HeaderReader): string | undefined {
  return CREDENTIAL_HEADERS.find((name) => {
    const value = headers.get(name);
    return typeof value === 'string' && hasControlCharacter(value);
  });
}

/**
 * The argument breaking an input rule (input-rules.ts) in its value, its name or anywhere inside
 * a JSON value, with the rule (nested positions are named in the rule, so that the argument
 * itself stays the contract's name).
 */
export function uncleanArgument(args: Record<string, unknown>): { argument: string; rule: string } | undefined {
  const found = findInputProblem(args);
  if (!found) return undefined;
  const [top, ...inside] = found.path.map((p) => printable(String(p)));
  if (found.inKey && inside.length === 0) return { argument: top!, rule: 'is not a valid argument name: it contains a control character' };
  return { argument: top!, rule: inside.length ? `${found.rule} (at ${[top, ...inside].join('.')})` : found.rule };
}

/**
 * The REST face refuses such input with 403 INVALID_ARGUMENT before it authenticates, so that
 * nothing malformed reaches a query, credentials included.
 */
export function assertCleanInput(args: Record<string, unknown>, headers: HeaderReader): void {
  const problem = uncleanArgument(args);
  if (problem) throw new ArgumentError(problem.argument, problem.rule);
  const header = uncleanHeader(headers);
  if (header) throw new ArgumentError(header, CONTROL_CHARACTER_RULE);
}

/** A percent-encoded path segment; malformed encoding reads as no name at all (an unknown endpoint). */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

/** Whether the percent-escapes of a form component spell UTF-8 (a `%` not followed by two hex digits is taken literally, as URLSearchParams does). */
function utf8Escapes(component: string): boolean {
  try {
    decodeURIComponent(component.replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
    return true;
  } catch {
    return false;
  }
}

/**
 * A urlencoded form (or query string) read as URLSearchParams reads it, a repeated name keeping
 * its last value, except that a name or value whose percent-escapes are not UTF-8 (such as
 * `%ED%A0%80`, a surrogate encoded as if it were a character) carries a lone surrogate where
 * URLSearchParams would put U+FFFD, as Python's "surrogateescape" decoding does: the input rules
 * then refuse it, naming the argument, instead of the service storing altered text.
 */
export function formFields(text: string): Record<string, string> {
  // A body's bytes that are not UTF-8 arrive as lone surrogates (body-text.ts), which URLSearchParams
  // would also make U+FFFD: as an escape that is not UTF-8 they take the road below.
  if (!text.isWellFormed()) text = text.replace(LONE_SURROGATE, '%FF');
  const fields = Object.fromEntries(new URLSearchParams(text));
  if (!text.includes('%')) return fields;
  for (const pair of text.split('&')) {
    const eq = pair.indexOf('=');
    if (utf8Escapes(eq < 0 ? pair : pair.slice(0, eq)) && (eq < 0 || utf8Escapes(pair.slice(eq + 1)))) continue;
    for (const [name, value] of new URLSearchParams(pair)) {
      delete fields[name];
      fields[name.replaceAll('\ufffd', '\udcff')] = value.replaceAll('\ufffd', '\udcff');
    }
  }
  return fields;
}
