import type { Context } from '../../context.ts';

/**
 * What the exam settings tell the status and the rounds: whether new tests are paused, when the
 * results viewing period begins (view_results_start of the datetime kinds), and whether the round
 * is frozen (freeze_round). One call for many exams, so a dashboard costs the same for any number.
 */
export interface RunSettings {
  testsPaused: boolean;
  viewResultsStart: Date | null;
  freezeRound: boolean;
}

export const defaultRunSettings: RunSettings = { testsPaused: false, viewResultsStart: null, freezeRound: false };

// The exam settings part backs this with the stored settings; until then every exam runs on the defaults.
export async function runSettingsOf(_ctx: Pick<Context, 'db'>, examIds: readonly string[]): Promise<Map<string, RunSettings>> {
  return new Map(examIds.map((id) => [id, defaultRunSettings]));
}
