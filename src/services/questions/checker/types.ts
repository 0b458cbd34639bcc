/**
 * The answer checker's vocabulary. The checker is pure: the question storage turns the POST
 * `question` fields into a CheckableQuestion, the exam code passes what a test taker submitted, and
 * the checker returns a score. Nothing here reads a database or the clock.
 */

export const QUESTION_TYPES = [
  'generic',
  'text',
  'numerical',
  'date/time',
  'expression',
  'choice',
  'multiple-choice',
  'order',
  'grouping',
  'pairing',
  'matrix:generic',
  'matrix',
  'matrix:expression',
  'set',
  'set:text',
  'true/false',
  'free-text',
  'file',
  'hotspot',
  'reading',
] as const;

export type QuestionType = (typeof QUESTION_TYPES)[number];

export const TOLERANCE_TYPES = ['ABSOLUTE', 'RELATIVE', 'QUOTIENT', 'QUOTIENT2'] as const;
export type ToleranceType = (typeof TOLERANCE_TYPES)[number];

/**
 * A numerical tolerance, as parsed from `<TYPE>` or `<TYPE>:<value>` (see parseTolerance).
 * value: ABSOLUTE an absolute difference; RELATIVE a fraction (5% is 0.05); QUOTIENT the largest
 * scale factor (>= 1); QUOTIENT2 the largest power of ten (whole number >= 0). Without a value the
 * defaults of numberMatches apply. synced: QUOTIENT and QUOTIENT2 only, one factor for all inputs.
 */
export interface Tolerance {
  type: ToleranceType;
  value?: number;
  synced?: boolean;
}

export type DatetimePrecision = 'YEAR' | 'MONTH' | 'DAY';

/** A keyword rule of a free-text question (see parseFreeTextRules). */
export interface FreeTextRule {
  /** Alternatives: the rule matches when any of them occurs in the text as whole words. */
  keywords: string[];
  /** Fraction of the points the rule gives (negative takes away); unset: shares what is left of 1. */
  weight?: number;
}

/** A question as the checker needs it, normalized by the storage from the POST `question` fields. */
export interface CheckableQuestion {
  type: QuestionType;
  /** `answer`: answers, true statements, pairs as 'a>>>b' (grouping: 'group>>>item'), or matrix text. */
  answers: string[];
  /** `options`: incorrect options, false statements, grouping distractor items. */
  options: string[];
  /** answer_order '+': several inputs, each compared with the answer at its position. */
  answerOrder?: boolean;
  /** answer_label: labels of the inputs; present and non-empty implies answerOrder. */
  answerLabels?: string[];
  /** answer_require: units needed for full score (inputs, selections, statements, pairs, items, elements). */
  answerRequire?: number;
  /** decimals (default 2): numerical, expression, matrix, matrix:expression, set. */
  decimals?: number;
  tolerance?: Tolerance;
  /** date/time only, default DAY. */
  datetimePrecision?: DatetimePrecision;
  /** date/time only: each answer is a range 'from;to' (or the two answers are from and to). */
  datetimeRange?: boolean;
  /** true/false: the third mark ('unknown') may be given. */
  truefalseThirdOption?: boolean;
  /** true/false: statements whose correct mark is the third one (enables the third mark). */
  truefalseThirdStatements?: string[];
  /** multiple-choice: more selections than this score 0. */
  maximumChoices?: number;
  /** free-text keyword rules for the provisional score. */
  freetextRules?: FreeTextRule[];
  /** free-text limits; exceeding them is reported in details, it does not change the score. */
  freetextCharacters?: number;
  freetextWords?: number;
  /** Full points of the question (default 1). */
  points?: number;
}

export type Scalar = string | number | boolean | null | undefined;

/**
 * What a test taker submitted. Per type:
 * - generic, text, numerical, date/time, expression: a string (several inputs: a list, or one
 *   string joined with &&&); numerical also takes numbers.
 * - choice: one selection; multiple-choice: a list of selections. A selection is the option text,
 *   a reference 'ANSWER:N' / 'OPTION:N' (1-based, as in options_order) or a number: the 0-based index
 *   in the answers followed by the options.
 * - order: the items in the chosen sequence (texts, 'ANSWER:N' references or 0-based answer indexes).
 * - true/false: a list of marks in the order answers, options, third statements; or an object
 *   {statement: mark}, the statement by text or 'ANSWER:N' / 'OPTION:N' / 'THIRD:N'. Marks
 *   (case-insensitive): true, 'true', 't', '+', 'yes', 'y'; false, 'false', 'f', '-', 'no', 'n';
 *   'unknown', 'third', '?' for the third option; null or '' leaves a statement unmarked.
 * - pairing, grouping: a list of 'a>>>b' strings or [a, b] tuples, or an object {a: b} (grouping:
 *   {group: [items]}); one string joined with &&& also works.
 * - set, set:text: a list of elements, or a string '[a;b;c]'.
 * - matrix types: matrix text '[a;b|c;d]', or a list of rows (lists of cells).
 * - free-text: the text. file, hotspot: anything the storage records (scored by a person).
 */
export type Response =
  | Scalar
  | readonly Scalar[]
  | readonly (readonly Scalar[])[]
  | { readonly [key: string]: Scalar | readonly Scalar[] };

export type Grading = 'auto' | 'semi-automatic' | 'manual' | 'none';

export type CheckReason =
  /** Nothing was submitted: scored 0 for every scored type, nothing to review. */
  | 'empty'
  /** The response could not be read (wrong shape, not a number, not a date, bad syntax). */
  | 'malformed'
  /** The stored answer could not be read; the storage should have refused it. */
  | 'invalid-question'
  /** Matrix dimensions differ from the answer. */
  | 'wrong-size'
  /** multiple-choice: an incorrect option was selected; set: an element not in the answer. */
  | 'wrong-selection'
  /** choice: more than one selection; multiple-choice: more than maximumChoices. */
  | 'too-many-selections'
  /** reading. */
  | 'not-scored'
  /** free-text, file, hotspot: a person decides. */
  | 'review';

export interface FreeTextDetails {
  characters: number;
  words: number;
  /** Indexes of the rules that matched. */
  matchedRules: number[];
  /** The text is longer than freetextCharacters or freetextWords. */
  overLimit: boolean;
}

export interface CheckDetails {
  /** Units counted correct: inputs, selections, statements, pairs, items, elements or cells. */
  correctUnits?: number;
  /** Units needed for full score (answer_require or the type's default). */
  requiredUnits?: number;
  /** Per unit, right or not: per input (ordered: per answer position), selection, statement, pair, item or cell. */
  marks?: boolean[];
  reason?: CheckReason;
  freeText?: FreeTextDetails;
}

export interface CheckResult {
  /** Fraction of the full points, 0..1 (free-text: provisional). */
  score: number;
  /** Fully correct; null while a person still has to decide, or when not scored. */
  correct: boolean | null;
  grading: Grading;
  /** score × pointsMaximum, rounded to 6 decimals. */
  points: number;
  /** question.points (default 1); 0 for reading. */
  pointsMaximum: number;
  details: CheckDetails;
}
