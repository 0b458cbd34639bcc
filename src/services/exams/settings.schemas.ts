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
  nonblocking: contract(bool().optional(), { description: 'always true for homework and survey; cannot be disabled when results exist or tests are paused' }),
  pausable: contract(bool().optional(), { description: 'only for non-blocking exams; always true for homework; cannot be disabled while tests are paused' }),
  questionless: contract(bool().optional(), { description: 'not for survey or championship; frozen while the current round has results' }),
  timelimit: contract(seconds().optional(), { type: ['integer', 'string'], default: 'default', description: 'seconds; 0 means no limit; `default` means use the Quiz set setting' }),
  roundtime: contract(seconds().optional(), { type: ['integer', 'string'], default: 'default', description: 'seconds, only TURNS Quiz sets; 0 no limit; `default` uses the Quiz set' }),
  freezeRound: contract(bool().optional(), { description: 'managers only' }),
  archive: contract(bool().optional(), { description: 'allows archiving users who have a result; managers only' }),
  grading: contract(text(1, 64).optional(), { description: 'code of a grading preset, `none`, or `default` (use the Quiz set); not for surveys' }),
  gradingThreshold: contract(float(0, 100).optional(), { description: 'only for presets with a configurable threshold (type go-nogo-custom)' }),
  viewResults: contract(oneOf(viewResultsKinds).optional(), { default: 'after', description: 'not for surveys' }),
  viewResultsStart: contract(datetime().optional(), { description: 'mandatory with datetime and datetime_blind; between exam start and end' }),
  viewResultsIdentifier: contract(identifier().optional(), { description: 'label of a unique free-text custom field of the exam; only with datetime and datetime_blind; `none` or empty disables' }),
  resultsPage: contract(bool().optional(), { description: 'can be disabled only with datetime_blind, manual, none' }),
  hideIngameResults: bool().optional(),
  hidePoints: contract(bool().optional(), { description: 'always enabled with view_results none' }),
  hideGrade: contract(bool().optional(), { description: 'only together with hide_points; always enabled with none' }),
  showInLasthour: contract(bool().optional(), { description: 'only with view_results after' }),
  exportFormat: contract(oneOf(['csv', 'xlsx']).optional(), { default: 'xlsx' }),
  exportSort: contract(oneOf(['default', 'name']).optional(), { default: 'default' }),
  exportStats: contract(bool().optional(), { default: false, description: 'not configurable for surveys' }),
  exportAnswers: contract(bool().optional(), { default: false, description: 'not for surveys' }),
  exportPoints: contract(bool().optional(), { default: false, description: 'not for surveys' }),
  exportSuspicion: contract(bool().optional(), { default: false, description: 'not for surveys' }),
  exportFinishedOnly: contract(bool().optional(), { default: false, description: 'not for surveys' }),
  exportCustomFields: contract(bool().optional(), { default: true, description: 'not for surveys' }),
  exportSkills: contract(bool().optional(), { default: true, description: 'exported only when the Quiz set has skills' }),
  exportGender: contract(bool().optional(), { default: false, description: 'needs special privileges to enable' }),
  exportJourney: contract(bool().optional(), { description: 'exported only when the exam starts a journey' }),
});
export type SettingsChange = Omit<z.output<typeof updateSettings>, 'exam'>;

/** PUT and PATCH `exam:settings`. */
export const copySettings = z.object({ exam: contract(code(), { description: 'target' }), source: contract(code(), { description: 'must differ from target' }), keepCertificateSettings: bool().default(false) });
