import type { Exam } from '../../generated/prisma/client.ts';

/**
 * The exam settings record: what is stored (only configured settings), how it reads (defaults and
 * the values the exam type fixes), and which settings apply to which exams. No database here:
 * the rules that need facts (results, paused tests, fields, presets, the caller) live in
 * settings.rules.ts.
 */

export const viewResultsKinds = ['after', 'always', 'datetime', 'datetime_blind', 'manual', 'none'] as const;
export type ViewResults = (typeof viewResultsKinds)[number];

/** The kinds with a results viewing period (`view_results_start`) and the identifier lookup. */
export const periodKinds: readonly ViewResults[] = ['datetime', 'datetime_blind'];
/** The kinds with which `results_page` may be switched off. */
export const pagelessKinds: readonly ViewResults[] = ['datetime_blind', 'manual', 'none'];

/**
 * Configured settings, keyed by their service name (the contract's in camelCase). Absent: not
 * configured (PATCH fills it). `timelimit`/`roundtime`/`grading` `'default'` is a configured choice
 * of the Quiz set's setting; `viewResultsIdentifier` null is a configured "none".
 */
export interface StoredSettings {
  nonblocking?: boolean;
  pausable?: boolean;
  questionless?: boolean;
  timelimit?: number | 'default';
  roundtime?: number | 'default';
  freezeRound?: boolean;
  archive?: boolean;
  grading?: string;
  gradingThreshold?: number;
  viewResults?: ViewResults;
  /** ISO 8601. */
  viewResultsStart?: string;
  viewResultsIdentifier?: string | null;
  resultsPage?: boolean;
  hideIngameResults?: boolean;
  hidePoints?: boolean;
  hideGrade?: boolean;
  showInLasthour?: boolean;
  exportFormat?: 'csv' | 'xlsx';
  exportSort?: 'default' | 'name';
  exportStats?: boolean;
  exportAnswers?: boolean;
  exportPoints?: boolean;
  exportSuspicion?: boolean;
  exportFinishedOnly?: boolean;
  exportCustomFields?: boolean;
  exportSkills?: boolean;
  exportGender?: boolean;
  exportJourney?: boolean;
}
export type SettingName = keyof StoredSettings;

/** Grading settings: not for surveys. */
export const gradingSettings: readonly SettingName[] = ['grading', 'gradingThreshold'];
/** Results viewing settings: not for surveys. */
export const resultsViewingSettings: readonly SettingName[] = [
  'viewResults', 'viewResultsStart', 'viewResultsIdentifier', 'resultsPage', 'hideIngameResults', 'hidePoints', 'hideGrade', 'showInLasthour',
];
/** Export settings a survey has: only the format and the order. */
const surveyExports: readonly SettingName[] = ['exportFormat', 'exportSort'];

/** Whether a setting applies to an exam of this type (a survey has no grading, results viewing or most exports). */
export function appliesTo(type: string, name: SettingName): boolean {
  if (type !== 'survey') return true;
  if (gradingSettings.includes(name) || resultsViewingSettings.includes(name)) return false;
  return !name.startsWith('export') || surveyExports.includes(name);
}

/** The settings as read, with every default and fixed value applied; undefined: not returned. */
export interface SettingsView {
  nonblocking: boolean;
  pausable: boolean;
  questionless: boolean;
  timelimit: number | null;
  roundtime: number | null;
  freezeRound: boolean;
  archive: boolean;
  grading?: string | null;
  gradingThreshold?: number;
  viewResults?: ViewResults;
  viewResultsStart?: Date;
  viewResultsIdentifier?: string;
  resultsUrl?: string;
  resultsPage?: boolean;
  hideIngameResults?: boolean;
  hidePoints?: boolean;
  hideGrade?: boolean;
  showInLasthour?: boolean;
  exportFormat: 'csv' | 'xlsx';
  exportSort: 'default' | 'name';
  exportStats?: boolean;
  exportAnswers?: boolean;
  exportPoints?: boolean;
  exportSuspicion?: boolean;
  exportFinishedOnly?: boolean;
  exportCustomFields?: boolean;
  exportSkills?: boolean;
  exportGender?: boolean;
  exportJourney?: boolean;
  exportAttendance?: boolean;
}

export type ExamShape = Pick<Exam, 'id' | 'type'> & { quizMode: string };

const seconds = (v: number | 'default' | undefined) => (typeof v === 'number' ? v : null);

/** The results viewing kind in force (surveys have none: `none`). */
export const kindOf = (type: string, s: StoredSettings): ViewResults => (type === 'survey' ? 'none' : (s.viewResults ?? 'after'));

/** Non-blocking in force: always for homework and surveys. */
export const nonblockingOf = (type: string, s: StoredSettings) => type === 'homework' || type === 'survey' || (s.nonblocking ?? false);
/** Pausable in force: always for homework; only for non-blocking exams. */
export const pausableOf = (type: string, s: StoredSettings) => type === 'homework' || (nonblockingOf(type, s) && (s.pausable ?? false));
export const questionlessOf = (type: string, s: StoredSettings) => type !== 'survey' && type !== 'championship' && (s.questionless ?? false);
export const hidePointsOf = (type: string, s: StoredSettings) => kindOf(type, s) === 'none' || (s.hidePoints ?? false);
export const hideGradeOf = (type: string, s: StoredSettings) => kindOf(type, s) === 'none' || (s.hideGrade ?? false);
/** The viewing period's start, when the kind has one. */
export const viewResultsStartOf = (type: string, s: StoredSettings): Date | undefined =>
  periodKinds.includes(kindOf(type, s)) && s.viewResultsStart ? new Date(s.viewResultsStart) : undefined;
/** The identifier field's label, when the kind allows the lookup. */
export const identifierOf = (type: string, s: StoredSettings): string | undefined =>
  (periodKinds.includes(kindOf(type, s)) && s.viewResultsIdentifier) || undefined;

/** The record GET `exam:settings` answers. `resultsUrl` is the results page's address when it is available. */
export function settingsView(exam: ExamShape, s: StoredSettings, resultsUrl?: string): SettingsView {
  const type = exam.type;
  const identifier = identifierOf(type, s);
  const view: SettingsView = {
    nonblocking: nonblockingOf(type, s),
    pausable: pausableOf(type, s),
    questionless: questionlessOf(type, s),
    timelimit: seconds(s.timelimit),
    roundtime: exam.quizMode === 'TURNS' ? seconds(s.roundtime) : null,
    freezeRound: s.freezeRound ?? false,
    archive: s.archive ?? false,
    grading: s.grading === undefined || s.grading === 'default' ? null : s.grading,
    gradingThreshold: s.gradingThreshold,
    viewResults: kindOf(type, s),
    viewResultsStart: viewResultsStartOf(type, s),
    viewResultsIdentifier: identifier,
    resultsUrl: identifier ? resultsUrl : undefined,
    resultsPage: s.resultsPage ?? true,
    hideIngameResults: s.hideIngameResults ?? false,
    hidePoints: hidePointsOf(type, s),
    hideGrade: hideGradeOf(type, s),
    showInLasthour: s.showInLasthour ?? false,
    exportFormat: s.exportFormat ?? 'xlsx',
    exportSort: s.exportSort ?? 'default',
    exportStats: s.exportStats ?? false,
    exportAnswers: s.exportAnswers ?? false,
    exportPoints: s.exportPoints ?? false,
    exportSuspicion: s.exportSuspicion ?? false,
    exportFinishedOnly: s.exportFinishedOnly ?? false,
    exportCustomFields: s.exportCustomFields ?? true,
    exportSkills: s.exportSkills ?? true,
    exportGender: s.exportGender ?? false,
    exportJourney: s.exportJourney ?? false,
    // Read only: who started and finished is part of every export but a survey's (which may be anonymous).
    exportAttendance: true,
  };
  // A survey reads no grading, no results viewing and only the format and order of its exports.
  if (type === 'survey') {
    for (const name of Object.keys(view) as (keyof SettingsView)[]) {
      if (name === 'resultsUrl' || name === 'exportAttendance' || !appliesTo(type, name as SettingName)) delete view[name];
    }
  }
  return view;
}

/** Drops the settings that do not apply to the exam's type. */
export function applicable(type: string, s: StoredSettings): StoredSettings {
  return Object.fromEntries(Object.entries(s).filter(([k]) => appliesTo(type, k as SettingName))) as StoredSettings;
}
