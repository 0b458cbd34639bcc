import type { Batcher } from '../../batcher.ts';
import type { Prisma } from '../../generated/prisma/client.ts';

/** A play as settling leaves it, with its exam (null for practice) and Quiz set. */
export type SettledPlay = Prisma.PlayGetPayload<{ include: { exam: true; quiz: true } }>;

/** A play to finish: the player's own (`userId`), or the service's (an overdue or questionless play, whoever's it is). */
export interface FinishRequest {
  play: string;
  userId?: string;
  now: Date;
  /** The time limit's timer: only a play whose deadline has passed. */
  onlyOverdue?: boolean;
}

/** The finished play, or why the player may not finish it; null where the service's own finish found nothing open. */
export type FinishOutcome = { play: SettledPlay } | { refusal: Error } | null;

/** Finishes as players send them: those that arrive together in one transaction (a group commit, src/batcher.ts). */
export type PlayFinisher = Batcher<FinishRequest, FinishOutcome>;
