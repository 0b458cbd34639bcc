import { z } from 'zod';

/**
 * The only reader of process.env. Every variable is validated at start; a bad configuration
 * prints every problem at once and the process exits, instead of failing on first use.
 */
const boolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true, false, 1, 0, yes or no' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Whole numbers written in decimal; the message names the range instead of zod's "received NaN". */
const integer = (min: number, max: number) =>
  z.coerce
    .number({ error: `must be a whole number from ${min} to ${max}` })
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be a whole number from ${min} to ${max}`)
    .max(max, `must be a whole number from ${min} to ${max}`);

/** The same rule as parseSecretKey (src/auth/secrets.ts), checked here so a bad key is listed with the rest. */
const secretKey = z
  .string()
  .refine((v) => /^[0-9a-f]{64}$/i.test(v) || (/^[A-Za-z0-9+/_-]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32), {
    message: 'must be 32 bytes, as 64 hex characters or base64',
  });

const variables = z.object({
  PORT: integer(0, 65535).default(4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  BASE_URL: z.url().optional(),
  BOOTSTRAP_APP: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, '8-64 letters, digits, - or _').optional(),
  BOOTSTRAP_SECRET: z.string().min(16, 'at least 16 characters').max(128).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** 32-byte key (hex or base64) that encrypts integration secrets at rest; a key file in DATA_DIR otherwise. */
  SECRET_KEY: secretKey.optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  RATE_LIMIT_PER_SECOND: integer(0, 1_000_000).default(50),
  RATE_LIMIT_PER_MINUTE: integer(0, 60_000_000).default(1200),
  MAINTENANCE: boolean.default(false),
  ASSUME_TOKEN_TTL_SECONDS: integer(30, 86400).default(3600),
  /**
   * scrypt cost of password hashes as log2 of N: 14 is 16 MiB and tens of milliseconds per
   * hash. Lower values are for test suites, which create many accounts; 17 is the most that
   * fits the memory one hash may take.
   */
  PASSWORD_HASH_COST: integer(1, 17).default(14),
  /** How long a looked-up integration is reused for further calls (0: look up every call). */
  AUTH_CACHE_TTL_MS: integer(0, 60_000).default(1000),
  /** How long the player reuses what starting an exam reads (the exam, its rules, its questions) for further starts (0: every start reads it). */
  PLAYER_CACHE_TTL_MS: integer(0, 60_000).default(1000),
  /** How often an idle worker looks for due jobs (webhook deliveries, messages, timers). */
  WORKER_INTERVAL_MS: integer(50, 60_000).default(1000),
  /** Jobs one instance runs at once; a slow webhook receiver holds only its own. */
  WORKER_CONCURRENCY: integer(1, 100).default(10),
  /** Lets webhook endpoints resolve to loopback, private, link-local and other non-public addresses. */
  WEBHOOK_ALLOW_PRIVATE: boolean.default(false),
  WEBHOOK_TIMEOUT_MS: integer(100, 120_000).default(10_000),
  WEBHOOK_MAX_ATTEMPTS: integer(1, 30).default(8),
  /** Delay before the first retry; each further retry waits twice as long (capped at one hour). */
  WEBHOOK_RETRY_BASE_MS: integer(10, 3_600_000).default(5000),
  /** An smtp:// or smtps:// URL (nodemailer syntax) sends email; unset, messages are only recorded. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  /** Sender of email, `address` or `Name <address>`. */
  MAIL_FROM: z.string().min(3).max(255).optional(),
  /**
   * How long a stopping service waits for requests in progress and running jobs before it
   * closes what is left (SIGTERM, SIGINT).
   */
  SHUTDOWN_TIMEOUT_MS: integer(0, 600_000).default(10_000),
  /** When set, GET /metrics requires `Authorization: Bearer <token>`; unset, it is open. */
  METRICS_TOKEN: z.string().regex(/^[\x21-\x7e]{16,256}$/, '16-256 printable characters without spaces').optional(),
  /** GraphQL limits (graphql/plugins/limits.ts); the guide (http/guide.md, "GraphQL limits") explains each. */
  GRAPHQL_MAX_DEPTH: integer(1, 1000).default(15),
  GRAPHQL_MAX_ALIASES: integer(0, 10_000).default(200),
  GRAPHQL_MAX_TOKENS: integer(100, 1_000_000).default(1500),
  GRAPHQL_MAX_DIRECTIVES: integer(0, 10_000).default(20),
  GRAPHQL_MAX_COST: integer(1, 100_000_000).default(50_000),
  GRAPHQL_COST_PER_POINT: integer(1, 1_000_000).default(100),
  /** A GraphQL document (the query text) larger than this many bytes is refused with 413 before it is parsed. */
  GRAPHQL_MAX_DOCUMENT_BYTES: integer(1000, 10_000_000).default(100_000),
  /** Origins (scheme://host[:port], comma separated) whose browsers may call /graphql; none by default. */
  CORS_ORIGINS: z
    .string()
    .transform((v) => v.split(',').map((o) => o.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^https?:\/\/[^/\s,*]+$/, 'must be origins like https://app.example.com, comma separated')))
    .optional(),
  /** Connections (http/server.ts): the whole head of a request within this (408). */
  HTTP_HEADERS_TIMEOUT_MS: integer(1000, 600_000).default(10_000),
  /** An idle connection (no request being served) on which nothing is sent either way for this long is closed (silent clients). */
  HTTP_CONNECTION_TIMEOUT_MS: integer(1000, 600_000).default(20_000),
  /** The whole request, head and body, within this (408). */
  HTTP_REQUEST_TIMEOUT_MS: integer(1000, 3_600_000).default(300_000),
  /** Open connections from one client address (0: no limit); the default lets a school's NAT address hold an exam of 3,000. */
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: integer(0, 1_000_000).default(10_000),
  /** New requests are refused with 503 while the event loop's mean delay over a second is above this (0: not checked). */
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: integer(0, 60_000).default(1000),
  /**
   * New requests are refused with 503 while this many are in progress (0: no limit). A bound on
   * memory, not the overload signal (the event loop's delay is): an exam's synchronized start has
   * all its examinees in progress at once, and at 1,000 two of every three of 3,000 starts waited
   * out a Retry-After while the service had capacity left (3,000 took 10 s embedded, 2.3 s at 10,000).
   */
  OVERLOAD_MAX_IN_FLIGHT: integer(0, 1_000_000).default(10_000),
  /** The Retry-After of an overload refusal. */
  OVERLOAD_RETRY_AFTER_SECONDS: integer(1, 3600).default(2),
  /** A keep-alive connection is closed after this many requests (0: no limit). */
  HTTP_MAX_REQUESTS_PER_SOCKET: integer(0, 1_000_000).default(1000),
  /**
   * Connections the kernel holds for the service before it accepts them (listen's backlog; Linux
   * caps it at net.core.somaxconn). Node's 511 is less than an exam's examinees starting at once:
   * the others' connections are dropped and retried by their clients after 1, 3, 7, 15 s...
   */
  HTTP_LISTEN_BACKLOG: integer(1, 1_000_000).default(4096),
  /** A body slower than this many bytes per second (after a grace of HTTP_HEADERS_TIMEOUT_MS) is cut off. */
  HTTP_MIN_BODY_BYTES_PER_SECOND: integer(0, 100_000_000).default(1024),
  /** An idle keep-alive connection is closed after this. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: integer(1000, 600_000).default(5000),
});

/** Every environment variable the service reads (the README's configuration table lists each). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(variables.shape);

const schema = variables.refine((c) => (c.BOOTSTRAP_APP === undefined) === (c.BOOTSTRAP_SECRET === undefined), {
  message: 'BOOTSTRAP_APP and BOOTSTRAP_SECRET must be set together',
  path: ['BOOTSTRAP_SECRET'],
  // Checked even when other variables are invalid, so every problem is listed at once.
  when: () => true,
});

export type RawConfig = z.infer<typeof schema>;

export interface Config extends RawConfig {
  /** Public base URL for links the service hands out, without a trailing slash. */
  baseUrl: string;
  database: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };
  rateLimit: { perSecond: number; perMinute: number; redisUrl?: string };
  webhooks: { allowPrivate: boolean; timeoutMs: number; maxAttempts: number; retryBaseMs: number };
  /** Sender of email: MAIL_FROM, or no-reply at the host of the base URL. */
  mailFrom: string;
  graphqlLimits: { maxDepth: number; maxAliases: number; maxTokens: number; maxDirectives: number; maxCost: number; costPerPoint: number; maxDocumentBytes: number };
  corsOrigins: string[];
  http: {
    headersTimeoutMs: number;
    connectionTimeoutMs: number;
    requestTimeoutMs: number;
    minBodyBytesPerSecond: number;
    keepAliveTimeoutMs: number;
    maxRequestsPerSocket: number;
    listenBacklog: number;
    maxConnectionsPerAddress: number;
  };
  overload: { maxEventLoopDelayMs: number; maxInFlight: number; retryAfterSeconds: number };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty variables count as unset, as in most shells' `FOO= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`));
  }
  const c = parsed.data;
  const publicHost = c.HOST === '0.0.0.0' || c.HOST === '::' ? 'localhost' : c.HOST;
  const baseUrl = (c.BASE_URL ?? `http://${publicHost}:${c.PORT}`).replace(/\/+$/, '');
  return {
    ...c,
    baseUrl,
    database: c.DATABASE_URL ? { kind: 'postgres', url: c.DATABASE_URL } : { kind: 'pglite', dataDir: c.DATA_DIR },
    rateLimit: { perSecond: c.RATE_LIMIT_PER_SECOND, perMinute: c.RATE_LIMIT_PER_MINUTE, redisUrl: c.REDIS_URL },
    webhooks: {
      allowPrivate: c.WEBHOOK_ALLOW_PRIVATE,
      timeoutMs: c.WEBHOOK_TIMEOUT_MS,
      maxAttempts: c.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: c.WEBHOOK_RETRY_BASE_MS,
    },
    mailFrom: c.MAIL_FROM ?? `no-reply@${new URL(baseUrl).hostname}`,
    graphqlLimits: {
      maxDepth: c.GRAPHQL_MAX_DEPTH,
      maxAliases: c.GRAPHQL_MAX_ALIASES,
      maxTokens: c.GRAPHQL_MAX_TOKENS,
      maxDirectives: c.GRAPHQL_MAX_DIRECTIVES,
      maxCost: c.GRAPHQL_MAX_COST,
      costPerPoint: c.GRAPHQL_COST_PER_POINT,
      maxDocumentBytes: c.GRAPHQL_MAX_DOCUMENT_BYTES,
    },
    corsOrigins: c.CORS_ORIGINS ?? [],
    overload: { maxEventLoopDelayMs: c.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS, maxInFlight: c.OVERLOAD_MAX_IN_FLIGHT, retryAfterSeconds: c.OVERLOAD_RETRY_AFTER_SECONDS },
    http: {
      headersTimeoutMs: c.HTTP_HEADERS_TIMEOUT_MS,
      connectionTimeoutMs: c.HTTP_CONNECTION_TIMEOUT_MS,
      requestTimeoutMs: c.HTTP_REQUEST_TIMEOUT_MS,
      maxRequestsPerSocket: c.HTTP_MAX_REQUESTS_PER_SOCKET,
      listenBacklog: c.HTTP_LISTEN_BACKLOG,
      maxConnectionsPerAddress: c.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
      minBodyBytesPerSecond: c.HTTP_MIN_BODY_BYTES_PER_SECOND,
      keepAliveTimeoutMs: c.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
  };
}
