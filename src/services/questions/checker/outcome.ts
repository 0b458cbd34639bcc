import type { CheckDetails } from './types.ts';

/** What a type's scorer returns; answer-checker.ts turns it into a CheckResult. */
export interface Outcome {
  score: number;
  details: CheckDetails;
}

export function zero(reason: NonNullable<CheckDetails['reason']>, details: CheckDetails = {}): Outcome {
  return { score: 0, details: { ...details, reason } };
}
