import { z } from 'zod';
import { bool, code, externalId, float, int, list, oneOf, text } from '../validation.ts';

export const quizModes = ['TEST', 'TURNS'] as const;
export const quizTypes = ['set', 'final', 'exam', 'private'] as const;

/** Longest time limit accepted, in seconds: one year. */
export const MAX_SECONDS = 31_536_000;
/** Questions one call assigns or removes. */
export const MAX_QUESTIONS = 1000;

export const quizRef = z.object({ quiz: code() });

/** Language codes are checked against the active languages by the service. */
export const language = text(2, 16);

export const createQuizSet = z.object({
  title: text(1, 255),
  id: externalId().optional(),
  language: language.optional(),
  description: text(0, 255).optional(),
  copySettings: code().optional(),
  copyQuestions: code().optional(),
  // `none` or empty asks for no organization (organizational members still get theirs).
  organization: text(0, 64).optional(),
  mode: oneOf(quizModes).default('TEST'),
  type: oneOf(quizTypes).default('set'),
});

export const updateQuizSet = z.object({
  quiz: code(),
  title: text(1, 255).optional(),
  id: text(0, 64).optional(),
  language: language.optional(),
  description: text(0, 255).optional(),
  organization: text(0, 64).optional(),
});

/** Seconds; 0 and `default` both mean no limit (stored as 0: configured, without a limit). */
const seconds = () => z.preprocess((v) => (typeof v === 'string' && v.trim().toLowerCase() === 'default' ? 0 : v), int(0, MAX_SECONDS));

export const updateSettings = z.object({
  quiz: code(),
  shuffle: bool().optional(),
  timelimit: seconds().optional(),
  roundtime: seconds().optional(),
  grading: text(1, 64).optional(),
  // "number 0-100" like an exam's grading_threshold: one rule for both (decimals allowed).
  gradingThreshold: float(0, 100).optional(),
});

export const copySettings = z.object({ quiz: code(), source: code() });

export const assignQuestions = z.object({
  quiz: code(),
  group: text(1, 255).optional(),
  questions: list(code(), MAX_QUESTIONS),
});
