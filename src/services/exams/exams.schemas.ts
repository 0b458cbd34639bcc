import { z } from 'zod';
import { contract } from '../contract-meta.ts';
import { bool, code, datetime, externalId, list, oneOf, text } from '../validation.ts';
import { language } from '../quizzes/quizzes.schemas.ts';

export const examTypes = ['exam', 'championship', 'homework', 'survey'] as const;
export type ExamType = (typeof examTypes)[number];
export const brandingTypes = ['foreground', 'background'] as const;
export const brandingColors = ['branding', 'red', 'blue', 'yellow', 'green', 'purple', 'gray'] as const;
export const summaryTypes = ['ai'] as const;

/** Examinees one call adds or removes. */
export const MAX_EXAM_USERS = 1000;
/** Longest summary and description kept, in characters (after sanitizing). */
export const MAX_HTML = 65_535;

export const examRef = z.object({ exam: code() });

/** `none` or empty: remove (organization, deadline). */
export const isRemoval = (v: string | undefined) => v !== undefined && (v.trim() === '' || v.trim().toLowerCase() === 'none');

/** A datetime, or `none`/empty to remove it. */
const datetimeOrNone = () =>
  z.preprocess((v) => (typeof v === 'string' && isRemoval(v) ? null : v), z.union([z.null(), datetime()]));

export const listExams = z.object({ active: contract(bool().optional(), { description: 'boolean/null: true only active, false only inactive' }) });

export const createExam = z.object({
  title: text(1, 255),
  id: externalId().optional(),
  language: language.optional(),
  copySettings: contract(code().optional(), { description: 'exam to copy settings from' }),
  keepCertificateSettings: bool().default(false),
  type: contract(oneOf(examTypes).default('exam'), { description: 'homework can be paused and continued in the exam period; survey has no grading and may be anonymous' }),
  quiz: code(),
  organization: contract(text(0, 64).optional(), { format: 'code', description: 'organization of the application owner only; for organizational members always their organization' }),
  start: datetime(),
  end: datetime(),
});

export const updateExam = z.object({
  exam: code(),
  title: text(1, 255).optional(),
  id: contract(text(0, 64).optional(), { description: 'empty removes' }),
  language: language.optional(),
  description: contract(text(0, MAX_HTML).optional(), { description: 'basic HTML kept, scripts removed, empty removes' }),
  organization: contract(text(0, 64).optional(), { format: 'code', description: 'only owner or administrator may move it; `none` or empty removes it' }),
  start: contract(datetime().optional(), { description: 'changeable only until the first result arrives' }),
  end: datetime().optional(),
  deadline: contract(datetimeOrNone().optional(), { description: 'within the exam period; `none` or empty removes' }),
});

/**
 * GraphQL's updateExam: PATCH exam's arguments and the exam's own switch (switched off it is
 * INACTIVE), which the contract reads as `active` but never changes: PATCH exam does not take it.
 */
export const updateExamWithSwitch = updateExam.extend({ enabled: bool().optional() });

export const setBranding = z.object({
  exam: code(),
  type: contract(oneOf(brandingTypes).default('foreground'), { description: 'foreground: image used as logo; background: image used as cover' }),
  image: contract(z.unknown(), { type: 'file', required: true, description: 'base64-encoded image or URL; PNG, JPEG or WebP' }),
  color: oneOf(brandingColors),
});

export const examUsers = z.object({ exam: code(), users: list(code(), MAX_EXAM_USERS) });

export const setSummary = z.object({
  exam: code(),
  language: language.optional(),
  type: oneOf(summaryTypes).default('ai'),
  summary: contract(text(1, MAX_HTML), { description: 'short text, basic HTML allowed, should avoid personal information' }),
  llm: contract(text(1, 64).optional(), { description: 'name of the language model used' }),
  model: contract(text(1, 128).optional(), { description: 'exact model name; needs llm' }),
});
