import { z } from 'zod';
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

export const listExams = z.object({ active: bool().optional() });

export const createExam = z.object({
  title: text(1, 255),
  id: externalId().optional(),
  language: language.optional(),
  copySettings: code().optional(),
  keepCertificateSettings: bool().default(false),
  type: oneOf(examTypes).default('exam'),
  quiz: code(),
  organization: text(0, 64).optional(),
  start: datetime(),
  end: datetime(),
});

export const updateExam = z.object({
  exam: code(),
  title: text(1, 255).optional(),
  id: text(0, 64).optional(),
  language: language.optional(),
  description: text(0, MAX_HTML).optional(),
  organization: text(0, 64).optional(),
  start: datetime().optional(),
  end: datetime().optional(),
  deadline: datetimeOrNone().optional(),
});

/**
 * GraphQL's updateExam: PATCH exam's arguments and the exam's own switch (switched off it is
 * INACTIVE), which the contract reads as `active` but never changes: PATCH exam does not take it.
 */
export const updateExamWithSwitch = updateExam.extend({ enabled: bool().optional() });

export const setBranding = z.object({
  exam: code(),
  type: oneOf(brandingTypes).default('foreground'),
  image: z.unknown(),
  color: oneOf(brandingColors),
});

export const examUsers = z.object({ exam: code(), users: list(code(), MAX_EXAM_USERS) });

export const setSummary = z.object({
  exam: code(),
  language: language.optional(),
  type: oneOf(summaryTypes).default('ai'),
  summary: text(1, MAX_HTML),
  llm: text(1, 64).optional(),
  model: text(1, 128).optional(),
});
