import { builder } from '../builder.ts';
import { ExamType } from './exam.type.ts';
import { given } from '../grading/grading-preset.type.ts';
import * as fields from '../../services/exams/fields.service.ts';
import type { FieldsView } from '../../services/exams/fields.model.ts';
import { mirrorDescription } from '../operation-prose.ts';

/** Exam user data fields: `Exam.fields` and the mutations of exam:fields. */

const BuiltInFieldType = builder.objectRef<boolean | string>('ExamBuiltInField').implement({
  description: 'A built-in user data field (name, email or phone).',
  fields: (t) => ({
    used: t.boolean({ description: 'The field is asked for.', resolve: (f) => f !== false }),
    label: t.string({ nullable: true, description: 'Its own label; null: the default label (or unused).', resolve: (f) => (typeof f === 'string' ? f : null) }),
  }),
});

type CustomField = Record<string, unknown>;
const value = <T>(key: string) => (f: CustomField) => (f[key] ?? null) as T | null;

const CustomFieldType = builder.objectRef<CustomField>('ExamCustomField').implement({
  description: 'A custom user data field; type-specific settings are null for other types, as GET exam:fields leaves them out.',
  fields: (t) => ({
    label: t.string({ description: 'Unique in the exam; identifies the field.', resolve: (f) => f.label as string }),
    type: t.string({ description: 'text, email, phone, select, number, from-to, date, datetime, yes-no, yes, no, true-false or gender.', resolve: (f) => f.type as string }),
    required: t.boolean({ resolve: (f) => f.required as boolean }),
    description: t.string({ resolve: (f) => f.description as string }),
    icon: t.string({ description: "'fa-<style> fa-<name>', or empty.", resolve: (f) => f.icon as string }),
    options: t.stringList({ nullable: true, description: 'Select only.', resolve: value<string[]>('options') }),
    filtering: t.field({ type: 'JSONObject', nullable: true, description: 'Keyed by option (select only).', resolve: value<Record<string, unknown>>('filtering') }),
    from: t.float({ nullable: true, description: 'From-to only.', resolve: value<number>('from') }),
    to: t.float({ nullable: true, description: 'From-to only.', resolve: value<number>('to') }),
    step: t.float({ nullable: true, description: 'From-to only, if set.', resolve: value<number>('step') }),
    min: t.string({ nullable: true, description: '`now`, YYYY-MM-DD or YYYY-MM-DD HH:MM (UTC); date and datetime only.', resolve: value<string>('min') }),
    max: t.string({ nullable: true, description: 'As min; not earlier than a fixed min.', resolve: value<string>('max') }),
    minlength: t.int({ nullable: true, description: 'Free text only.', resolve: value<number>('minlength') }),
    maxlength: t.int({ nullable: true, description: 'Free text only.', resolve: value<number>('maxlength') }),
    pattern: t.string({ nullable: true, description: 'Regular expression the whole value must match (free text only).', resolve: value<string>('pattern') }),
    unique: t.boolean({ nullable: true, description: 'Free text only.', resolve: value<boolean>('unique') }),
  }),
});

const ExamFieldsType = builder.objectRef<FieldsView>('ExamUserDataFields').implement({
  description: 'The user data fields of an exam.',
  fields: (t) => ({
    name: t.field({ type: BuiltInFieldType, resolve: (v) => v.name }),
    email: t.field({ type: BuiltInFieldType, resolve: (v) => v.email }),
    phone: t.field({ type: BuiltInFieldType, resolve: (v) => v.phone }),
    custom: t.field({ type: [CustomFieldType], description: 'The custom fields in display order.', resolve: (v) => v.fields }),
  }),
});

builder.prismaObjectFields('Exam', (t) => ({
  fields: t.field({
    type: ExamFieldsType,
    description: 'Its user data fields (view permission).',
    select: fields.fieldsSelection,
    resolve: (exam) => fields.fieldsOfLoaded(exam),
  }),
}));

const BuiltInFieldInput = builder.inputType('ExamBuiltInFieldInput', {
  description: 'A built-in field: used or not; used with a label takes that label, without one the default label. Unused keeps its label.',
  fields: (t) => ({
    used: t.boolean({ required: true }),
    label: t.string({ description: '1-255 characters.' }),
  }),
});

const CustomFieldInput = builder.inputType('ExamCustomFieldInput', {
  description: 'A custom field; settings not given take those of an earlier field with the same label, as in POST exam:fields.',
  fields: (t) => ({
    label: t.string({ required: true, description: 'Unique in the exam, 1-255 characters.' }),
    type: t.string({ description: 'Default text.' }),
    required: t.boolean({ description: 'Default true.' }),
    description: t.string(),
    icon: t.string({ description: "'fa-<style> fa-<name>'." }),
    options: t.stringList({ description: 'Mandatory for select; empty ones dropped.' }),
    filtering: t.field({ type: 'JSONObject', description: 'Keyed by option (select only).' }),
    from: t.float(),
    to: t.float(),
    step: t.float(),
    min: t.string(),
    max: t.string(),
    minlength: t.int(),
    maxlength: t.int(),
    pattern: t.string({ description: 'Needs the privileged fields feature; kept as it was for callers without it.' }),
    unique: t.boolean(),
  }),
});

const builtIn = (f: { used: boolean; label?: string | null } | null | undefined) => (f ? (f.used ? (f.label ?? true) : false) : undefined);

builder.mutationFields((t) => ({
  updateExamFields: t.field({
    type: ExamType,
    description: mirrorDescription('Changes the user data fields of an exam (POST exam:fields); `fields` replaces the custom fields in display order.', 'POST exam:fields'),
    args: {
      exam: t.arg.id({ required: true }),
      name: t.arg({ type: BuiltInFieldInput }),
      email: t.arg({ type: BuiltInFieldInput }),
      phone: t.arg({ type: BuiltInFieldInput }),
      fields: t.arg({ type: [CustomFieldInput] }),
    },
    resolve: async (_root, args, ctx) => {
      const input = given({ exam: args.exam, name: builtIn(args.name), email: builtIn(args.email), phone: builtIn(args.phone), fields: args.fields });
      return (await fields.updateFields(ctx, input)).exam;
    },
  }),
  deleteExamFields: t.field({
    type: ExamType,
    description: mirrorDescription('Removes every custom field of an exam (DELETE exam:fields); entered values stay, hidden.', 'DELETE exam:fields'),
    args: { exam: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await fields.deleteFields(ctx, args)).exam,
  }),
}));
