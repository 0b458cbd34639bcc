import type { Context } from '../../context.ts';
import type { Exam, GradingPreset, Prisma, QuizSet } from '../../generated/prisma/client.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { assertMay, may, refused } from '../../auth/policy.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import { assertActiveLanguage, findQuizSet } from '../quizzes/access.ts';
import { findExam } from '../exams/access.ts';
import { examRules, practiceRules } from '../plays/exam-rules.ts';
import type { Selection } from '../selection.ts';
import * as s from './grading.schemas.ts';
import { decidesSuccess, isConfigurable, normalizeGrades, type Grade, type PresetType } from './grades.ts';

/**
 * Grading presets: global ones shipped with the service (seed migration), presets of an
 * organization (provisioned for it, read-only like the global ones), and users' own custom
 * presets, which only their owner (or an instance administrator) changes or removes.
 */

/** Presets the viewer may list and use: global, its own custom presets, those of its organizations. */
export function usablePresetsWhere(ctx: Context): Prisma.GradingPresetWhereInput {
  const me = ctx.viewer.user.id;
  return {
    OR: [
      { global: true },
      { ownerId: me, organizationId: null },
      { organization: { OR: [{ ownerId: me }, { members: { some: { userId: me } } }] } },
    ],
  };
}

/** Presets the viewer may read: the usable ones; instance administrators read every preset. */
export const readablePresetsWhere = (ctx: Context): Prisma.GradingPresetWhereInput => (may(ctx.viewer.user, 'instance:records:read-all') ? {} : usablePresetsWhere(ctx));

/** A custom preset of the viewer (not global, not of an organization). */
export const isOwn = (ctx: Context, p: GradingPreset) => !p.global && p.organizationId === null && p.ownerId === ctx.viewer.user.id;

export interface PresetView {
  preset: GradingPreset;
  grades: Grade[];
  configurable: boolean;
  certificates: boolean;
  own: boolean;
  /** Single reads only. */
  used?: boolean;
  /** Lists for a Quiz set or an exam only. */
  current?: boolean;
}

export function presetView(ctx: Context, preset: GradingPreset, extra: Pick<PresetView, 'used' | 'current'> = {}): PresetView {
  return {
    preset,
    grades: preset.grades as unknown as Grade[],
    configurable: isConfigurable(preset.type),
    certificates: decidesSuccess(preset.type, preset.successfulAll),
    own: isOwn(ctx, preset),
    ...extra,
  };
}

/**
 * Where presets are used: Quiz sets whose `grading` names them and exams (not deleted) whose
 * `grading` setting does; an exam deferring to its Quiz set (`default`) uses the Quiz set's. The one
 * answer to "is this preset used" for `used`, for refusing a change of type and for refusing a
 * removal. Answers, per preset, the owners of the content that uses it; one statement for any
 * number of presets.
 */
async function presetUsers(db: Pick<Prisma.TransactionClient, '$queryRaw'>, ids: readonly string[]): Promise<Map<string, Set<string>>> {
  const users = new Map<string, Set<string>>();
  if (ids.length === 0) return users;
  const list = [...ids];
  const rows = await db.$queryRaw<{ preset: string; owner: string }[]>`
    SELECT q."grading" AS preset, q."ownerId" AS owner FROM "QuizSet" q WHERE q."grading" = ANY(${list}::text[])
    UNION
    SELECT s."values"->>'grading' AS preset, e."ownerId" AS owner FROM "ExamSettings" s JOIN "Exam" e ON e."id" = s."examId"
    WHERE NOT e."archived" AND s."values"->>'grading' = ANY(${list}::text[])`;
  for (const { preset, owner } of rows) (users.get(preset) ?? users.set(preset, new Set()).get(preset)!).add(owner);
  return users;
}

/** In use by any Quiz set or exam: what freezes its type and keeps it from being removed. */
const inUse = async (db: Pick<Prisma.TransactionClient, '$queryRaw'>, id: string) => (await presetUsers(db, [id])).has(id);

/**
 * `used` of each preset: for the viewer's own presets whether any Quiz set or exam uses it (what
 * blocks changing its type and removing it); for global and organization presets whether a Quiz
 * set or exam of the viewer does.
 */
export async function presetsUsed(ctx: Context, presets: readonly GradingPreset[]): Promise<boolean[]> {
  const users = await presetUsers(ctx.db, presets.map((p) => p.id));
  return presets.map((p) => {
    const owners = users.get(p.id);
    return owners !== undefined && (isOwn(ctx, p) || owners.has(ctx.viewer.user.id));
  });
}

export const isUsed = async (ctx: Context, preset: GradingPreset): Promise<boolean> => (await presetsUsed(ctx, [preset]))[0]!;

/** A preset the viewer may read; any other is answered as an id of nothing (NOT_FOUND naming `argument`). */
async function findPreset(ctx: Context, code: string, argument = 'preset'): Promise<GradingPreset> {
  const preset = await ctx.db.gradingPreset.findFirst({ where: { AND: [{ id: code }, readablePresetsWhere(ctx)] } });
  if (!preset) throw new ArgumentError(argument, `no grading preset with identification string '${code}'`, 'NOT_FOUND');
  return preset;
}

/**
 * A preset the viewer may put on a Quiz set (`grading` of the settings). One it may not read is
 * unknown; one it reads but may not use (an administrator reads every preset) is PERMISSION_DENIED.
 */
export async function findUsablePreset(ctx: Context, code: string, argument: string): Promise<GradingPreset> {
  const preset = await ctx.db.gradingPreset.findFirst({ where: { AND: [{ id: code }, readablePresetsWhere(ctx)] } });
  if (!preset) throw new ArgumentError(argument, `no grading preset with identification string '${code}' (or custom, none)`, 'NOT_FOUND');
  // Other callers read only what they may use.
  if (may(ctx.viewer.user, 'instance:records:read-all') && !(await ctx.db.gradingPreset.count({ where: { AND: [{ id: code }, usablePresetsWhere(ctx)] } }))) {
    throw refused('grading-preset:use');
  }
  return preset;
}

/** The viewer's own preset (or any custom one for administrators); global and organization presets are read-only. */
async function findChangeablePreset(ctx: Context, code: string, action: 'modify' | 'remove'): Promise<GradingPreset> {
  const preset = await findPreset(ctx, code);
  if (preset.global || preset.organizationId) {
    throw new PermissionError(`${preset.global ? 'Global' : 'Organization'} grading presets cannot be ${action === 'modify' ? 'modified' : 'removed'}`, 'PRESET_READ_ONLY');
  }
  assertMay(ctx.viewer.user, action === 'modify' ? 'grading-preset:update' : 'grading-preset:delete', preset);
  return preset;
}

/** `none` or empty: any language; otherwise an active language. */
async function presetLanguage(ctx: Context, language: string): Promise<string | null> {
  if (language === '' || language === 'none') return null;
  await assertActiveLanguage(ctx, language);
  return language;
}

/**
 * GET `quiz:grading-presets`: the presets usable by the caller, for a Quiz set or an exam when one
 * is given: its language is the default filter and `current` marks the grading it plays by (an
 * exam's own preset, or its Quiz set's when the exam defers to it).
 */
export async function listPresets(
  ctx: Context,
  raw: Record<string, unknown>,
  query: Selection<'GradingPreset'> = {},
): Promise<{ quiz?: QuizSet; exam?: Exam; presets: PresetView[] }> {
  const input = parseInput(s.listPresets, raw);
  if (input.quiz !== undefined && input.exam !== undefined) throw new ArgumentError('exam', 'give quiz or exam, not both', 'ARGUMENT_CONFLICT');
  const quiz = input.quiz === undefined ? undefined : await findQuizSet(ctx, input.quiz, 'quiz:grading-presets:read');
  const exam = input.exam === undefined ? undefined : await findExam(ctx, input.exam, 'exam:settings:read', 'exam', { include: { quiz: true } });
  const current = quiz ? practiceRules(quiz).grading : exam ? (await examRules(ctx.db, [exam as Exam & { quiz: QuizSet }]))[0]!.grading : undefined;
  const language = input.language ?? quiz?.language ?? exam?.language;
  const presets = await ctx.db.gradingPreset.findMany({
    ...query,
    where: { AND: [usablePresetsWhere(ctx), language ? { OR: [{ language }, { language: null }] } : {}] },
    // Global first, then those of organizations, then own ones.
    orderBy: [{ global: 'desc' }, { organizationId: { sort: 'asc', nulls: 'last' } }, { title: 'asc' }, { id: 'asc' }],
  });
  return { quiz, exam, presets: presets.map((p) => presetView(ctx, p, current === undefined ? {} : { current: p.id === current })) };
}

export async function getPreset(ctx: Context, raw: Record<string, unknown>): Promise<PresetView> {
  const preset = await findPreset(ctx, parseInput(s.presetRef, raw).preset);
  return presetView(ctx, preset, { used: await isUsed(ctx, preset) });
}

export async function createPreset(ctx: Context, raw: Record<string, unknown>, query: Selection<'GradingPreset'> = {}): Promise<GradingPreset> {
  await ctx.settings.require('custom_grading', ctx.viewer.user);
  const input = parseInput(s.createPreset, raw);
  const grades = normalizeGrades(input.type, input.grades);
  if (input.successfulAll !== undefined && input.type !== 'custom') throw new ArgumentError('successfulAll', 'applies to custom presets only', 'ARGUMENT_CONFLICT');
  const language = input.language === undefined ? ctx.viewer.user.language : await presetLanguage(ctx, input.language);
  return ctx.db.$transaction(async (tx) => {
    const preset = await tx.gradingPreset.create({
      ...query,
      data: {
        id: newId('GradingPreset'),
        title: input.title,
        type: input.type,
        language,
        ownerId: ctx.viewer.user.id,
        grades: grades as unknown as Prisma.InputJsonValue,
        successfulAll: input.successfulAll ?? false,
      },
    });
    await audit(ctx, tx, 'grading-preset.create', preset.id);
    return preset;
  });
}

export async function updatePreset(ctx: Context, raw: Record<string, unknown>, query: Selection<'GradingPreset'> = {}): Promise<PresetView> {
  const input = parseInput(s.updatePreset, raw);
  const preset = await findChangeablePreset(ctx, input.preset, 'modify');
  const type = (input.type ?? preset.type) as PresetType;
  const typeChanged = type !== preset.type;
  if (typeChanged && (await inUse(ctx.db, preset.id))) {
    throw new ArgumentError('type', 'cannot change while a Quiz set or exam uses the preset', 'PRESET_IN_USE');
  }
  const data: Prisma.GradingPresetUpdateInput = {};
  if (input.title !== undefined) data.title = input.title;
  if (input.language !== undefined) data.language = await presetLanguage(ctx, input.language);
  if (input.grades !== undefined) data.grades = normalizeGrades(type, input.grades) as unknown as Prisma.InputJsonValue;
  else if (typeChanged) {
    // The grades stay; they must fit the new type (their names follow it).
    try {
      data.grades = normalizeGrades(type, preset.grades as unknown as Grade[]) as unknown as Prisma.InputJsonValue;
    } catch {
      throw new ArgumentError('type', `the current grades do not fit type ${type}; give grades for it too`);
    }
  }
  if (typeChanged) data.type = type;
  if (input.successfulAll !== undefined) {
    if (type !== 'custom') throw new ArgumentError('successfulAll', 'applies to custom presets only', 'ARGUMENT_CONFLICT');
    data.successfulAll = input.successfulAll;
  } else if (typeChanged && type !== 'custom') data.successfulAll = false;
  const updated = await ctx.db.$transaction(async (tx) => {
    const u = await tx.gradingPreset.update({ ...query, where: { id: preset.id }, data });
    await audit(ctx, tx, 'grading-preset.update', preset.id);
    return u;
  });
  return presetView(ctx, updated, { used: await isUsed(ctx, updated) });
}

export async function deletePreset(ctx: Context, raw: Record<string, unknown>): Promise<GradingPreset> {
  const preset = await findChangeablePreset(ctx, parseInput(s.presetRef, raw).preset, 'remove');
  await ctx.db.$transaction(async (tx) => {
    if (await inUse(tx, preset.id)) throw new PermissionError('A grading preset in use by a Quiz set or exam cannot be removed', 'PRESET_IN_USE');
    await tx.gradingPreset.delete({ where: { id: preset.id } });
    await audit(ctx, tx, 'grading-preset.delete', preset.id);
  });
  return preset;
}
