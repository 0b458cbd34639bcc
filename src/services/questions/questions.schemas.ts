import { z } from 'zod';
import { contract } from '../contract-meta.ts';
import { code, externalId, float, int, obeysInputRules, text } from '../validation.ts';
import { pageWindow, paging } from '../paging.ts';
import { QUESTION_TYPES, parseFreeTextRules, parseTolerance, splitList } from './answer-checker.ts';

/**
 * Inputs of the question endpoints. POST `question` takes every field the contract shows; the
 * shapes of single fields are here, the rules between fields (which type a field applies to,
 * answers against the type, references between answers and options) in question-input.ts.
 */

export { pageWindow, paging };

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const asText = (v: unknown) => (typeof v === 'number' ? String(v) : v);

/** Optional: blank text from a form counts as not given. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (blank(v) ? undefined : v), schema.optional());

/** '+' means yes; blank or '-' no (the default). JSON bodies may send true / false. */
export const flag = () =>
  z.preprocess(
    (v) => (blank(v) ? false : v === '+' ? true : v === '-' ? false : v),
    z.boolean({ error: "must be '+' (yes), '-' or blank (no)" }),
  );

/**
 * Text or a list of texts: text is split on `&&&`, a list is taken item by item (numbers are taken
 * as their text). Items are trimmed and must not be empty.
 */
export const items = (max = 1000, itemMax = 65_535) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? splitList(v) : Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x.trim() : asText(x))) : asText(v)),
    z
      .array(z.unknown(), { error: 'must be text or a list of texts' })
      .max(max, `must have at most ${max} items`)
      // Checked as a whole, so the refusal names the field rather than a position in it.
      .superRefine((list, ctx) => {
        const bad = list.findIndex((x) => typeof x !== 'string' || x === '' || x.length > itemMax);
        if (bad < 0) return;
        const item = list[bad];
        const rule = typeof item !== 'string' ? 'must be text' : item === '' ? 'must not be empty' : `must be at most ${itemMax} characters`;
        ctx.addIssue({ code: 'custom', message: `item ${bad + 1} ${rule}` });
      })
      .transform((list) => list as string[]),
  );

/** Text read by `read` (a parser of the answer checker); null from it is the rule broken. */
const parsed = <T>(read: (s: string) => T | null, rule: string) =>
  z.preprocess(
    asText,
    z.string({ error: rule }).transform((s, ctx) => {
      const value = read(s.trim());
      if (value === null) {
        ctx.issues.push({ code: 'custom', message: rule, input: s });
        return z.NEVER;
      }
      return value;
    }),
  );

/** A keyword of a fixed set, case-insensitive, as its upper- or lower-case form. */
const keyword = <const T extends readonly [string, ...string[]]>(values: T, upper: boolean) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (upper ? v.trim().toUpperCase() : v.trim().toLowerCase()) : v),
    z.enum(values, { error: `must be one of ${values.join(', ')}` }),
  );

export const penaltyModes = ['EACH', 'ONCE'] as const;
export interface Penalty {
  mode: (typeof penaltyModes)[number];
  percent: number;
}

/** `<MODE>:<percent>`: EACH takes the percent off for every hint (solution step) shown, ONCE once. */
function readPenalty(s: string): Penalty | null {
  const m = /^(EACH|ONCE)\s*:\s*(\d{1,3}(?:\.\d{1,2})?)\s*%?$/i.exec(s);
  if (!m || Number(m[2]) > 100) return null;
  return { mode: m[1]!.toUpperCase() as Penalty['mode'], percent: Number(m[2]) };
}
const penalty = () => parsed(readPenalty, 'must be <MODE>:<percent> with MODE EACH or ONCE and a percent from 0 to 100 (such as EACH:10)');

/** Extensions without the dot, lower-case, without repeats; commas or `&&&` between them. */
const fileTypes = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.split(/,|&&&/).map((s) => s.trim()).filter(Boolean) : v),
    z
      .array(z.unknown(), { error: 'must be file extensions such as pdf, docx (commas or &&& between them)' })
      .max(100, 'must have at most 100 extensions')
      .refine((list) => list.every((e) => typeof e === 'string' && /^\.?[A-Za-z0-9]{1,16}$/.test(e)), 'must be file extensions such as pdf, docx (commas or &&& between them)')
      .transform((list) => [...new Set((list as string[]).map((e) => e.replace(/^\./, '').toLowerCase()))]),
  );

/** Zone geometry as authored by the question editor: JSON text, a JSON value, or plain text. */
const zones = () =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    },
    z
      .union([z.string().max(65_535), z.array(z.unknown()).max(1000), z.record(z.string(), z.unknown())], { error: 'must be zone text or JSON' })
      .superRefine(obeysInputRules),
  );

const note = () => optional(text(1, 65_535));
const title = () => optional(text(1, 255));

/**
 * POST `question`, every documented field in camelCase (the REST router converts snake_case).
 * Media fields are read separately (media.ts): they may be uploaded files.
 */
export const questionInput = z.object({
  id: externalId(),
  type: keyword(QUESTION_TYPES, false),
  content: text(1, 65_535),
  answer: items().refine((a) => a.length > 0, 'must not be empty'),
  path: optional(text(1, 255)),
  quiz: optional(code()),
  /** Kept as given: '' and `none` remove the question from its organization. */
  organization: z.preprocess(asText, z.string({ error: 'must be an identification string' }).max(64)).optional(),
  answerOrder: flag(),
  answerHide: flag(),
  answerIndefinite: flag(),
  answerLabel: optional(items(1000, 255)),
  answerRequire: optional(int(1, 1_000_000)),
  answerFormat: optional(
    z.preprocess(
      asText,
      z
        .string()
        .regex(/^(normal|code(:[A-Za-z0-9+#._-]{1,32})?)$/i, "must be 'normal', 'code' or 'code:<language>'")
        .transform((s) => s.replace(/^[a-z]+/i, (k) => k.toLowerCase())),
    ),
  ),
  questionFormat: optional(keyword(['NORMAL', 'LATEX', 'LONG'], true)),
  subject: title(),
  category: title(),
  mainCategory: title(),
  difficulty: optional(int(0, 5)),
  options: optional(items()),
  optionsFix: optional(
    z.preprocess(
      asText,
      z
        .string()
        .regex(/^\s*(all|abc|answers|(first|last)\s*:\s*\d{1,6})\s*$/i, "must be 'all', 'abc', 'answers', 'first:N' or 'last:N'")
        .transform((s) => s.replace(/\s+/g, '').toLowerCase()),
    ),
  ),
  optionsOrder: optional(items(2000, 32)),
  /** Any value marks the question as AI generated. */
  ai: z.unknown().optional().transform((v) => v !== undefined && v !== null),
  tags: optional(items(100, 255)),
  label: optional(items(100, 64)),
  source: note(),
  note: note(),
  privateNote: note(),
  hint: optional(items(100)),
  explanation: note(),
  solution: optional(items(100)),
  hintPenalty: optional(penalty()),
  solutionPenalty: optional(penalty()),
  points: optional(float(0, 1_000_000)),
  parameters: optional(items(100, 255)),
  decimals: optional(int(0, 10)),
  tolerance: optional(
    parsed(parseTolerance, 'must be <TYPE> or <TYPE>:<value> with TYPE ABSOLUTE, RELATIVE, QUOTIENT or QUOTIENT2 (the last two optionally :SYNCED)'),
  ),
  datetimePrecision: optional(keyword(['YEAR', 'MONTH', 'DAY'], true)),
  datetimeRange: flag(),
  numericalRange: flag(),
  maximumChoices: optional(int(1, 1000)),
  grouping: optional(int(1, 2_147_483_647)),
  /** '+' (true) or '-' (false) switches the third option; a list names the statements whose right mark is the third one. */
  truefalseThirdOptions: optional(items().transform((list) => (list.length === 1 && (list[0] === '+' || list[0] === '-') ? list[0] === '+' : list))),
  truefalseThirdOptionsLabel: title(),
  freetextCharacters: optional(int(1, 1_000_000)),
  freetextWords: optional(int(1, 100_000)),
  freetextRules: optional(
    parsed(
      (s) => (parseFreeTextRules(s) ? s : null),
      "must be keyword rules joined by &&&: alternatives joined by '|', optionally '>>>' and a weight (such as 'cell|cells>>>50%')",
    ),
  ),
  fileCount: optional(int(1, 25)),
  fileTypes: optional(fileTypes()),
  hotspotZones: optional(zones()),
});
export type QuestionInput = z.output<typeof questionInput>;

/** Where an external id is looked up: a folder of the caller (path) or a Quiz set (quiz). */
export const questionLookup = z.object({ id: contract(externalId(), { description: 'external identifier' }), path: optional(text(1, 255)), quiz: optional(code()) });
export const questionRef = z.object({ question: code() });
export const setExternalId = z.object({ question: code(), id: externalId() });

export const skillInput = z.object({
  identifier: z.preprocess(asText, z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, 'must be 1-64 letters, digits, _ . : -')),
  title: text(1, 255),
  description: text(0, 1024).nullish(),
});
export const skillUpdate = z.object({
  skill: code(),
  title: text(1, 255).optional(),
  description: text(0, 1024).nullish(),
});
export const skillRef = z.object({ skill: code() });
export const skillLink = z.object({ question: code(), skill: code() });
