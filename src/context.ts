import type DataLoader from 'dataloader';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { SecretBox } from './auth/secrets.ts';
import type { CredentialCache } from './auth/credential-cache.ts';
import type { Viewer } from './auth/viewer.ts';
import type { OrganizationAccess } from './auth/organization-policy.ts';
import type { LibraryDocument, Organization, Prisma, Question } from './generated/prisma/client.ts';
import type { InstanceSettings } from './services/instance/settings.service.ts';
import type { Notifier } from './services/notifications/notifications.service.ts';
import type { LiveResults } from './services/plays/live-results.ts';
import type { ExamStarts } from './services/plays/exam-starts.ts';
import type { AnswerWriter, PlayClaimer } from './services/plays/player-statements.ts';
import type { PlayFinisher } from './services/plays/finish-requests.ts';
import type { RateLimitState } from './errors.ts';

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
  /** Finishes the player's plays, those that arrive together in one transaction. */
  finishes: PlayFinisher;
  /** Finished plays as they happen, for GraphQL subscriptions (across instances with Redis). */
  live: LiveResults;
}

/**
 * The request's DataLoaders: the rows and rules that nested GraphQL fields ask for one parent at a
 * time, loaded for every parent of a list at once (a loader returns results in the order of its
 * keys). Built once per request context, never shared between requests, so nothing one viewer
 * may read reaches another. Writes that change what they hold call `forgetLoaded` (services/loaders.ts).
 */
export type ResultQuestionFacts = Pick<Question, 'id' | 'externalId' | 'type' | 'data'>;

export interface Loaders {
  organization: DataLoader<string, Organization | null>;
  /** What the viewer may do in each organization (auth/organization-policy.ts). */
  organizationAccess: DataLoader<Organization, OrganizationAccess, string>;
  /** Whether the viewer may see the membership of `userId` in `organizationId`. */
  visibleMember: DataLoader<{ organizationId: string; userId: string }, boolean, string>;
  libraryDocument: DataLoader<string, LibraryDocument | null>;
  /** What a result shows of a question (its external id and maximum), for the results of a list of plays. */
  resultQuestion: DataLoader<string, ResultQuestionFacts | null>;
  /** The members the viewer may see in any organization, as one filter (computed once). */
  visibleMembersWhere(): Promise<Prisma.OrganizationMemberWhereInput>;
  /**
   * A viewer-wide value computed once per request under `key`, such as a permission filter that
   * every row of a list applies: GraphQL asks a relation for its filter once per parent row.
   */
  once<T>(key: string, compute: () => Promise<T>): Promise<T>;
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
