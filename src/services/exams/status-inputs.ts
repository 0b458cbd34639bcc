import type { Exam, Prisma } from '../../generated/prisma/client.ts';
import { viewResultsStartOf, type StoredSettings } from './settings.model.ts';
import { storedSettings } from './settings.service.ts';

/**
 * What the exam status derivation (status.ts) reads from the settings.
 *
 * - `reviewStart`: REVIEW begins here, the `view_results_start` of the datetime and datetime_blind
 *   kinds (null for the other kinds and for surveys, which have no results viewing).
 * - The settings have no switch that pauses a whole exam. Plays in status `paused` are single
 *   tests an examinee paused (pausable exams) and do not stop new tests from starting, so PAUSED
 *   comes only from the exam's own state (past its deadline). Paused tests matter only to the
 *   rules of nonblocking and pausable (settings.rules.ts).
 */
export interface StatusInputs {
  reviewStart: Date | null;
}

export const statusInputs = (exam: Pick<Exam, 'type'>, settings: StoredSettings): StatusInputs => ({
  reviewStart: viewResultsStartOf(exam.type, settings) ?? null,
});

/** The status inputs of one exam, read from its stored settings. */
export async function readStatusInputs(db: Pick<Prisma.TransactionClient, 'examSettings'>, exam: Pick<Exam, 'id' | 'type'>): Promise<StatusInputs> {
  return statusInputs(exam, await storedSettings(db, exam.id));
}

/** Status inputs of many exams in one statement (dashboards list exams with their status). */
export async function readStatusInputsOfMany(db: Pick<Prisma.TransactionClient, 'examSettings'>, exams: Pick<Exam, 'id' | 'type'>[]): Promise<Map<string, StatusInputs>> {
  const rows = await db.examSettings.findMany({ where: { examId: { in: exams.map((e) => e.id) } } });
  const stored = new Map(rows.map((r) => [r.examId, r.values as StoredSettings]));
  return new Map(exams.map((e) => [e.id, statusInputs(e, stored.get(e.id) ?? {})]));
}
