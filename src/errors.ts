/**
 * The one error model. Services throw these; REST maps them to a status with the
 * `Service-API-Error` and `Service-API-Error-Code` headers, GraphQL to `extensions.code`.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    /** UPPER_SNAKE category code. */
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the endpoint does not exist. */
export class UnknownEndpointError extends AppError {
  constructor(endpoint: string) {
    super(400, 'UNKNOWN_ENDPOINT', `Unknown endpoint '${endpoint}'`);
  }
}

/** 401: missing or wrong credentials, or an invalid assume token. */
export class AuthenticationError extends AppError {
  constructor(code: string, message: string) {
    super(401, code, message);
  }
}

/** 403: an argument is missing or breaks a rule; the message names the argument. */
export class ArgumentError extends AppError {
  constructor(
    readonly argument: string,
    rule: string,
    code = 'INVALID_ARGUMENT',
  ) {
    super(403, code, `Argument '${argument}': ${rule}`, { argument });
  }
}

/** 403: the caller may not do this. */
export class PermissionError extends AppError {
  constructor(message = 'Permission denied', code = 'PERMISSION_DENIED') {
    super(403, code, message);
  }
}

/**
 * 403: a journey graph with problems. `issues` lists the first ones (errors, then warnings; the REST
 * error body and GraphQL's extensions carry them), `problems` counts the errors (`exact` false: at
 * least that many, validation stopped early) and `ignored` lists unknown fields; nothing was saved.
 */
export class JourneyInvalidError extends AppError {
  constructor(
    message: string,
    readonly issues: readonly unknown[],
    readonly ignored: readonly string[],
    count: { problems: number; exact: boolean },
  ) {
    super(403, 'JOURNEY_INVALID', message, { issues, problems: count.problems, exact: count.exact, ...(ignored.length ? { ignored } : {}) });
  }
}

/** 405 with the allowed methods. */
export class MethodNotAllowedError extends AppError {
  constructor(
    method: string,
    readonly allow: string[],
  ) {
    super(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not supported; use ${allow.join(', ')}`);
  }
}

/** 406: unknown version, a feature that is off, or a configured limit reached. */
export class NotAcceptableError extends AppError {
  constructor(code: string, message: string) {
    super(406, code, message);
  }
}

export class FeatureDisabledError extends NotAcceptableError {
  constructor(feature: string) {
    super('FEATURE_DISABLED', `The ${feature} feature is not enabled`);
  }
}

/**
 * Where the caller stands after a call, for the `RateLimit-Limit`, `RateLimit-Remaining` and
 * `RateLimit-Reset` headers: the window closest to running out.
 */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until that window starts over. */
  reset: number;
  /** Every window, as `RateLimit-Policy` lists them: `50;w=1, 1200;w=60`. */
  policy: string;
}

/** 429 with Retry-After seconds, and where the window stands (the RateLimit-* headers). */
export class RateLimitError extends AppError {
  constructor(
    readonly retryAfter: number,
    readonly state?: RateLimitState,
  ) {
    super(429, 'RATE_LIMITED', `Rate limit exceeded; retry in ${retryAfter} s`);
  }
}

/** 501: the operation is part of the contract but not built yet. */
export class NotImplementedError extends AppError {
  constructor(operation: string) {
    super(501, 'NOT_IMPLEMENTED', `${operation} is not implemented yet`);
  }
}

/**
 * 503 with Retry-After seconds: the service cannot take this call now (the database is saturated,
 * or concurrent calls kept meeting each other). Nothing was changed; the same call may be sent again.
 */
export class BusyError extends AppError {
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(503, 'SERVICE_BUSY', message);
  }
}

/** 503 with Retry-After seconds. */
export class UnavailableError extends AppError {
  constructor(readonly retryAfter: number) {
    super(503, 'MAINTENANCE', 'The service is in maintenance; retry later');
  }
}

/** Prisma's codes for a database that could not take the work in time, or a conflict a retry resolves. */
const RETRYABLE_PRISMA = new Set([
  'P2024', // timed out fetching a connection from the pool
  'P2028', // transaction API error: unable to start a transaction in the given time, or it expired
  'P2034', // write conflict or deadlock
]);
/** PostgreSQL's: serialization failure, deadlock, too many connections, cannot connect now, query canceled (statement timeout). */
const RETRYABLE_SQLSTATE = new Set(['40001', '40P01', '53300', '57P03', '57014']);

/**
 * A database error that says the database is overloaded or that concurrent work collided, as a
 * 503 with Retry-After: the caller may send the call again, nothing it asked for was done (the
 * transaction rolled back). Undefined for any other error.
 */
function busyErrorOf(error: unknown): BusyError | undefined {
  const e = error as { code?: unknown; meta?: { code?: unknown }; cause?: { originalCode?: unknown; code?: unknown } } | null;
  if (!e || typeof e !== 'object') return undefined;
  const sqlState = e.meta?.code ?? e.cause?.originalCode ?? e.cause?.code;
  if ((typeof e.code === 'string' && RETRYABLE_PRISMA.has(e.code)) || (typeof sqlState === 'string' && RETRYABLE_SQLSTATE.has(sqlState))) {
    return new BusyError('The database is busy; retry shortly', 1);
  }
  return undefined;
}

/** The service's own refusal, or a database overload as BusyError; undefined for an unexpected error. */
export function knownError(error: unknown): AppError | undefined {
  return error instanceof AppError ? error : busyErrorOf(error);
}
