import { z } from 'zod';
import { contract } from '../contract-meta.ts';
import { bool, code, datetime, float, int, oneOf, text } from '../validation.ts';
import { MAX_SECONDS } from '../quizzes/quizzes.schemas.ts';
import { viewResultsKinds } from './settings.model.ts';

/** Seconds, or `default` (the Quiz set's setting). 0 means no limit. */
const seconds = () =>
  z.preprocess((v) => (typeof v === 'string' && v.trim().toLowerCase() === 'default' ? 'default' : v), z.union([z.literal('default'), int(0, MAX_SECONDS)]));

/** `none` or empty clears the identifier (null). */
const identifier = () => z.preprocess((v) => (v === null || (typeof v === 'string' && ['', 'none'].includes(v.trim().toLowerCase())) ? null : v), text(1, 255).nullable());

export const examRef = z.object({ exam: code() });

/** POST `exam:settings`: every setting optional; only given ones change. */
export const updateSettings = z.object({
  exam: code(),
  nonblocking: bool().optional(),
  pausable: bool().optional(),
  questionless: bool().optional(),
  timelimit: seconds().optional(),
  roundtime: seconds().optional(),
  freezeRound: bool().optional(),
  archive: bool().optional(),
  grading: text(1, 64).optional(),
  gradingThreshold: float(0, 100).optional(),
  viewResults: oneOf(viewResultsKinds).optional(),
  viewResultsStart: datetime().optional(),
  viewResultsIdentifier: identifier().optional(),
  resultsPage: bool().optional(),
  hideIngameResults: bool().optional(),
  hidePoints: bool().optional(),
  hideGrade: bool().optional(),
  showInLasthour: bool().optional(),
  exportFormat: oneOf(['csv', 'xlsx']).optional(),
  exportSort: oneOf(['default', 'name']).optional(),
  exportStats: bool().optional(),
  exportAnswers: bool().optional(),
  exportPoints: bool().optional(),
  exportSuspicion: bool().optional(),
  exportFinishedOnly: bool().optional(),
  exportCustomFields: bool().optional(),
  exportSkills: bool().optional(),
  exportGender: bool().optional(),
  exportJourney: bool().optional(),
});
export type SettingsChange = Omit<z.output<typeof updateSettings>, 'exam'>;

/** PUT and PATCH `exam:settings`. */
export const copySettings = z.object({ exam: contract(code(), { description: 'target' }), source: contract(code(), { description: 'must differ from target' }), keepCertificateSettings: bool().default(false) });
