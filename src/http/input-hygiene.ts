import { ArgumentError } from '../errors.ts';
import { CREDENTIAL_ARGUMENTS } from '../auth/authenticate.ts';
import { isCustomFieldPattern } from '../rest/json-schema.ts';
import type { Operation } from '../rest/operations.ts';
import { findInputProblem, LONE_SURROGATE, printable, textProblem } from '../services/input-rules.ts';

/**
 * The input rule (input-rules.ts) an argument's value breaks, anywhere inside a JSON value too
 * (nested positions are named in the rule, so that the argument itself stays the contract's name).
 */
function brokenRule(name: string, value: unknown): string | undefined {
  const found = findInputProblem(value);
  if (!found) return undefined;
  return found.path.length ? `${found.rule} (at ${[name, ...found.path].map((p) => printable(String(p))).join('.')})` : found.rule;
}

/** Whether the operation takes an argument of this name (`version` every one does). */
function takes(operation: Operation, name: string): boolean {
  return name === 'version' || operation.arguments.some((a) => a.name === name || (isCustomFieldPattern(a) && name.startsWith('custom_')));
}

/**
 * The arguments of a REST call as the operation gets them. One the operation takes that breaks an
 * input rule refuses the call with 403 INVALID_ARGUMENT naming it, before the call authenticates,
 * so that nothing malformed reaches a query. One it does not take is ignored, like any unknown
 * argument: when it breaks a rule it is left out, so its text reaches nothing either. Credentials
 * go on to authenticate, which refuses one that breaks a rule like any wrong credential (401).
 */
export function checkedArguments(args: Record<string, unknown>, operation: Operation): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    // A name the operation takes holds no control character: a name that does is an unknown one.
    const rule = CREDENTIAL_ARGUMENTS.has(name) ? undefined : (textProblem(name) ?? brokenRule(name, value));
    if (!rule) kept[name] = value;
    else if (takes(operation, name)) throw new ArgumentError(name, rule);
  }
  return kept;
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
