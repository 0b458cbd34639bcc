import { z } from 'zod';

/**
 * The only reader of process.env. Every variable is validated at start; a bad configuration
 * prints every problem at once and the process exits, instead of failing on first use.
 */
const boolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const schema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(4000),
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
    SECRET_KEY: z.string().optional(),
    REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
    RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(0).default(50),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(1200),
    MAINTENANCE: boolean.default(false),
    ASSUME_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86400).default(3600),
  })
  .refine((c) => (c.BOOTSTRAP_APP === undefined) === (c.BOOTSTRAP_SECRET === undefined), {
    message: 'BOOTSTRAP_APP and BOOTSTRAP_SECRET must be set together',
    path: ['BOOTSTRAP_SECRET'],
  });

export type RawConfig = z.infer<typeof schema>;

export interface Config extends RawConfig {
  /** Public base URL for links the service hands out, without a trailing slash. */
  baseUrl: string;
  database: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };
  rateLimit: { perSecond: number; perMinute: number; redisUrl?: string };
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
  return {
    ...c,
    baseUrl: (c.BASE_URL ?? `http://${publicHost}:${c.PORT}`).replace(/\/+$/, ''),
    database: c.DATABASE_URL ? { kind: 'postgres', url: c.DATABASE_URL } : { kind: 'pglite', dataDir: c.DATA_DIR },
    rateLimit: { perSecond: c.RATE_LIMIT_PER_SECOND, perMinute: c.RATE_LIMIT_PER_MINUTE, redisUrl: c.REDIS_URL },
  };
}
