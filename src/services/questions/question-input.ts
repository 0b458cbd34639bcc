import { ArgumentError } from '../../errors.ts';
import type { Tolerance } from './answer-checker.ts';
import {
  exactKey,
  parseDate,
  parseExpression,
  parseMatrix,
  parseNumber,
  parsePairs,
  parseSet,
  type DatetimePrecision,
  type QuestionType,
} from './answer-checker.ts';
import { parseDateAnswers } from './checker/datetime.ts';
import type { Penalty, QuestionInput } from './questions.schemas.ts';

/**
 * The rules of POST `question` between fields, applied to the shapes questions.schemas.ts read.
 * The result is what is stored: the columns, and `data` with every other field normalized. Each
 * refusal names the field at fault.
 */

/** A template parameter `{name; TYPE; min; max}`: a random value of TYPE between min and max. */
export interface Parameter {
  name: string;
  type: 'INT' | 'FLOAT';
  min: number;
  max: number;
}

/**
 * The stored `data` of a question: every field of POST `question` that has no column, by its
 * contract name in camelCase. Absent means not set; type-specific defaults (questionFormat,
 * decimals, datetimePrecision, fileCount) are stored explicitly where they apply.
 */
export interface QuestionData {
  answerOrder?: boolean;
  answerHide?: boolean;
  answerIndefinite?: boolean;
  answerLabel?: string[];
  answerRequire?: number;
  /** 'normal', 'code' or 'code:<language>'. */
  answerFormat?: string;
  questionFormat: 'NORMAL' | 'LATEX' | 'LONG';
  subject?: string;
  category?: string;
  mainCategory?: string;
  /** 'all', 'abc', 'answers', 'first:N' or 'last:N'. */
  optionsFix?: string;
  /** References ANSWER:N, OPTION:N, OPTION_NONE:N in display order. */
  optionsOrder?: string[];
  ai?: boolean;
  /** Tag identification strings. */
  tags?: string[];
  label?: string[];
  source?: string;
  note?: string;
  privateNote?: string;
  hint?: string[];
  explanation?: string;
  solution?: string[];
  hintPenalty?: Penalty;
  solutionPenalty?: Penalty;
  points?: number;
  parameters?: Parameter[];
  decimals?: number;
  /** In the answer checker's form. */
  tolerance?: Tolerance;
  datetimePrecision?: DatetimePrecision;
  datetimeRange?: boolean;
  numericalRange?: boolean;
  maximumChoices?: number;
  grouping?: number;
  truefalseThirdOption?: boolean;
  /** Statements whose right mark is the third option. */
  truefalseThirdStatements?: string[];
  truefalseThirdOptionsLabel?: string;
  freetextCharacters?: number;
  freetextWords?: number;
  /** The rule text, read by the checker's parseFreeTextRules. */
  freetextRules?: string;
  fileCount?: number;
  fileTypes?: string[];
  hotspotZones?: unknown;
  /** Media given as a URL: kept as a reference, never fetched. Uploaded media are QuestionMedia rows. */
  mediaLinks?: Record<string, { filename: string; url: string }>;
}

export interface NormalizedQuestion {
  externalId: string;
  type: QuestionType;
  content: string;
  answers: string[];
  options: string[];
  difficulty: number;
  path: string;
  quiz?: string;
  /** undefined: not given; null: remove from the organization. */
  organization?: string | null;
  /** Tags as given, resolved by the service. */
  tagRefs: string[];
  data: QuestionData;
}

export const TYPED: readonly QuestionType[] = ['generic', 'text', 'numerical', 'date/time', 'expression'];
const PICKED: readonly QuestionType[] = ['choice', 'multiple-choice', 'order', 'true/false', 'pairing', 'grouping'];
const WITH_OPTIONS: readonly QuestionType[] = ['choice', 'multiple-choice', 'true/false', 'pairing', 'grouping'];
const NUMERIC: readonly QuestionType[] = ['numerical', 'expression', 'matrix', 'matrix:expression', 'set'];
const MATRIX: readonly QuestionType[] = ['matrix:generic', 'matrix', 'matrix:expression'];
/** Types whose answer_require makes no sense: one selection, semi-automatic or not auto-scored. */
const NO_REQUIRE: readonly QuestionType[] = ['choice', 'free-text', 'reading', 'file', 'hotspot'];

/** Fields that apply to some types only; given for another type they are refused. */
const ONLY: Partial<Record<keyof QuestionInput, readonly QuestionType[]>> = {
  answerLabel: TYPED,
  answerFormat: ['free-text'],
  options: WITH_OPTIONS,
  optionsFix: PICKED,
  optionsOrder: PICKED,
  decimals: NUMERIC,
  tolerance: NUMERIC,
  datetimePrecision: ['date/time'],
  datetimeRange: ['date/time'],
  numericalRange: ['numerical'],
  maximumChoices: ['multiple-choice'],
  grouping: ['choice', 'multiple-choice'],
  truefalseThirdOptions: ['true/false'],
  truefalseThirdOptionsLabel: ['true/false'],
  freetextCharacters: ['free-text'],
  freetextWords: ['free-text'],
  freetextRules: ['free-text'],
  fileCount: ['file'],
  fileTypes: ['file'],
  hotspotZones: ['hotspot'],
};

/** Refused with the field named; `code` ARGUMENT_CONFLICT for a field that does not fit the type. */
const refuse = (field: string, rule: string, code?: string): never => {
  throw new ArgumentError(field, rule, code);
};

const given = (v: unknown) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0);

/** `/API`, `/Math/Algebra`: from the root, no empty segments; a trailing '/' is dropped. */
export function normalizePath(path: string, field = 'path'): string {
  const p = path.trim().replace(/(.)\/+$/, '$1');
  if (!p.startsWith('/')) refuse(field, "must be a folder path starting with '/' (such as /API)");
  if (/\/\//.test(p) || /[\u0000-\u001f\u007f]/.test(p)) refuse(field, "must not have empty folder names ('//') or control characters");
  return p;
}

function checkAnswers(type: QuestionType, answers: string[], data: QuestionData): void {
  const bad = (rule: string) => refuse('answer', rule);
  switch (type) {
    case 'numerical': {
      const numbers = answers.map(parseNumber);
      if (numbers.some((n) => n === null)) bad('must be numbers: decimals, fractions (3/4), constants (2pi) or intervals ([1;2])');
      if (data.numericalRange && numbers.some((n) => n!.kind !== 'interval')) bad("must be intervals such as [1;2] when numerical_range is '+'");
      return;
    }
    case 'date/time':
      if (data.datetimeRange) {
        if (!parseDateAnswers(answers, true)) bad("must be ranges 'from;to' (or two dates, from and to) when datetime_range is '+'");
      } else if (answers.some((a) => !parseDate(a))) bad('must be dates (YYYY-MM-DD, YYYY-MM or YYYY; day first as DD.MM.YYYY)');
      return;
    case 'expression':
      if (answers.some((a) => !parseExpression(a))) bad('must be mathematical expressions (such as 2x+1 or sqrt(2)/2)');
      return;
    case 'choice':
      if (answers.length !== 1) bad('must be exactly one answer: a choice question has one correct answer');
      return;
    case 'order':
      if (answers.length < 2) bad('must have at least two items to put in order');
      return;
    case 'pairing':
    case 'grouping':
      if (!parsePairs(answers)) bad(`must be pairs '${type === 'grouping' ? 'group>>>item' : 'left>>>right'}' joined by &&&`);
      return;
    case 'matrix:generic':
    case 'matrix':
    case 'matrix:expression': {
      const matrices = answers.map((a) => parseMatrix(a));
      if (matrices.some((m) => m === null)) bad("must be matrices: '[' ']' around, ';' between elements, '|' between rows (such as [1;2|3;4])");
      const cells = matrices.flat(2) as string[];
      if (type === 'matrix' && cells.some((c) => !parseNumber(c))) bad('must have numbers in every cell');
      if (type === 'matrix:expression' && cells.some((c) => !parseExpression(c))) bad('must have an expression in every cell');
      return;
    }
    case 'set':
    case 'set:text': {
      const sets = answers.map(parseSet);
      if (sets.some((s) => s === null) || sets.flat().length === 0) bad("must be sets: elements joined by ';' (such as [1;2;3])");
      if (type === 'set' && (sets.flat() as string[]).some((e) => !parseNumber(e))) bad('must be sets of numbers');
      return;
    }
    default:
  }
}

/** The units answer_require counts: statements, cells, set elements, or answers. */
function unitCount(type: QuestionType, answers: string[], options: string[], third: string[]): number {
  if (type === 'true/false') return answers.length + options.length + third.length;
  // Alternative matrices may differ in size: the requirement must be reachable with each.
  if (MATRIX.includes(type)) return Math.min(...answers.map((a) => parseMatrix(a)!.flat().length));
  if (type === 'set' || type === 'set:text') return answers.flatMap((a) => parseSet(a)!).length;
  return answers.length;
}

/** Items the taker picks from must be told apart: no text twice among answers, options and third statements. */
function checkDistinct(lists: Array<[string, string[]]>): void {
  const seen = new Set<string>();
  for (const [field, list] of lists) {
    for (const item of list) {
      const key = exactKey(item);
      if (seen.has(key)) refuse(field, `has '${item}' more than once among the answers and options`);
      seen.add(key);
    }
  }
}

function checkOptionsOrder(refs: string[], answers: number, options: number): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    const m = /^(ANSWER|OPTION|OPTION_NONE):(\d{1,6})$/i.exec(ref);
    if (!m) refuse('optionsOrder', `has '${ref}'; references are ANSWER:N, OPTION:N or OPTION_NONE:N`);
    const kind = m![1]!.toUpperCase();
    const n = Number(m![2]);
    const size = kind === 'ANSWER' ? answers : options;
    if (n < 1 || n > size) refuse('optionsOrder', `has '${ref}', but there ${size === 1 ? 'is 1' : `are ${size}`} ${kind === 'ANSWER' ? 'answer' : 'option'}${size === 1 ? '' : 's'}`);
    // OPTION_NONE:N names option N too (shown as a "none of these" choice): one place per option.
    const key = `${kind === 'ANSWER' ? 'ANSWER' : 'OPTION'}:${n}`;
    if (seen.has(key)) refuse('optionsOrder', `names ${key} more than once`);
    seen.add(key);
    out.push(`${kind}:${n}`);
  }
  if (seen.size !== answers + options) refuse('optionsOrder', 'must name every answer and every option exactly once');
  return out;
}

function readParameters(entries: string[]): Parameter[] {
  const names = new Set<string>();
  return entries.map((entry) => {
    const m = /^\{\s*([A-Za-z][A-Za-z0-9_]{0,31})\s*;\s*([A-Za-z]+)\s*;\s*(-?\d+(?:\.\d+)?)\s*;\s*(-?\d+(?:\.\d+)?)\s*\}$/.exec(entry);
    if (!m) refuse('parameters', `has '${entry}'; entries are {name; TYPE; min; max} joined by &&&`);
    const [, name, rawType, min, max] = m!;
    const type = rawType!.toUpperCase();
    if (type !== 'INT' && type !== 'FLOAT') refuse('parameters', `has type '${rawType}'; types are INT and FLOAT`);
    if (type === 'INT' && !(Number.isInteger(Number(min)) && Number.isInteger(Number(max)))) refuse('parameters', `'${name}' is INT: min and max must be whole numbers`);
    if (Number(min) > Number(max)) refuse('parameters', `'${name}' has min above max`);
    if (names.has(name!)) refuse('parameters', `names '${name}' more than once`);
    names.add(name!);
    return { name: name!, type: type as Parameter['type'], min: Number(min), max: Number(max) };
  });
}

/** Copies the given (not undefined) values of `keys` from `from`. */
function pick<K extends keyof QuestionInput & keyof QuestionData>(from: QuestionInput, keys: readonly K[]): Partial<QuestionData> {
  const out: Partial<QuestionData> = {};
  for (const key of keys) if (given(from[key])) (out as Record<string, unknown>)[key] = from[key];
  return out;
}

/** Applies every rule between fields; throws ArgumentError naming the first field at fault. */
export function normalizeQuestion(input: QuestionInput): NormalizedQuestion {
  const { type } = input;
  for (const [field, types] of Object.entries(ONLY)) {
    if (given(input[field as keyof QuestionInput]) && !types.includes(type)) {
      refuse(field, `applies to type${types.length > 1 ? 's' : ''} ${types.join(', ')} only`, 'ARGUMENT_CONFLICT');
    }
  }
  const answers = input.answer;
  const options = input.options ?? [];

  const third = Array.isArray(input.truefalseThirdOptions) ? input.truefalseThirdOptions : [];
  // Statements of the third option, and a label for it, only make sense with one.
  const thirdOption = input.truefalseThirdOptions === true || third.length > 0 || input.truefalseThirdOptionsLabel !== undefined;

  const data: QuestionData = {
    ...pick(input, ['answerOrder', 'answerHide', 'answerIndefinite', 'answerRequire', 'answerFormat', 'subject', 'category', 'mainCategory']),
    ...pick(input, ['optionsFix', 'ai', 'label', 'source', 'note', 'privateNote', 'hint', 'explanation', 'solution']),
    ...pick(input, ['hintPenalty', 'solutionPenalty', 'points', 'tolerance', 'datetimeRange', 'numericalRange', 'maximumChoices', 'grouping']),
    ...pick(input, ['truefalseThirdOptionsLabel', 'freetextCharacters', 'freetextWords', 'freetextRules', 'fileTypes', 'hotspotZones']),
    questionFormat: input.questionFormat ?? 'NORMAL',
  };
  if (NUMERIC.includes(type)) data.decimals = input.decimals ?? 2;
  if (type === 'date/time') data.datetimePrecision = input.datetimePrecision ?? 'DAY';
  if (type === 'file') data.fileCount = input.fileCount ?? 1;
  if (thirdOption) data.truefalseThirdOption = true;
  if (third.length > 0) data.truefalseThirdStatements = third;

  checkAnswers(type, answers, data);

  if (input.answerLabel) {
    if (input.answerLabel.length !== answers.length) {
      refuse('answerLabel', `must have one label per answer (${answers.length}), got ${input.answerLabel.length}`);
    }
    data.answerLabel = input.answerLabel;
    data.answerOrder = true;
  }
  if (input.answerRequire !== undefined) {
    if (NO_REQUIRE.includes(type)) refuse('answerRequire', `does not apply to type ${type}`, 'ARGUMENT_CONFLICT');
    const units = unitCount(type, answers, options, third);
    if (input.answerRequire > units) refuse('answerRequire', `must be at most ${units}, the number of answers the question counts`);
  }
  if (type === 'choice' || type === 'multiple-choice' || type === 'order' || type === 'true/false') {
    checkDistinct([
      ['answer', answers],
      ['options', options],
      ['truefalseThirdOptions', third],
    ]);
  }
  const items = answers.length + options.length;
  const fixed = /^(first|last):(\d+)$/.exec(input.optionsFix ?? '');
  if (fixed && (Number(fixed[2]) < 1 || Number(fixed[2]) > items)) refuse('optionsFix', `N must be from 1 to ${items}, the number of answers and options`);
  if (input.optionsOrder) data.optionsOrder = checkOptionsOrder(input.optionsOrder, answers.length, options.length);
  if (input.maximumChoices !== undefined && input.maximumChoices > items) {
    refuse('maximumChoices', `must be at most ${items}, the number of answers and options`);
  }
  if (input.parameters) data.parameters = readParameters(input.parameters);

  return {
    externalId: input.id,
    type,
    content: input.content,
    answers,
    options,
    difficulty: input.difficulty ?? 0,
    path: normalizePath(input.path ?? '/API'),
    quiz: input.quiz,
    organization: input.organization === undefined ? undefined : input.organization.trim() === '' || input.organization.trim().toLowerCase() === 'none' ? null : input.organization.trim(),
    tagRefs: input.tags ?? [],
    data,
  };
}
