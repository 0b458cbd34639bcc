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
import type { RateLimiter } from './rate-limit.ts';
import { authenticate, readCredentials, type HeaderReader } from './auth/authenticate.ts';
import { resolveLanguage } from './services/instance/language.ts';
import { UnavailableError, type RateLimitState } from './errors.ts';
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

/** What either face knows about a call before it runs it. */
export interface CallInfo {
  headers: HeaderReader;
  /** Arguments that may carry credentials (`app`, `secret`, `assume`): REST arguments, GraphQL query parameters. */
  args: Record<string, unknown>;
  requestId: string;
  /** The call only ends maintenance (GraphQL `setMaintenance`): administrators may make it during maintenance. */
  endsMaintenance?: boolean;
  /**
   * Rate-limit points the call spends once authenticated: 1, a REST call. GraphQL passes 0 and
   * spends the operation's cost when it executes (graphql/plugins/limits.ts).
   */
  points?: number;
}

/** Seconds a client is asked to wait during maintenance. */
const MAINTENANCE_RETRY_AFTER = 120;

/**
 * The one way a call becomes a context, for the REST router and for GraphQL alike, in this order:
 * 1. maintenance: every call answers 503 before its credentials are read, except a call that only
 *    ends maintenance, which an instance administrator may still make;
 * 2. credentials (through the credential cache), 401 when they fail;
 * 3. the application's rate limit, 429 (`call.points`, one by default);
 * 4. the language of the call and the request id.
 * The settings snapshot is read without awaiting when it is fresh: this runs on every call.
 */
export async function createContext(platform: Platform, limiter: RateLimiter, call: CallInfo): Promise<Context> {
  const settings = platform.settings.fresh() ?? (await platform.settings.current());
  if (settings.maintenance && !call.endsMaintenance) throw new UnavailableError(MAINTENANCE_RETRY_AFTER);
  const viewer = await authenticate(platform, readCredentials(call.headers, call.args));
  if (settings.maintenance && !viewer.user.admin) throw new UnavailableError(MAINTENANCE_RETRY_AFTER);
  const points = call.points ?? 1;
  const rateLimit = limiter.active && points > 0 ? await limiter.consume(viewer.integration.id, points) : undefined;
  return {
    ...platform,
    rateLimit,
    viewer,
    requestId: call.requestId,
    language: resolveLanguage(call.headers.get('service-language'), viewer.user.language, settings.activeLanguages),
  };
}
