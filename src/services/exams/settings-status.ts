import type { Prisma } from '../../generated/prisma/client.ts';
import { viewResultsStartOf, type StoredSettings } from './settings.model.ts';

/**
 * What the exam settings tell the status and the rounds, for many exams in one statement (a
 * dashboard costs the same for any number of exams):
 * - `viewResultsStart`: REVIEW begins here, the `view_results_start` of the datetime and
 *   datetime_blind kinds (null for the other kinds and for surveys, which have no results viewing);
 * - `testsPaused`: the settings have no switch that pauses a whole exam. Plays in status `paused`
 *   are single tests an examinee paused (pausable exams) and do not stop new tests from starting,
 *   so PAUSED comes from the exam's own state (past its deadline); paused tests matter only to the
 *   rules of nonblocking and pausable (settings.rules.ts);
 * - `freezeRound`: the current round is frozen (freeze_round).
 */
export interface RunSettings {
  testsPaused: boolean;
  viewResultsStart: Date | null;
  freezeRound: boolean;
}

/** The run settings of an exam of the type with these stored settings (null: none stored). */
export function runSettingsFrom(type: string, values: Prisma.JsonValue | null | undefined): RunSettings {
  const stored = (values ?? {}) as StoredSettings;
  return { testsPaused: false, viewResultsStart: viewResultsStartOf(type, stored) ?? null, freezeRound: stored.freezeRound ?? false };
}

export async function runSettingsOf(ctx: { db: Prisma.TransactionClient }, examIds: readonly string[]): Promise<Map<string, RunSettings>> {
  const exams = await ctx.db.exam.findMany({ where: { id: { in: [...examIds] } }, select: { id: true, type: true, settings: { select: { values: true } } } });
  const byId = new Map(exams.map((exam) => [exam.id, runSettingsFrom(exam.type, exam.settings?.values)]));
  return new Map(examIds.map((id) => [id, byId.get(id) ?? { testsPaused: false, viewResultsStart: null, freezeRound: false }]));
}
