import { z } from 'zod';
import { contract } from '../contract-meta.ts';
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
  copySettings: contract(code().optional(), { description: 'Quiz set to copy settings from' }),
  copyQuestions: contract(code().optional(), { description: 'Quiz set to copy questions from' }),
  // `none` or empty asks for no organization (organizational members still get theirs).
  organization: contract(text(0, 64).optional(), { format: 'code', description: 'rules as for exams' }),
  mode: oneOf(quizModes).default('TEST'),
  type: oneOf(quizTypes).default('set'),
});

export const updateQuizSet = z.object({
  quiz: code(),
  title: text(1, 255).optional(),
  id: contract(text(0, 64).optional(), { description: 'empty removes' }),
  language: language.optional(),
  description: contract(text(0, 255).optional(), { description: 'empty removes' }),
  organization: contract(text(0, 64).optional(), { format: 'code', description: 'only owner or administrator; `none` or empty removes' }),
});

/** Seconds; 0 and `default` both mean no limit (stored as 0: configured, without a limit). */
const seconds = () => z.preprocess((v) => (typeof v === 'string' && v.trim().toLowerCase() === 'default' ? 0 : v), int(0, MAX_SECONDS));

export const updateSettings = z.object({
  quiz: code(),
  shuffle: contract(bool().optional(), { description: 'when disabled the current order is kept' }),
  timelimit: contract(seconds().optional(), { type: ['integer', 'string'], description: 'seconds; 0 or `default` means none' }),
  roundtime: contract(seconds().optional(), { type: ['integer', 'string'], description: 'seconds, TURNS only; 0 or `default` none' }),
  grading: contract(text(1, 64).optional(), { description: 'preset code, or `none`' }),
  // "number 0-100" like an exam's grading_threshold: one rule for both (decimals allowed).
  gradingThreshold: contract(float(0, 100).optional(), { description: 'only for presets with a configurable threshold' }),
});

export const copySettings = z.object({ quiz: contract(code(), { description: 'target' }), source: contract(code(), { description: 'different from target' }) });

export const assignQuestions = z.object({
  quiz: code(),
  group: contract(text(1, 255).optional(), { description: 'question group title' }),
  questions: list(code(), MAX_QUESTIONS),
});
