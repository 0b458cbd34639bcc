import { ArgumentError } from '../../errors.ts';

/**
 * The rules of grading presets, pure. A preset is a list of grades, each reached from its
 * threshold (a percentage of the points) up to the next one; the first starts at 0.
 *
 * - custom: freely named grades (2-20, unique, non-empty). It decides success only with
 *   `successful_all` (every grade counts as passed); otherwise its grades are labels only.
 * - go-nogo-custom: pass/fail; the second threshold is the pass mark and may be adjusted per
 *   Quiz set (`grading_threshold`), hence "configurable".
 * - hungarian-school, hungarian-university: the five Hungarian grades 1 (fail) to 5; 2 and up pass.
 */

export const presetTypes = ['custom', 'go-nogo-custom', 'hungarian-school', 'hungarian-university'] as const;
export type PresetType = (typeof presetTypes)[number];

export interface Grade {
  threshold: number;
  grade: string;
  text?: string;
}

/** Grades as given: the first threshold may be left out (it is ignored anyway). */
export interface GradeInput {
  threshold?: number;
  grade?: string;
  text?: string;
}

export const MAX_CUSTOM_GRADES = 20;

/** Names of the grades of the fixed types; only custom presets name their own. */
const fixedGrades: Record<Exclude<PresetType, 'custom'>, string[]> = {
  'go-nogo-custom': ['fail', 'pass'],
  'hungarian-school': ['1', '2', '3', '4', '5'],
  'hungarian-university': ['1', '2', '3', '4', '5'],
};

/** The threshold of a Quiz set with this preset may be adjusted. */
export const isConfigurable = (type: string) => type === 'go-nogo-custom';

/** The preset tells passed from failed, so results can be certified. */
export const decidesSuccess = (type: string, successfulAll: boolean) => type !== 'custom' || successfulAll;

/**
 * Validates grades for a type and returns them as stored: the first threshold 0, thresholds
 * strictly ascending, grade names of the type (custom: the given ones, trimmed), text kept as
 * given (asterisks and runs of spaces are markup for the reader), empty text left out.
 */
export function normalizeGrades(type: PresetType, grades: GradeInput[], argument = 'grades'): Grade[] {
  const fixed = type === 'custom' ? undefined : fixedGrades[type];
  if (fixed && grades.length !== fixed.length) throw new ArgumentError(argument, `must have exactly ${fixed.length} items for type ${type}`);
  if (!fixed && (grades.length < 2 || grades.length > MAX_CUSTOM_GRADES)) {
    throw new ArgumentError(argument, `must have 2 to ${MAX_CUSTOM_GRADES} items for type custom`);
  }
  const seen = new Set<string>();
  return grades.map((g, i) => {
    const threshold = i === 0 ? 0 : g.threshold;
    if (threshold === undefined) throw new ArgumentError(`${argument}.${i}.threshold`, 'is required', 'MISSING_ARGUMENT');
    if (i > 0 && threshold <= (i === 1 ? 0 : grades[i - 1]!.threshold!)) {
      throw new ArgumentError(`${argument}.${i}.threshold`, 'must be greater than the threshold of the grade before it (the first starts at 0)');
    }
    let name = fixed?.[i];
    if (name === undefined) {
      name = g.grade?.trim() ?? '';
      if (!name) throw new ArgumentError(`${argument}.${i}.grade`, 'must not be empty for type custom');
      if (seen.has(name)) throw new ArgumentError(`${argument}.${i}.grade`, `'${name}' is used twice; grades must be unique`);
      seen.add(name);
    }
    return g.text ? { threshold, grade: name, text: g.text } : { threshold, grade: name };
  });
}
