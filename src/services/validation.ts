import { z } from 'zod';
import { ArgumentError } from '../errors.ts';
import { findInputProblem } from './input-rules.ts';
import { contract } from './contract-meta.ts';

/**
 * Input primitives shared by every service. The REST contract sends every value as text, GraphQL
 * and JSON bodies send native values; each primitive accepts both and yields one typed value, so a
 * rule is written once and both faces get it.
 */

const isBlank = (v: unknown) => v === undefined || v === null;

/** Text: numbers and booleans from JSON bodies are taken as their text. */
function asText(v: unknown): unknown {
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
}

export function text(min = 0, max = 65535) {
  const rule = min === max ? `must be exactly ${min} characters` : `must be ${min} to ${max} characters`;
  return z.preprocess(asText, z.string({ error: 'must be text' }).min(min, rule).max(max, rule));
}

export function bool() {
  return z.preprocess(
    (v) => {
      if (typeof v === 'boolean') return v;
      const t = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim().toLowerCase() : v;
      if (t === 'true' || t === '1') return true;
      if (t === 'false' || t === '0') return false;
      return v;
    },
    z.boolean({ error: 'must be true or false' }),
  );
}

export function int(min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
  const range = `must be a whole number from ${min} to ${max}`;
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ error: 'must be a whole number' }).int('must be a whole number').min(min, range).max(max, range),
  );
}

export function float(min = -Infinity, max = Infinity) {
  const range = `must be a number from ${min} to ${max}`;
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    z.number({ error: "must be a number with '.' as decimal separator" }).min(min, range).max(max, range),
  );
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess(asText, z.enum(values, { error: `must be one of ${values.join(', ')}` }));
}

export function email() {
  return contract(z.preprocess(asText, z.email({ error: 'must be an email address (local-part@domain)' }).max(255)), { format: 'email' });
}

export function phone() {
  return contract(
    z.preprocess(
      asText,
      z.string().regex(/^\+\d{1,4}[ -]?\d[\d -]{3,18}\d$/, "must be a phone number written as '+prefix number'"),
    ),
    { format: 'phone' },
  );
}

export function url() {
  return contract(
    z.preprocess(
      asText,
      z
        .string()
        .max(2048)
        .regex(/^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+[^\s]*$/i, 'must be a URL (protocol://address)'),
    ),
    { format: 'url' },
  );
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:Z|\+00:00)?$/;

function validDate(y: number, m: number, d: number, h = 0, i = 0, s = 0): Date | undefined {
  const date = new Date(Date.UTC(y, m - 1, d, h, i, s));
  const same =
    date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && h < 24 && i < 60 && s < 60;
  return same ? date : undefined;
}

/** `YYYY-MM-DD`, as a Date at UTC midnight. */
export function date() {
  return contract(
    z.preprocess((v) => {
      if (v instanceof Date) return v;
      const m = typeof v === 'string' ? DATE.exec(v.trim()) : null;
      return (m && validDate(+m[1]!, +m[2]!, +m[3]!)) ?? v;
    }, z.date({ error: 'must be a date (YYYY-MM-DD)' })),
    { type: 'date' },
  );
}

/** `YYYY-MM-DD HH:ii:ss` in UTC. */
export function datetime() {
  return contract(
    z.preprocess((v) => {
      if (v instanceof Date) return v;
      const m = typeof v === 'string' ? DATETIME.exec(v.trim()) : null;
      return (m && validDate(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0))) ?? v;
    }, z.date({ error: 'must be a datetime (YYYY-MM-DD HH:ii:ss, UTC)' })),
    { type: 'datetime' },
  );
}

/** A comma-separated list (or a native array); blanks are dropped. `min` 0 lets an empty list clear a set. */
export function list<T extends z.ZodType>(item: T, max = 1000, min = 1) {
  return z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : v,
    z.array(item, { error: 'must be a comma-separated list' }).min(min, 'must not be empty').max(max, `must have at most ${max} items`),
  );
}

/**
 * JSON text (or a native JSON value from a JSON body or GraphQL variables). Only the value parsed
 * from text is held to the input rules here: a native value was checked at the edge of the face it
 * came through, and walking it again would cost as much as that check (a journey graph far over
 * its limits is refused in milliseconds).
 */
export function json() {
  return contract(
    z.preprocess(
      (v, ctx) => {
        if (typeof v !== 'string') return v;
        let parsed: unknown;
        try {
          parsed = JSON.parse(v) as unknown;
        } catch {
          return Symbol.for('invalid-json');
        }
        obeysInputRules(parsed, ctx);
        return parsed;
      },
      z.custom<unknown>((v) => v !== Symbol.for('invalid-json') && v !== undefined, 'must be valid JSON text'),
    ),
    { type: 'json' },
  );
}

/**
 * Parsed JSON text obeys the rules the edge of both faces checks on the request itself: escapes
 * such as `\u0000` and the depth of the value only exist once the text is parsed.
 */
export function obeysInputRules(value: unknown, ctx: Pick<z.RefinementCtx, 'addIssue'>): void {
  const problem = findInputProblem(value);
  const message = problem && (problem.path.length ? `${problem.rule} (at ${problem.path.join('.')})` : problem.rule);
  // Later checks of the value (its JSON length, its shape) must not see it: they could overflow.
  if (message) ctx.addIssue({ code: 'custom', message, continue: false });
}

/** Identification strings are opaque; only their length is checked here, existence by the service. */
export function code() {
  return contract(z.preprocess(asText, z.string({ error: 'must be an identification string' }).min(1, 'must not be empty').max(64, 'is not a valid identification string')), { format: 'code' });
}

/** External identifiers: 1-64 characters when set. */
export function externalId() {
  return text(1, 64);
}

/**
 * Validates raw input against a schema. The first problem becomes an ArgumentError naming the
 * argument (by its path) and the rule it breaks; a missing required argument has its own code.
 */
export function parseInput<S extends z.ZodType>(schema: S, raw: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = issue.path.map(String).join('.') || 'input';
  const top = issue.path[0];
  const missing = top !== undefined && isBlank(raw[String(top)]) && issue.path.length === 1;
  throw missing
    ? new ArgumentError(name, 'is required', 'MISSING_ARGUMENT')
    : new ArgumentError(name, issue.message, 'INVALID_ARGUMENT');
}
