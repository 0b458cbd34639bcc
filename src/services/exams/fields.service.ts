import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.ts';
import { Prisma, type Exam, type ExamField, type ExamFieldSet } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import { findExam } from './access.ts';
import { examRef } from './settings.schemas.ts';
import { clearIdentifierUnless } from './settings.service.ts';
import {
  fieldsView, freeTextTypes, isDateType, limitMoment, qualifiesAsIdentifier, updateFields as updateInput,
  type CustomFieldInput, type FieldsView,
} from './fields.model.ts';

/**
 * `exam:fields`: the built-in name, email and phone fields and the custom fields, replaced as a
 * list. A field is identified by its label: a field leaving the list (or removed by DELETE) is
 * kept with `removedAt`, so the values examinees entered stay (hidden) and its settings serve as
 * defaults when a field of that label is listed again.
 */

const currentFields = (db: Pick<Prisma.TransactionClient, 'examField'>, examId: string) =>
  db.examField.findMany({ where: { examId, removedAt: null }, orderBy: [{ position: 'asc' }, { label: 'asc' }] });

export async function fieldsOf(ctx: Context, exam: Pick<Exam, 'id'>): Promise<FieldsView> {
  const [set, fields] = await Promise.all([ctx.db.examFieldSet.findUnique({ where: { examId: exam.id } }), currentFields(ctx.db, exam.id)]);
  return fieldsView(set, fields);
}

/** What `fieldsOfLoaded` needs loaded with the exam (GraphQL's `Exam.fields` selects it). */
export const fieldsSelection = {
  fieldSet: true,
  fields: { where: { removedAt: null }, orderBy: [{ position: 'asc' }, { label: 'asc' }] },
} as const satisfies Prisma.ExamSelect;

export const fieldsOfLoaded = (exam: { fieldSet: ExamFieldSet | null; fields: ExamField[] }): FieldsView => fieldsView(exam.fieldSet, exam.fields);

export async function getFields(ctx: Context, raw: Record<string, unknown>): Promise<{ exam: Exam; fields: FieldsView }> {
  const exam = await findExam(ctx, parseInput(examRef, raw).exam, 'exam:fields:read');
  return { exam, fields: await fieldsOf(ctx, exam) };
}

type FieldData = Omit<ExamField, 'id' | 'examId' | 'position' | 'removedAt'>;

const conflict = (argument: string, rule: string) => new ArgumentError(argument, rule, 'ARGUMENT_CONFLICT');

/** A regular expression matched against the whole value (checked here with the flags used there). */
function validPattern(pattern: string): boolean {
  try {
    new RegExp(`^(?:${pattern})$`, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * One listed field with the earlier settings of its label as defaults, checked against the rules
 * of its type. Settings given for a type they do not belong to are refused; those inherited from
 * an earlier field of another type are dropped.
 */
function resolveField(input: CustomFieldInput, prev: ExamField | undefined, at: string, privileged: boolean): FieldData {
  const type = input.type ?? prev?.type ?? 'text';
  const name = (key: string) => `${at}.${key}`;
  const only = (keys: (keyof CustomFieldInput)[], applies: boolean, rule: string) => {
    if (applies) return;
    for (const key of keys) if (input[key] !== undefined) throw conflict(name(key), rule);
  };
  const select = type === 'select';
  const fromTo = type === 'from-to';
  const dates = isDateType(type);
  const freeText = freeTextTypes.includes(type);
  only(['options', 'filtering'], select, 'applies to select fields only');
  only(['from', 'to', 'step'], fromTo, 'applies to from-to fields only');
  only(['min', 'max'], dates, 'applies to date and datetime fields only');
  only(['minlength', 'maxlength', 'pattern', 'unique'], freeText, 'applies to free-text fields (text, email, phone) only');

  const inherit = <K extends keyof ExamField>(key: K, applies: boolean) => (applies && prev && prev.type === type ? prev[key] : null);
  const data: FieldData = {
    label: input.label,
    type,
    required: input.required ?? prev?.required ?? true,
    description: input.description === undefined ? (prev?.description ?? null) : input.description || null,
    icon: input.icon === undefined ? (prev?.icon ?? null) : input.icon || null,
    options: null,
    filtering: null,
    from: input.from ?? inherit('from', fromTo),
    to: input.to ?? inherit('to', fromTo),
    step: input.step ?? inherit('step', fromTo),
    min: input.min ?? inherit('min', dates),
    max: input.max ?? inherit('max', dates),
    minlength: input.minlength ?? inherit('minlength', freeText),
    maxlength: input.maxlength ?? inherit('maxlength', freeText),
    // Without the privileged fields feature a caller neither sets nor removes a pattern.
    pattern: (privileged ? input.pattern : undefined) ?? (freeText && prev?.pattern ? prev.pattern : null),
    unique: freeText ? (input.unique ?? (prev && freeTextTypes.includes(prev.type) ? prev.unique : false)) : false,
  };

  if (select) {
    const options = (input.options ?? (prev?.options as string[] | null) ?? []).map((o) => o.trim()).filter(Boolean);
    if (!options.length) throw new ArgumentError(name('options'), 'is mandatory for select fields (at least one option that is not empty)', input.options ? 'ARGUMENT_CONFLICT' : 'MISSING_ARGUMENT');
    if (new Set(options).size !== options.length) throw conflict(name('options'), 'must not repeat an option');
    const previous = (prev?.filtering as Record<string, string> | null) ?? {};
    const filtering = input.filtering ?? previous;
    const unknown = input.filtering && Object.keys(input.filtering).find((k) => !options.includes(k));
    if (unknown) throw conflict(name('filtering'), `is keyed by option; '${unknown}' is not an option of the field`);
    const kept = Object.fromEntries(Object.entries(filtering).filter(([k]) => options.includes(k)));
    data.options = options;
    data.filtering = Object.keys(kept).length ? kept : null;
  }
  if (fromTo) {
    if (data.from === null) throw new ArgumentError(name('from'), 'is mandatory for from-to fields', 'MISSING_ARGUMENT');
    if (data.to === null) throw new ArgumentError(name('to'), 'is mandatory for from-to fields', 'MISSING_ARGUMENT');
    if (!(data.from < data.to)) throw conflict(name('from'), 'must be lower than to');
    if (data.step === 0) throw conflict(name('step'), 'must not be 0');
  }
  if (dates) {
    for (const key of ['min', 'max'] as const) {
      if (type === 'date' && data[key] && data[key]!.length > 10) throw new ArgumentError(name(key), 'must be `now` or YYYY-MM-DD for date fields');
    }
    const min = limitMoment(data.min);
    const max = limitMoment(data.max);
    if (min !== undefined && max !== undefined && max < min) throw conflict(name('max'), 'must not be earlier than a fixed min');
  }
  if (freeText) {
    if (data.minlength !== null && data.maxlength !== null && data.minlength > data.maxlength) throw conflict(name('minlength'), 'must not be greater than maxlength');
    if (input.pattern !== undefined && privileged && !validPattern(input.pattern)) throw new ArgumentError(name('pattern'), 'must be a valid regular expression');
  }
  return data;
}

/** A built-in field's columns from its input: true the default label, false unused (label kept), text its label. */
function builtIn(value: boolean | string | undefined, key: 'name' | 'email' | 'phone'): Partial<ExamFieldSet> {
  if (value === undefined) return {};
  if (value === false) return { [key]: false };
  return { [key]: true, [`${key}Label`]: value === true ? null : value };
}

export async function updateFields(ctx: Context, raw: Record<string, unknown>): Promise<{ exam: Exam; fields: FieldsView }> {
  const input = parseInput(updateInput, raw);
  const exam = await findExam(ctx, input.exam, 'exam:fields:update');
  const set = { ...builtIn(input.name, 'name'), ...builtIn(input.email, 'email'), ...builtIn(input.phone, 'phone') };

  let listed: FieldData[] | undefined;
  if (input.fields) {
    const seen = new Set<string>();
    input.fields.forEach((f, i) => {
      if (seen.has(f.label)) throw conflict(`fields.${i}.label`, 'must be unique in the exam');
      seen.add(f.label);
    });
    const earlier = new Map((await ctx.db.examField.findMany({ where: { examId: exam.id } })).map((f) => [f.label, f]));
    const privileged = await ctx.settings.isEnabled('privileged_fields', ctx.viewer.user);
    listed = input.fields.map((f, i) => resolveField(f, earlier.get(f.label), `fields.${i}`, privileged));
  }

  await ctx.db.$transaction(async (tx) => {
    if (Object.keys(set).length) await tx.examFieldSet.upsert({ where: { examId: exam.id }, create: { examId: exam.id, ...set }, update: set });
    if (listed) {
      const labels = listed.map((f) => f.label);
      await tx.examField.updateMany({ where: { examId: exam.id, removedAt: null, label: { notIn: labels } }, data: { removedAt: new Date() } });
      for (const [position, f] of listed.entries()) {
        const data = { ...f, options: f.options ?? Prisma.DbNull, filtering: f.filtering ?? Prisma.DbNull, position, removedAt: null };
        await tx.examField.upsert({
          where: { examId_label: { examId: exam.id, label: f.label } },
          create: { ...data, id: randomUUID(), examId: exam.id },
          update: data,
        });
      }
      const qualifying = new Set(listed.filter((f) => qualifiesAsIdentifier({ ...f, removedAt: null })).map((f) => f.label));
      await clearIdentifierUnless(tx, exam.id, (label) => qualifying.has(label));
    }
    await audit(ctx, tx, 'exam.fields.update', exam.id);
  });
  return { exam, fields: await fieldsOf(ctx, exam) };
}

/** DELETE `exam:fields`: removes every custom field (their entered values stay, hidden); built-in ones stay. */
export async function deleteFields(ctx: Context, raw: Record<string, unknown>): Promise<{ exam: Exam; removed: number }> {
  const exam = await findExam(ctx, parseInput(examRef, raw).exam, 'exam:fields:update');
  const removed = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.examField.updateMany({ where: { examId: exam.id, removedAt: null }, data: { removedAt: new Date() } });
    await clearIdentifierUnless(tx, exam.id, () => false);
    await audit(ctx, tx, 'exam.fields.delete', exam.id);
    return count;
  });
  return { exam, removed };
}
export type { FieldsView } from './fields.model.ts';
