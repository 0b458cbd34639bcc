/**
 * Dates of date/time questions, compared at YEAR, MONTH or DAY precision.
 *
 * Accepted forms: year first with '-', '.' or '/' between parts ('2024-03-15', '2024.03.15.',
 * '2024. 03. 15.', '2024/3/5', '2024-03', '1848'), or day first with dots only ('15.03.2024', the
 * common European form; slashes day-first are refused as ambiguous with the US order). A leading
 * '-' gives years before year 1 (astronomical numbering: -43 is 44 BC). A time of day after the date
 * ('T10:00', ' 10:00:00Z') is allowed and ignored: DAY is the finest precision. Months and days must
 * exist (2023-02-29 is refused; proleptic Gregorian calendar).
 */

import type { DatetimePrecision } from './types.ts';

export interface DateParts {
  year: number;
  month?: number;
  day?: number;
}

const TIME = String.raw`(?:[T ] ?\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)? ?(?:Z|[+-]\d{2}:?\d{2})?)?`;
const YEAR_FIRST = new RegExp(String.raw`^(-?\d{1,6})(?: ?[-./] ?(\d{1,2})(?: ?[-./] ?(\d{1,2}))?)?\.?${TIME}$`, 'i');
const DAY_FIRST = new RegExp(String.raw`^(\d{1,2})\. ?(\d{1,2})\. ?(\d{3,6})\.?${TIME}$`, 'i');

function daysIn(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

export function parseDate(text: string): DateParts | null {
  if (typeof text !== 'string' || text.length > 64) return null;
  const s = text.normalize('NFKC').replace(/\u2212/g, '-').replace(/\s+/g, ' ').trim();
  let year: number;
  let month: number | undefined;
  let day: number | undefined;
  const dayFirst = DAY_FIRST.exec(s);
  const yearFirst = dayFirst ? null : YEAR_FIRST.exec(s);
  if (dayFirst) [day, month, year] = [Number(dayFirst[1]), Number(dayFirst[2]), Number(dayFirst[3])];
  else if (yearFirst) {
    year = Number(yearFirst[1]);
    month = yearFirst[2] === undefined ? undefined : Number(yearFirst[2]);
    day = yearFirst[3] === undefined ? undefined : Number(yearFirst[3]);
  } else return null;
  if (month !== undefined && (month < 1 || month > 12)) return null;
  if (day !== undefined && (day < 1 || day > daysIn(year, month!))) return null;
  return { year: year + 0, ...(month !== undefined && { month }), ...(day !== undefined && { day }) };
}

/** A range 'from;to', optionally in brackets '[from;to]'; from must not be after to. */
export function parseDateRange(text: string): { from: DateParts; to: DateParts } | null {
  if (typeof text !== 'string') return null;
  const m = /^\s*\[?([^;[\]]*);([^;[\]]*)\]?\s*$/.exec(text);
  if (!m) return null;
  const from = parseDate(m[1]!);
  const to = parseDate(m[2]!);
  if (!from || !to) return null;
  const level = Math.min(detail(from), detail(to));
  return key(from, level) <= key(to, level) ? { from, to } : null;
}

const LEVELS: Record<DatetimePrecision, number> = { YEAR: 1, MONTH: 2, DAY: 3 };

export function detail(d: DateParts): number {
  return d.day !== undefined ? 3 : d.month !== undefined ? 2 : 1;
}

/** A sortable number of the date cut at a level (negative years sort correctly too). */
function key(d: DateParts, level: number): number {
  return d.year * 10000 + (level >= 2 ? d.month! * 100 : 0) + (level >= 3 ? d.day! : 0);
}

export type DateAnswer = { kind: 'date'; date: DateParts } | { kind: 'range'; from: DateParts; to: DateParts };

/**
 * Does the response date match? The comparison level is the question's precision, or the answer's
 * own detail when coarser (an answer '1848' at DAY precision compares years). The response must
 * give at least that detail ('2024-03' does not answer a DAY question); finer detail is cut off.
 * A range matches when the response lies inside, both ends included.
 */
export function dateMatches(response: DateParts, answer: DateAnswer, precision: DatetimePrecision): boolean {
  const answerDetail = answer.kind === 'date' ? detail(answer.date) : Math.min(detail(answer.from), detail(answer.to));
  const level = Math.min(LEVELS[precision], answerDetail);
  if (detail(response) < level) return false;
  const x = key(response, level);
  if (answer.kind === 'date') return x === key(answer.date, level);
  return key(answer.from, level) <= x && x <= key(answer.to, level);
}

/**
 * The answers of a date/time question. With datetime_range every answer is a range 'from;to'; when
 * the two answers are plain dates they are read as from and to. null when unreadable.
 */
export function parseDateAnswers(answers: readonly string[], range: boolean): DateAnswer[] | null {
  if (!range) {
    const dates = answers.map(parseDate);
    return dates.every((d) => d !== null) ? dates.map((date) => ({ kind: 'date', date: date! })) : null;
  }
  const ranges = answers.map(parseDateRange);
  if (ranges.length > 0 && ranges.every((r) => r !== null)) return ranges.map((r) => ({ kind: 'range', ...r! }));
  if (answers.length === 2) {
    const r = parseDateRange(`${answers[0]};${answers[1]}`);
    if (r) return [{ kind: 'range', ...r }];
  }
  return null;
}
