import type { Context } from '../../context.ts';
import type { Prisma, QuizSet } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import { findUsablePreset } from '../grading/grading.service.ts';
import { isConfigurable } from '../grading/grades.ts';
import { findQuizSet } from './access.ts';
import type { Selection } from '../selection.ts';
import * as s from './quizzes.schemas.ts';

/**
 * Quiz set settings. Every column is null until configured; that is what the fill-in copy
 * (PATCH) looks at. "No limit" given as 0 or `default` is stored as 0, a configured value,
 * and read as null. Grading and its threshold are one setting: they are copied together.
 */

export type Settings = Pick<QuizSet, 'shuffle' | 'timelimit' | 'roundtime' | 'grading' | 'gradingThreshold'>;
export const unconfigured: Settings = { shuffle: null, timelimit: null, roundtime: null, grading: null, gradingThreshold: null };

/** The settings as read. Unconfigured: no shuffling, no limits, no grading, no threshold. */
export interface SettingsView {
  shuffle: boolean;
  timelimit: number | null;
  roundtime: number | null;
  grading: string;
  /** null: not configured (the field is left out). */
  gradingThreshold: number | null;
}

export const settingsView = (quiz: QuizSet): SettingsView => ({
  shuffle: quiz.shuffle ?? false,
  timelimit: quiz.timelimit || null,
  roundtime: quiz.mode === 'TURNS' ? quiz.roundtime || null : null,
  grading: quiz.grading ?? 'none',
  gradingThreshold: quiz.gradingThreshold,
});

/**
 * The settings of `target` after copying from `source`: `replace` takes every setting of the
 * source (unconfigured ones included), `fill` only those the target has not configured. A round
 * time never goes to a TEST set. Questions, groups and the selection, filtering and export
 * settings are not settings in this sense and stay as they are.
 */
export function copiedSettings(target: Settings & Pick<QuizSet, 'mode'>, source: Settings, mode: 'replace' | 'fill'): Settings {
  const keep = mode === 'fill';
  const grading = keep && target.grading !== null ? target : source;
  return {
    shuffle: keep ? (target.shuffle ?? source.shuffle) : source.shuffle,
    timelimit: keep ? (target.timelimit ?? source.timelimit) : source.timelimit,
    roundtime: target.mode !== 'TURNS' ? null : keep ? (target.roundtime ?? source.roundtime) : source.roundtime,
    grading: grading.grading,
    gradingThreshold: grading.gradingThreshold,
  };
}

/** Whether a grading value takes a threshold: only presets of a configurable type do. */
async function takesThreshold(ctx: Context, grading: string | null): Promise<boolean> {
  if (grading === null || grading === 'none' || grading === 'custom') return false;
  const preset = await ctx.db.gradingPreset.findUnique({ where: { id: grading }, select: { type: true } });
  return !!preset && isConfigurable(preset.type);
}

export async function getSettings(ctx: Context, raw: Record<string, unknown>): Promise<{ quiz: QuizSet; settings: SettingsView }> {
  const quiz = await findQuizSet(ctx, parseInput(s.quizRef, raw).quiz, 'quiz:settings:read');
  return { quiz, settings: settingsView(quiz) };
}

export async function updateSettings(ctx: Context, raw: Record<string, unknown>, query: Selection<'QuizSet'> = {}): Promise<{ quiz: QuizSet; settings: SettingsView }> {
  const input = parseInput(s.updateSettings, raw);
  const quiz = await findQuizSet(ctx, input.quiz, 'quiz:settings:update', 'quiz', query);
  const data: Prisma.QuizSetUpdateInput = {};
  if (input.shuffle !== undefined) data.shuffle = input.shuffle;
  if (input.timelimit !== undefined) data.timelimit = input.timelimit;
  if (input.roundtime !== undefined) {
    if (quiz.mode !== 'TURNS') throw new ArgumentError('roundtime', 'applies to TURNS Quiz sets only', 'ARGUMENT_CONFLICT');
    data.roundtime = input.roundtime;
  }
  if (input.grading !== undefined) {
    const special = input.grading === 'none' || input.grading === 'custom';
    data.grading = special ? input.grading : (await findUsablePreset(ctx, input.grading, 'grading')).id;
  }
  const grading = data.grading === undefined ? quiz.grading : (data.grading as string);
  const configurable = await takesThreshold(ctx, grading);
  if (input.gradingThreshold !== undefined) {
    if (!configurable) throw new ArgumentError('gradingThreshold', 'applies only to grading presets with a configurable threshold (go-nogo-custom)', 'ARGUMENT_CONFLICT');
    data.gradingThreshold = input.gradingThreshold;
  } else if (!configurable && quiz.gradingThreshold !== null) {
    // A threshold means nothing to the new grading: it would be read back as if it applied.
    data.gradingThreshold = null;
  }
  if (Object.keys(data).length === 0) return { quiz, settings: settingsView(quiz) };
  const updated = await ctx.db.$transaction(async (tx) => {
    const u = await tx.quizSet.update({ ...query, where: { id: quiz.id }, data });
    await audit(ctx, tx, 'quiz.settings.update', quiz.id);
    return u;
  });
  return { quiz: updated, settings: settingsView(updated) };
}

/** PUT (`replace`) and PATCH (`fill`) `quiz:settings`: copies the settings of `source` to `quiz`. */
export async function copySettings(ctx: Context, raw: Record<string, unknown>, mode: 'replace' | 'fill', query: Selection<'QuizSet'> = {}): Promise<{ quiz: QuizSet; source: QuizSet }> {
  const input = parseInput(s.copySettings, raw);
  if (input.source === input.quiz) throw new ArgumentError('source', 'must differ from the target Quiz set', 'SAME_SOURCE');
  const quiz = await findQuizSet(ctx, input.quiz, 'quiz:settings:update');
  const source = await findQuizSet(ctx, input.source, 'quiz:settings:copy', 'source');
  const updated = await ctx.db.$transaction(async (tx) => {
    const u = await tx.quizSet.update({ ...query, where: { id: quiz.id }, data: copiedSettings(quiz, source, mode) });
    await audit(ctx, tx, `quiz.settings.${mode === 'replace' ? 'replace' : 'fill'}`, quiz.id);
    return u;
  });
  return { quiz: updated, source };
}
