import { z } from 'zod';
import { contract, type WireMeta } from '../contract-meta.ts';
import { MEDIA_FIELDS, acceptedTypes, type MediaField } from './media-fields.ts';
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
export const flag = (note?: string) =>
  contract(
    z.preprocess(
      (v) => (blank(v) || v === false ? '-' : v === true ? '+' : v),
      z.enum(['+', '-'], { error: "must be '+' (yes), '-' or blank (no)" }).transform((v) => v === '+'),
    ),
    { default: '-', description: `'+' means yes, blank or '-' means no${note ? `; ${note}` : ''}` },
  );

/**
 * Text or a list of texts: text is split on `&&&`, a list is taken item by item (numbers are taken
 * as their text). Items are trimmed and must not be empty.
 */
export const items = (max = 1000, itemMax = 65_535) =>
  contract(z.preprocess(
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
  ), { separator: '&&&' });

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

const FREETEXT_RULES = "keyword rules joined by &&&: alternatives joined by '|', optionally '>>>' and a weight (such as 'cell|cells>>>50%')";

const note = (description: string) => contract(optional(text(1, 65_535)), { description });
const title = () => optional(text(1, 255));
/** Said of a field: what it is, or which question types it applies to. */
const says = <T extends z.ZodType>(schema: T, description: string, meta: Omit<WireMeta, 'type'> = {}) => contract(schema, { ...meta, description });

/** The media fields, described for the contract; media.ts reads them (they may be uploaded files). */
const mediaFields = Object.fromEntries(
  (Object.keys(MEDIA_FIELDS) as MediaField[]).map((field) => [
    field,
    contract(z.unknown().optional(), {
      type: 'file',
      description: `\`<filename>=<data>\` where data is base64 content or a URL; ${field === 'hotspotImage' ? 'type hotspot; ' : ''}${acceptedTypes(field)}`,
    }),
  ]),
) as Record<MediaField, z.ZodOptional<z.ZodUnknown>>;

/**
 * POST `question`, every documented field in camelCase (the REST router converts snake_case).
 * The media fields are taken as they come and read by media.ts: they may be uploaded files.
 */
export const questionInput = z.object({
  id: externalId(),
  type: keyword(QUESTION_TYPES, false),
  content: says(text(1, 65_535), 'the question text'),
  answer: says(items().refine((a) => a.length > 0, 'must not be empty'), 'answers or true statements'),
  path: says(optional(text(1, 255)), 'storage folder of the personal question base', { default: '/API' }),
  quiz: says(optional(code()), 'Quiz set the question is added to'),
  /** Kept as given: '' and `none` remove the question from its organization. */
  organization: contract(z.preprocess(asText, z.string({ error: 'must be an identification string' }).max(64)).optional(), {
    format: 'code',
    description: 'same rules as for exams; `none` or empty removes an existing question from its organization, only by owner or administrator',
  }),
  answerOrder: flag(),
  answerHide: flag(),
  answerIndefinite: flag(),
  answerLabel: says(optional(items(1000, 255)), 'labels for the inputs; implies answer_order yes'),
  answerRequire: says(optional(int(1, 1_000_000)), 'number of answers needed for full score; not for choice and free-text'),
  answerFormat: says(
    optional(
      z.preprocess(
        asText,
        z
          .string()
          .regex(/^(normal|code(:[A-Za-z0-9+#._-]{1,32})?)$/i, "must be 'normal', 'code' or 'code:<language>'")
          .transform((s) => s.replace(/^[a-z]+/i, (k) => k.toLowerCase())),
      ),
    ),
    'free-text only; `normal`, or `code` optionally with `:<language>`',
    { default: 'normal' },
  ),
  questionFormat: contract(optional(keyword(['NORMAL', 'LATEX', 'LONG'], true)), { default: 'NORMAL' }),
  subject: title(),
  category: title(),
  mainCategory: title(),
  difficulty: says(optional(int(0, 5)), '0 unclassified, 1 very easy to 5 very difficult', { default: 0 }),
  options: says(optional(items()), 'incorrect options or false statements'),
  optionsFix: says(
    optional(
      z.preprocess(
        asText,
        z
          .string()
          .regex(/^\s*(all|abc|answers|(first|last)\s*:\s*\d{1,6})\s*$/i, "must be 'all', 'abc', 'answers', 'first:N' or 'last:N'")
          .transform((s) => s.replace(/\s+/g, '').toLowerCase()),
      ),
    ),
    'all / abc / first:N / last:N / answers',
  ),
  optionsOrder: says(optional(items(2000, 32)), 'explicit order with references ANSWER:N, OPTION:N, OPTION_NONE:N; every answer and option exactly once'),
  ai: contract(
    z
      .unknown()
      .optional()
      .transform((v) => v !== undefined && v !== null),
    { type: 'string', description: 'any value marks the question as AI generated' },
  ),
  tags: says(optional(items(100, 255)), 'user-defined tags registered beforehand'),
  label: says(optional(items(100, 64)), 'instance-level labels'),
  source: note('attribution'),
  note: note('shown to test takers below the question'),
  privateNote: note('hidden from test takers'),
  hint: says(optional(items(100)), 'guiding hints, shown one at a time, not to test takers in exam mode'),
  explanation: note('shown under the answer on the results page, no LaTeX'),
  solution: says(optional(items(100)), 'steps, not to test takers in exam mode'),
  hintPenalty: says(optional(penalty()), 'form `<MODE>:<percent>`, MODE EACH (for every hint shown) or ONCE; shown in sample usages'),
  solutionPenalty: says(optional(penalty()), 'form `<MODE>:<percent>`, MODE EACH (for every solution step shown) or ONCE; shown in sample usages'),
  points: says(optional(float(0, 1_000_000)), 'shown in sample usages'),
  parameters: says(optional(items(100, 255)), 'entries of the form `{name; TYPE; min; max}`; shown in sample usages'),
  decimals: says(optional(int(0, 10)), 'for numerical, expression, matrix, matrix:expression, set', { default: 2 }),
  tolerance: says(
    optional(parsed(parseTolerance, 'must be <TYPE> or <TYPE>:<value> with TYPE ABSOLUTE, RELATIVE, QUOTIENT or QUOTIENT2 (the last two optionally :SYNCED)')),
    '`<type>` or `<type>:<value>`; ABSOLUTE, RELATIVE, QUOTIENT, QUOTIENT2, the last two optionally with `:SYNCED`',
  ),
  datetimePrecision: says(optional(keyword(['YEAR', 'MONTH', 'DAY'], true)), 'date/time only', { default: 'DAY' }),
  datetimeRange: flag('date/time only'),
  numericalRange: flag('numerical only: answers are intervals such as [1;2]'),
  maximumChoices: says(optional(int(1, 1000)), 'multiple-choice only'),
  grouping: says(optional(int(1, 2_147_483_647)), 'choice or multiple-choice; incorrect options drawn from other questions with the same grouping number'),
  /** '+' (true) or '-' (false) switches the third option; a list names the statements whose right mark is the third one. */
  truefalseThirdOptions: says(
    optional(items().transform((list) => (list.length === 1 && (list[0] === '+' || list[0] === '-') ? list[0] === '+' : list))),
    "true/false only; '+' or '-' switches the third option on or off, a list names the statements whose right mark is the third one",
  ),
  truefalseThirdOptionsLabel: says(title(), 'true/false only; the label of the third option'),
  freetextCharacters: says(optional(int(1, 1_000_000)), 'free-text only'),
  freetextWords: says(optional(int(1, 100_000)), 'free-text only'),
  freetextRules: says(optional(parsed((s) => (parseFreeTextRules(s) ? s : null), `must be ${FREETEXT_RULES}`)), `free-text only; ${FREETEXT_RULES}`),
  fileCount: says(optional(int(1, 25)), 'type file only', { default: 1 }),
  fileTypes: says(optional(fileTypes()), 'type file only; extensions separated by commas or &&&; any type if unset'),
  hotspotZones: contract(optional(zones()), { type: 'json', description: 'type hotspot; zone geometry as the question editor writes it (JSON, or text); best authored there' }),
  ...mediaFields,
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
