import type { Context, Platform } from './context.ts';
import type { RateLimiter } from './rate-limit.ts';
import { authenticate, readCredentials, type HeaderReader } from './auth/authenticate.ts';
import { resolveLanguage } from './services/instance/language.ts';
import { UnavailableError } from './errors.ts';
import { may } from './auth/policy.ts';
import { RequestContext } from './platform-fields.ts';

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
  if (settings.maintenance && !may(viewer.user, 'instance:maintenance:use')) throw new UnavailableError(MAINTENANCE_RETRY_AFTER);
  const points = call.points ?? 1;
  const rateLimit = limiter.active && points > 0 ? await limiter.consume(viewer.integration.id, points) : undefined;
  const language = resolveLanguage(call.headers.get('service-language'), viewer.user.language, settings.activeLanguages);
  return new RequestContext(platform, viewer, call.requestId, language, rateLimit);
}
