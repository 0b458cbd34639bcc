import type { Context } from '../../context.ts';
import type { Exam, Prisma } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import type { Action } from '../../auth/actions.ts';
import { findExam } from './access.ts';
import * as s from './settings.schemas.ts';
import {
  appliesTo, applicable, nonblockingOf, pausableOf, periodKinds, kindOf, settingsView,
  type SettingName, type SettingsView, type StoredSettings,
} from './settings.model.ts';
import { ExamFacts, checkRules, usableGrading, type ExamWithQuiz } from './settings.rules.ts';
import { copyCertificateSettings } from './certificate.service.ts';

/**
 * `exam:settings`: reading, changing (POST), replacing (PUT) and filling in (PATCH). The stored
 * record holds only configured settings (settings.model.ts); every write checks the settings as
 * they will be against the rules of the table (settings.rules.ts) and changes nothing when one
 * is broken.
 */

type Db = Pick<Prisma.TransactionClient, 'examSettings' | 'quizSet'>;

export async function storedSettings(db: Pick<Prisma.TransactionClient, 'examSettings'>, examId: string): Promise<StoredSettings> {
  const row = await db.examSettings.findUnique({ where: { examId } });
  return (row?.values ?? {}) as StoredSettings;
}

async function withQuizMode(db: Db, exam: Exam): Promise<ExamWithQuiz> {
  const quiz = await db.quizSet.findUnique({ where: { id: exam.quizId }, select: { mode: true } });
  return { ...exam, quizMode: quiz?.mode ?? 'TEST' };
}

/** The exam (with its Quiz set's mode) once the caller may do `action`, and its configured settings. */
async function load(ctx: Context, code: string, action: Action & `exam:${string}`, argument = 'exam') {
  const exam = await findExam(ctx, code, action, argument);
  const [withMode, stored] = await Promise.all([withQuizMode(ctx.db, exam), storedSettings(ctx.db, exam.id)]);
  return { exam: withMode, stored };
}

/** The address of an exam's identifier-based results page. */
export const resultsUrl = (ctx: Pick<Context, 'config'>, examId: string) => `${ctx.config.baseUrl}/results/${examId}`;

export interface ExamSettingsResult {
  exam: Exam;
  settings: SettingsView;
}

const result = (ctx: Context, exam: ExamWithQuiz, stored: StoredSettings): ExamSettingsResult => ({
  exam,
  settings: settingsView(exam, stored, resultsUrl(ctx, exam.id)),
});

export async function getSettings(ctx: Context, raw: Record<string, unknown>): Promise<ExamSettingsResult> {
  const { exam, stored } = await load(ctx, parseInput(s.examRef, raw).exam, 'exam:settings:read');
  return result(ctx, exam, stored);
}

/**
 * The settings as an exam reads them from rows already loaded with it: GraphQL's `Exam.settings`
 * selects them with the exam (one round of SQL for a whole list); the exam is already visible.
 */
export function settingsOfLoaded(ctx: Pick<Context, 'config'>, exam: Pick<Exam, 'id' | 'type'> & { quiz: { mode: string }; settings: { values: unknown } | null }): SettingsView {
  return settingsView({ id: exam.id, type: exam.type, quizMode: exam.quiz.mode }, (exam.settings?.values ?? {}) as StoredSettings, resultsUrl(ctx, exam.id));
}

async function write(ctx: Context, tx: Prisma.TransactionClient, examId: string, values: StoredSettings): Promise<void> {
  const json = values as Prisma.InputJsonObject;
  await tx.examSettings.upsert({ where: { examId }, create: { examId, values: json }, update: { values: json } });
}

/** Sets `name` to `value`, or unconfigures it when undefined. */
function put<K extends SettingName>(settings: StoredSettings, name: K, value: StoredSettings[K] | undefined): void {
  if (value === undefined) delete settings[name];
  else settings[name] = value;
}

/** POST `exam:settings`: only the given settings change. */
export async function updateSettings(ctx: Context, raw: Record<string, unknown>): Promise<ExamSettingsResult> {
  const { exam: code, ...change } = parseInput(s.updateSettings, raw);
  const { exam, stored: before } = await load(ctx, code, 'exam:settings:update');
  const given = new Set(Object.keys(change).filter((k) => change[k as keyof typeof change] !== undefined) as SettingName[]);
  for (const name of given) {
    if (!appliesTo(exam.type, name)) throw new ArgumentError(name, 'does not apply to surveys', 'ARGUMENT_CONFLICT');
  }

  const after: StoredSettings = { ...before };
  for (const name of given) {
    const value = change[name as keyof typeof change];
    (after as Record<string, unknown>)[name] = value instanceof Date ? value.toISOString() : value;
  }
  if (change.grading !== undefined) after.grading = await usableGrading(ctx, change.grading);
  const facts = new ExamFacts(ctx, exam);
  await adjust(facts, before, after, given);
  await checkRules(ctx, facts, before, after, given);

  await ctx.db.$transaction(async (tx) => {
    await write(ctx, tx, exam.id, after);
    await audit(ctx, tx, 'exam.settings.update', exam.id);
  });
  return result(ctx, exam, after);
}

/**
 * What follows from a change without being given: pausable is switched off when nonblocking is;
 * a threshold goes with a grading that takes none; the viewing period's start and the identifier
 * go when view_results leaves the kinds that have them.
 */
async function adjust(facts: ExamFacts, before: StoredSettings, after: StoredSettings, given: ReadonlySet<SettingName>): Promise<void> {
  const type = facts.exam.type;
  if (!given.has('pausable') && nonblockingOf(type, before) && !nonblockingOf(type, after) && after.pausable) after.pausable = false;
  if (!given.has('gradingThreshold') && after.gradingThreshold !== undefined && !(await facts.takesThreshold(after.grading))) delete after.gradingThreshold;
  if (!periodKinds.includes(kindOf(type, after))) {
    if (!given.has('viewResultsStart')) delete after.viewResultsStart;
    if (!given.has('viewResultsIdentifier') && after.viewResultsIdentifier) delete after.viewResultsIdentifier;
  }
}

/**
 * The target's settings after copying `source` (PUT: `replace`, PATCH: `fill` only unconfigured
 * ones). Never copied: the round's freezing (rounds are the exam's own), settings that do not apply
 * to the target (its type, its Quiz set's mode), questionless for surveys and championships or
 * while the target's current round has results, and what this caller could not set itself
 * (archive without being a manager, export_gender without the privileged fields feature); an
 * identifier the target has no qualifying field for. Nonblocking and pausable stay when the copy
 * would disable them against their rules. The rest must pass the rules like a POST.
 */
async function copied(ctx: Context, facts: ExamFacts, before: StoredSettings, source: StoredSettings, mode: 'replace' | 'fill'): Promise<StoredSettings> {
  const { exam } = facts;
  const after: StoredSettings = applicable(exam.type, mode === 'replace' ? { ...source } : { ...source, ...before });
  if (mode === 'fill' && before.grading !== undefined) put(after, 'gradingThreshold', before.gradingThreshold);
  const keep = (name: SettingName) => put(after, name, before[name] as never);
  keep('freezeRound');
  // Fixed by the target's type: nothing to copy.
  if (exam.type === 'homework' || exam.type === 'survey') keep('nonblocking');
  if (exam.type === 'homework') keep('pausable');
  if (typeof after.roundtime === 'number' && exam.quizMode !== 'TURNS') keep('roundtime');
  if (exam.type === 'survey' || exam.type === 'championship' || (await facts.roundHasResults())) keep('questionless');
  if ((after.archive ?? false) !== (before.archive ?? false) && !(await facts.isManager())) keep('archive');
  if (after.exportGender === true && before.exportGender !== true && !(await ctx.settings.isEnabled('privileged_fields', ctx.viewer.user))) keep('exportGender');
  const type = exam.type;
  if (nonblockingOf(type, before) && !nonblockingOf(type, after) && ((await facts.hasResults()) || (await facts.hasPausedTests()))) {
    keep('nonblocking');
    keep('pausable');
  }
  if (pausableOf(type, before) && !pausableOf(type, after) && (await facts.hasPausedTests())) keep('pausable');
  if (after.pausable && !nonblockingOf(type, after)) after.pausable = false;
  if (after.viewResultsIdentifier && !(await facts.identifierQualifies(after.viewResultsIdentifier))) delete after.viewResultsIdentifier;
  if (after.gradingThreshold !== undefined && !(await facts.takesThreshold(after.grading))) delete after.gradingThreshold;
  return after;
}

/**
 * Checks a copy against the rules. A copied setting that breaks a rule on the target (a fill-in
 * next to the target's own settings, say show_in_lasthour beside the target's view_results none)
 * is not copied: the target keeps its value and the rest is checked again. A rule the target's
 * own values break is refused like a POST.
 */
async function settle(ctx: Context, facts: ExamFacts, before: StoredSettings, after: StoredSettings): Promise<StoredSettings> {
  for (;;) {
    const changed = changedNames(before, after);
    try {
      await checkRules(ctx, facts, before, after, changed);
      return after;
    } catch (error) {
      const setting = error instanceof ArgumentError && error.code === 'ARGUMENT_CONFLICT' ? (error.argument as SettingName) : undefined;
      if (!setting || !changed.has(setting)) throw error;
      put(after, setting, before[setting] as never);
    }
  }
}

/** The settings whose stored value differs: what a copy changes. */
function changedNames(before: StoredSettings, after: StoredSettings): Set<SettingName> {
  const names = new Set([...Object.keys(before), ...Object.keys(after)] as SettingName[]);
  return new Set([...names].filter((n) => JSON.stringify(before[n]) !== JSON.stringify(after[n])));
}

/** PUT (`replace`) and PATCH (`fill`) `exam:settings`. */
export async function copySettings(ctx: Context, raw: Record<string, unknown>, mode: 'replace' | 'fill'): Promise<{ exam: Exam; source: Exam }> {
  const input = parseInput(s.copySettings, raw);
  if (input.source === input.exam) throw new ArgumentError('source', 'must differ from the target exam', 'SAME_SOURCE');
  const { exam, stored: before } = await load(ctx, input.exam, 'exam:settings:update');
  const { exam: source, stored: sourceSettings } = await load(ctx, input.source, 'exam:settings:copy', 'source');
  const facts = new ExamFacts(ctx, exam);
  const after = await settle(ctx, facts, before, await copied(ctx, facts, before, sourceSettings, mode));
  await ctx.db.$transaction(async (tx) => {
    await write(ctx, tx, exam.id, after);
    if (!input.keepCertificateSettings) await copyCertificateSettings(tx, source.id, exam.id, mode);
    await audit(ctx, tx, `exam.settings.${mode}`, exam.id);
  });
  return { exam, source };
}

/**
 * POST `exam` with `copy_settings`: the new exam takes the source's settings like PUT does (the
 * creator owns it, so it is a manager); its certificate settings only when `keepCertificateSettings`.
 */
export async function copyIntoNewExam(tx: Prisma.TransactionClient, ctx: Context, copy: { source: Exam; target: Exam; keepCertificateSettings: boolean }): Promise<void> {
  const target = await withQuizMode(tx, copy.target);
  const facts = new ExamFacts(ctx, target, tx, { manager: true });
  const after = await settle(ctx, facts, {}, await copied(ctx, facts, {}, await storedSettings(tx, copy.source.id), 'replace'));
  await write(ctx, tx, target.id, after);
  if (copy.keepCertificateSettings) await copyCertificateSettings(tx, copy.source.id, target.id, 'replace');
}

/** Clears `view_results_identifier` when the field it names stops qualifying (fields changed or removed). */
export async function clearIdentifierUnless(tx: Prisma.TransactionClient, examId: string, qualifies: (label: string) => boolean): Promise<void> {
  const stored = await storedSettings(tx, examId);
  if (!stored.viewResultsIdentifier || qualifies(stored.viewResultsIdentifier)) return;
  await tx.examSettings.update({ where: { examId }, data: { values: { ...stored, viewResultsIdentifier: null } as Prisma.InputJsonObject } });
}
