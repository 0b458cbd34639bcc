import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { SecretBox } from './auth/secrets.ts';
import type { CredentialCache } from './auth/credential-cache.ts';
import type { Integration, User } from './generated/prisma/client.ts';
import type { InstanceSettings } from './services/instance/settings.service.ts';
import type { Notifier } from './services/notifications/notifications.service.ts';
import type { LiveResults } from './services/plays/live-results.ts';
import type { ExamStarts } from './services/plays/exam-starts.ts';
import type { AnswerWriter, PlayClaimer } from './services/plays/player-statements.ts';
import type { RateLimitState } from './errors.ts';
import type { Loaders } from './services/loaders.ts';

/** Long-lived dependencies shared by every request: built once in main.ts (or by a test). */
export interface Platform {
  config: Config;
  db: Db;
  secrets: SecretBox;
  log: Logger;
  settings: InstanceSettings;
  notifier: Notifier;
  credentials: CredentialCache;
  /** What starting an exam reads, kept for PLAYER_CACHE_TTL_MS (services/plays/exam-starts.ts). */
  examStarts: ExamStarts;
  /** Writes the player's answers, many in one statement when they arrive together (services/plays/answer-writer.ts). */
  answers: AnswerWriter;
  /** Starts the player's plays, many users' in one statement when they arrive together. */
  claims: PlayClaimer;
  /** Finished plays as they happen, for GraphQL subscriptions (across instances with Redis). */
  live: LiveResults;
}

/**
 * Who is calling. The application acts as its owner, with the owner's permissions; with an
 * `assume` token it acts as the assumed user. `user` is the one every action is attributed to.
 */
export interface Viewer {
  user: User;
  owner: User;
  integration: Integration;
  assumeTokenId?: string;
}

/** Per-request context handed to every service call. */
export interface Context extends Platform {
  viewer: Viewer;
  requestId: string;
  language: string;
  /** This request's DataLoaders (services/loaders.ts); built on first use unless the factory built them. */
  loaders?: Loaders;
  /** Where the application's rate limit stands after this call spent its points (the RateLimit-* headers). */
  rateLimit?: RateLimitState;
}
