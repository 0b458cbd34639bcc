import type { Context } from '../../context.ts';
import type { Exam } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { can, deniedArgument } from '../../auth/policy.ts';
import { isConfigurable } from '../grading/grades.ts';
import { findUsablePreset } from '../grading/grading.service.ts';
import {
  hideGradeOf, hidePointsOf, kindOf, nonblockingOf, pagelessKinds, pausableOf, periodKinds, questionlessOf,
  type SettingName, type StoredSettings,
} from './settings.model.ts';
import { qualifiesAsIdentifier } from './fields.model.ts';

/**
 * The dependency rules of the settings table, checked against the settings as they will be after
 * a change (POST) or a copy (PUT, PATCH). A change against a rule is refused with 403
 * ARGUMENT_CONFLICT naming the setting and stating the rule; freeze_round and archive by a caller
 * who is not a manager with 403 PERMISSION_DENIED naming the setting; enabling export_gender
 * without the privileged fields feature with 406 FEATURE_DISABLED.
 */

export type ExamWithQuiz = Exam & { quizMode: string };

const conflict = (setting: SettingName, rule: string) => new ArgumentError(setting, rule, 'ARGUMENT_CONFLICT');

/** Facts about the exam some rules need, each read once and only when a rule asks. */
export class ExamFacts {
  private cache = new Map<string, Promise<boolean>>();
  constructor(
    private readonly ctx: Context,
    readonly exam: ExamWithQuiz,
    private readonly db: Pick<Context['db'], 'play' | 'examField'> = ctx.db,
    /** Known answers: the creator of a new exam is its manager. */
    private readonly known: { manager?: boolean } = {},
  ) {}

  private once(key: string, read: () => Promise<boolean>): Promise<boolean> {
    let value = this.cache.get(key);
    if (!value) this.cache.set(key, (value = read()));
    return value;
  }

  /** Results exist: any play of the exam, archived ones included (they are kept results). */
  hasResults = () => this.once('results', async () => (await this.db.play.count({ where: { examId: this.exam.id } })) > 0);
  /** Tests paused by their examinees (pausable exams) and not finished yet. */
  hasPausedTests = () => this.once('paused', async () => (await this.db.play.count({ where: { examId: this.exam.id, status: 'paused' } })) > 0);
  /** The current round has results. */
  roundHasResults = () => this.once('round', async () => (await this.db.play.count({ where: { examId: this.exam.id, round: this.exam.round } })) > 0);
  /** "Managers only": callers holding admin on the exam (owner, administrators, the organization's admins, admin rules). */
  isManager = () => this.once('manager', async () => this.known.manager ?? (await can(this.ctx, 'exam:settings:manage', this.exam)));
  /** The label names a current unique free-text custom field of the exam. */
  identifierQualifies = (label: string) =>
    this.once(`field:${label}`, async () => {
      const field = await this.db.examField.findFirst({ where: { examId: this.exam.id, label, removedAt: null } });
      return !!field && qualifiesAsIdentifier(field);
    });
  /** Whether a grading value takes a threshold: only presets of a configurable type do. */
  takesThreshold = (grading: string | undefined) =>
    this.once(`grading:${grading}`, async () => {
      if (grading === undefined || grading === 'default' || grading === 'none') return false;
      const preset = await this.ctx.db.gradingPreset.findUnique({ where: { id: grading }, select: { type: true } });
      return !!preset && isConfigurable(preset.type);
    });
}

/**
 * Checks `after` against every rule; `given` are the settings the caller sets (POST) or the copy
 * changes (PUT, PATCH). Throws the refusal of the first rule broken, in the order of the table.
 */
export async function checkRules(ctx: Context, facts: ExamFacts, before: StoredSettings, after: StoredSettings, given: ReadonlySet<SettingName>): Promise<void> {
  const { exam } = facts;
  const type = exam.type;
  const kind = kindOf(type, after);

  if (given.has('nonblocking') && after.nonblocking === false && (type === 'homework' || type === 'survey')) {
    throw conflict('nonblocking', 'is always true for homework and survey exams');
  }
  if (nonblockingOf(type, before) && !nonblockingOf(type, after)) {
    if (await facts.hasResults()) throw conflict('nonblocking', 'cannot be disabled when results exist');
    if (await facts.hasPausedTests()) throw conflict('nonblocking', 'cannot be disabled while tests are paused');
  }

  if (given.has('pausable') && after.pausable === false && type === 'homework') throw conflict('pausable', 'is always true for homework');
  if (given.has('pausable') && after.pausable === true && !nonblockingOf(type, after)) throw conflict('pausable', 'applies only to non-blocking exams');
  if (pausableOf(type, before) && !pausableOf(type, after) && (await facts.hasPausedTests())) {
    throw conflict('pausable', 'cannot be disabled while tests are paused');
  }

  if (given.has('questionless') && after.questionless === true && (type === 'survey' || type === 'championship')) {
    throw conflict('questionless', 'does not apply to survey or championship exams');
  }
  if (questionlessOf(type, before) !== questionlessOf(type, after) && (await facts.roundHasResults())) {
    throw conflict('questionless', 'is frozen while the current round has results; it can change once a new round starts');
  }

  if (given.has('roundtime') && typeof after.roundtime === 'number' && exam.quizMode !== 'TURNS') {
    throw conflict('roundtime', 'applies to exams of TURNS Quiz sets only');
  }

  for (const name of ['freezeRound', 'archive'] as const) {
    if ((before[name] ?? false) !== (after[name] ?? false) && !(await facts.isManager())) {
      throw deniedArgument('exam:settings:manage', name);
    }
  }

  if (after.gradingThreshold !== undefined && !(await facts.takesThreshold(after.grading))) {
    throw conflict('gradingThreshold', 'applies only to grading presets with a configurable threshold (go-nogo-custom)');
  }

  if (periodKinds.includes(kind)) {
    if (!after.viewResultsStart) throw conflict('viewResultsStart', 'is mandatory with view_results datetime and datetime_blind');
    const start = new Date(after.viewResultsStart);
    if (given.has('viewResultsStart') && (start < exam.start || start > exam.end)) {
      throw conflict('viewResultsStart', "must lie within the exam's period (between its start and end)");
    }
    if (given.has('viewResultsIdentifier') && after.viewResultsIdentifier && !(await facts.identifierQualifies(after.viewResultsIdentifier))) {
      throw conflict('viewResultsIdentifier', 'must be the label of a unique free-text custom field (text, email or phone) of the exam');
    }
  } else {
    if (given.has('viewResultsStart') && after.viewResultsStart) throw conflict('viewResultsStart', 'applies only with view_results datetime and datetime_blind');
    if (given.has('viewResultsIdentifier') && after.viewResultsIdentifier) {
      throw conflict('viewResultsIdentifier', 'applies only with view_results datetime and datetime_blind');
    }
  }

  if (after.resultsPage === false && !pagelessKinds.includes(kind) && type !== 'survey') {
    throw conflict('resultsPage', 'can be disabled only with view_results datetime_blind, manual or none');
  }
  if (given.has('hidePoints') && after.hidePoints === false && kind === 'none' && type !== 'survey') {
    throw conflict('hidePoints', 'is always enabled with view_results none');
  }
  if (given.has('hideGrade') && after.hideGrade === false && kind === 'none' && type !== 'survey') {
    throw conflict('hideGrade', 'is always enabled with view_results none');
  }
  if (hideGradeOf(type, after) && !hidePointsOf(type, after)) throw conflict('hideGrade', 'applies only together with hide_points');
  if (after.showInLasthour === true && kind !== 'after' && type !== 'survey') throw conflict('showInLasthour', 'applies only with view_results after');

  if (after.exportGender === true && before.exportGender !== true) await ctx.settings.require('privileged_fields', ctx.viewer.user);
}

/** A grading value as stored: `default`, `none`, or a preset the caller may use (its code). */
export async function usableGrading(ctx: Context, grading: string): Promise<string> {
  if (grading === 'default' || grading === 'none') return grading;
  return (await findUsablePreset(ctx, grading, 'grading')).id;
}
