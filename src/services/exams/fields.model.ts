import { z } from 'zod';
import type { ExamField, ExamFieldSet } from '../../generated/prisma/client.ts';
import { contract } from '../contract-meta.ts';
import { bool, code, float, int, json, oneOf, text } from '../validation.ts';

/** Exam user data fields: the input of POST `exam:fields` and the record GET answers. */

export const fieldTypes = ['text', 'email', 'phone', 'select', 'number', 'from-to', 'date', 'datetime', 'yes-no', 'yes', 'no', 'true-false', 'gender'] as const;
export type FieldType = (typeof fieldTypes)[number];
/** Free-text types: lengths, pattern and uniqueness apply to them only. */
export const freeTextTypes: readonly string[] = ['text', 'email', 'phone'];
const dateTypes: readonly string[] = ['date', 'datetime'];

/** A field an examinee could be found by: unique free text (`view_results_identifier`). */
export const qualifiesAsIdentifier = (f: Pick<ExamField, 'type' | 'unique' | 'removedAt'>) => !f.removedAt && freeTextTypes.includes(f.type) && f.unique;

/** `fa-<style> fa-<name>`. */
const ICON = /^fa-(solid|regular|light|thin|brands) fa-[a-z0-9]+(-[a-z0-9]+)*$/;
/** `now`, `YYYY-MM-DD`, or `YYYY-MM-DD HH:MM` (UTC). */
const LIMIT = /^(now|\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?)$/;

/** A `YYYY-MM-DD` or `YYYY-MM-DD HH:MM` limit of a date field, or `now`. */
const limit = () =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.string().regex(LIMIT, '`now`, YYYY-MM-DD or YYYY-MM-DD HH:MM').refine(validLimit, 'is not a valid date'));

/** One custom field of POST `exam:fields`; what only applies to some types is checked by the service. */
const customField = z.object({
  label: contract(text(1, 255), { description: 'unique in the exam; identifies the field, earlier settings of a same-label field serve as defaults' }),
  type: contract(oneOf(fieldTypes).optional(), { default: 'text' }),
  required: contract(bool().optional(), { default: true }),
  description: text(0, 1000).optional(),
  icon: contract(
    z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.union([z.literal(''), z.string().regex(ICON, "must be an icon class name 'fa-<style> fa-<name>' (style solid, regular, light, thin or brands)")])).optional(),
    { description: "icon class name of the form 'fa-<style> fa-<name>', style one of solid, regular, light, thin, brands; empty for none" },
  ),
  options: contract(
    z.array(z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().max(255, 'must be at most 255 characters')), { error: 'must be a list of texts' }).max(200).optional(),
    { description: 'mandatory for select, empty ones dropped' },
  ),
  filtering: contract(z.record(z.string(), text(0, 255), { error: 'must be an object keyed by option' }).optional(), {
    description: 'object keyed by option, select only, previous labels kept if omitted',
  }),
  from: contract(float().optional(), { description: 'mandatory for from-to, lower than to' }),
  to: contract(float().optional(), { description: 'mandatory for from-to' }),
  step: contract(float().optional(), { description: 'from-to, not 0' }),
  min: contract(limit().optional(), { description: 'date and datetime: `now`, YYYY-MM-DD or YYYY-MM-DD HH:MM in UTC' }),
  max: contract(limit().optional(), { description: 'date and datetime: `now`, YYYY-MM-DD or YYYY-MM-DD HH:MM in UTC; not earlier than a fixed min' }),
  minlength: contract(int(1, 255).optional(), { description: 'free text fields: text, email, phone' }),
  maxlength: contract(int(1, 255).optional(), { description: 'free text fields: text, email, phone' }),
  pattern: contract(text(1, 255).optional(), { description: 'regular expression matched against the whole value; needs special privileges' }),
  unique: contract(bool().optional(), { default: false, description: 'free text' }),
});
export type CustomFieldInput = z.output<typeof customField>;

/** A built-in field: a boolean, or its label (1-255). */
const builtIn = () =>
  contract(
    z.preprocess((v) => {
      if (typeof v !== 'string') return v;
      const t = v.trim().toLowerCase();
      return t === 'true' ? true : t === 'false' ? false : v;
    }, z.union([z.boolean(), text(1, 255)], { error: 'must be true, false or a label of 1-255 characters' })).optional(),
    { description: 'true default label, false unused with its other settings kept, other text is the label' },
  );

export const updateFields = z.object({
  exam: code(),
  name: builtIn(),
  email: builtIn(),
  phone: builtIn(),
  fields: contract(json().pipe(z.array(customField, { error: 'must be a list of fields' }).max(100, 'must have at most 100 fields')).optional(), {
    description: 'replaces the current custom fields, in display order',
  }),
});

function validLimit(v: string): boolean {
  if (v === 'now') return true;
  const d = new Date(`${v.replace(' ', 'T')}${v.length > 10 ? ':00Z' : 'T00:00:00Z'}`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v.slice(0, 10));
}

/** A fixed limit as a moment (`now` is none). */
export const limitMoment = (v: string | null | undefined): number | undefined =>
  v && v !== 'now' ? new Date(`${v.replace(' ', 'T')}${v.length > 10 ? ':00Z' : 'T00:00:00Z'}`).getTime() : undefined;

export const isDateType = (type: string) => dateTypes.includes(type);

/** A built-in field as read: false unused, true the default label, otherwise its label. */
const builtInView = (used: boolean, label: string | null) => (used ? (label ?? true) : false);

export interface FieldsView {
  name: boolean | string;
  email: boolean | string;
  phone: boolean | string;
  fields: Record<string, unknown>[];
}

const defaults = { name: true, nameLabel: null, email: true, emailLabel: null, phone: false, phoneLabel: null };

/** The record of GET `exam:fields` (without `exam`): the current custom fields in display order. */
export function fieldsView(set: ExamFieldSet | null, fields: ExamField[]): FieldsView {
  const b = set ?? defaults;
  return {
    name: builtInView(b.name, b.nameLabel),
    email: builtInView(b.email, b.emailLabel),
    phone: builtInView(b.phone, b.phoneLabel),
    fields: fields.map(fieldRecord),
  };
}

/** One custom field: options only for select, from/to/step only for from-to, limits only for dates, text rules only for free text. */
export function fieldRecord(f: ExamField): Record<string, unknown> {
  const record: Record<string, unknown> = { label: f.label, type: f.type, required: f.required, description: f.description ?? '', icon: f.icon ?? '' };
  if (f.type === 'select') {
    record.options = f.options ?? [];
    if (f.filtering && Object.keys(f.filtering).length) record.filtering = f.filtering;
  }
  if (f.type === 'from-to') {
    record.from = f.from;
    record.to = f.to;
    if (f.step !== null) record.step = f.step;
  }
  if (isDateType(f.type)) {
    if (f.min) record.min = f.min;
    if (f.max) record.max = f.max;
  }
  if (freeTextTypes.includes(f.type)) {
    if (f.minlength !== null) record.minlength = f.minlength;
    if (f.maxlength !== null) record.maxlength = f.maxlength;
    if (f.pattern !== null) record.pattern = f.pattern;
    // "unique (free text only, if set)": present only on a field that is unique.
    if (f.unique) record.unique = true;
  }
  return record;
}
