import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { loadConfig, type Config } from '../../src/config.ts';
import { createPlatform } from '../../src/platform.ts';
import { createApp, type App } from '../../src/app.ts';
import type { Platform } from '../../src/context.ts';
import type { User } from '../../src/generated/prisma/client.ts';
import { createAccount, createApiIntegration } from '../../src/services/bootstrap/bootstrap.service.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { openDatabase } from '../../src/db/client.ts';

export const BASE_URL = 'http://service.test';

/** scrypt N = 16 instead of 16 384: hashing stays real (the same code and format), but costs microseconds. */
export const TEST_PASSWORD_HASH_COST = '4';

export interface Caller {
  user: User;
  app: string;
  secret: string;
  integrationId: string;
}

export interface RpcResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** Service-API-Error header. */
  error: string | null;
  /** Service-API-Error-Code header. */
  code: string | null;
}

export interface RpcOptions {
  as?: Caller | null;
  headers?: Record<string, string>;
  /** How the arguments travel: query string (default for GET), urlencoded form (default otherwise), JSON or multipart. */
  encoding?: 'query' | 'form' | 'json' | 'multipart';
  /** Path prefix, e.g. '/v1'. */
  version?: string;
}

export interface TestApp {
  app: App;
  platform: Platform;
  db: TestDatabase;
  /** The instance administrator's application. */
  admin: Caller;
  rpc<T = any>(method: string, endpoint: string, args?: Record<string, unknown>, options?: RpcOptions): Promise<RpcResult<T>>;
  gql<T = any>(query: string, variables?: Record<string, unknown>, options?: { as?: Caller | null; headers?: Record<string, string> }): Promise<{ status: number; body: { data?: T; errors?: any[] } }>;
  /** A new user (created directly) owning an API application. */
  newCaller(username: string, options?: { admin?: boolean; createdBy?: Caller }): Promise<Caller>;
  /**
   * Another instance of the service over the same database (its own connection pool on
   * PostgreSQL) and secret key, with its own platform (Redis connections, rate limiter), as
   * production runs several; closed with this one.
   */
  anotherInstance(): Promise<{ app: App; platform: Platform }>;
  close(): Promise<void>;
}

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  // Tests change rows directly, so credentials are looked up on every call unless a test asks otherwise.
  // Every test app creates accounts: at the production password cost they would take most of the run.
  const config: Config = loadConfig({
    BASE_URL,
    RATE_LIMIT_PER_SECOND: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    AUTH_CACHE_TTL_MS: '0',
    PLAYER_CACHE_TTL_MS: '0',
    DATA_DIR: '/nonexistent',
    PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
    // The embedded database runs on the event loop, and test files share a busy machine: a lagging
    // loop would refuse calls with 503 in the middle of a test. test/http/edge.test.ts sets its own.
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
  const secretKey = randomBytes(32);
  const platform = createPlatform({ config, db: db.prisma, log: pino({ level: 'silent' }), secretKey });
  const app = createApp(platform, { ready: true });
  const instances: { app: App; close(): Promise<void> }[] = [];

  async function newCaller(username: string, options: { admin?: boolean; createdBy?: Caller } = {}): Promise<Caller> {
    let user = await createAccount(platform, { username, email: `${username}@example.com`, firstName: username, lastName: 'Tester', admin: options.admin });
    if (options.createdBy) user = await db.prisma.user.update({ where: { id: user.id }, data: { createdById: options.createdBy.user.id } });
    const { integration, app: appId, secret } = await createApiIntegration(platform, user, `${username} app`);
    return { user, app: appId, secret, integrationId: integration.id };
  }

  const admin = await newCaller('admin', { admin: true });

  async function rpc(method: string, endpoint: string, args: Record<string, unknown> = {}, options: RpcOptions = {}): Promise<RpcResult> {
    const as = options.as === undefined ? admin : options.as;
    const headers: Record<string, string> = { ...(as ? { authorization: `Bearer ${as.app}:${as.secret}` } : {}), ...options.headers };
    const encoding = options.encoding ?? (method === 'GET' ? 'query' : 'form');
    const url = new URL(`${BASE_URL}/api${options.version ?? ''}/${endpoint}`);
    let body: BodyInit | undefined;
    const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
    if (encoding === 'query') for (const [k, v] of Object.entries(args)) url.searchParams.set(k, text(v));
    else if (encoding === 'form') body = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, text(v)]));
    else if (encoding === 'json') {
      body = JSON.stringify(args);
      headers['content-type'] = 'application/json';
    } else {
      const form = new FormData();
      for (const [k, v] of Object.entries(args)) form.set(k, text(v));
      body = form;
    }
    const response = await app.fetch(new Request(url, { method, headers, body }));
    const raw = await response.text();
    let parsed: unknown = raw;
    try {
      parsed = raw ? JSON.parse(raw) : null;
    } catch {
      /* not JSON */
    }
    return {
      status: response.status,
      headers: response.headers,
      body: parsed,
      error: response.headers.get('service-api-error'),
      code: response.headers.get('service-api-error-code'),
    };
  }

  async function gql(query: string, variables: Record<string, unknown> = {}, options: { as?: Caller | null; headers?: Record<string, string> } = {}) {
    const as = options.as === undefined ? admin : options.as;
    const response = await app.fetch(
      new Request(`${BASE_URL}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(as ? { authorization: `Bearer ${as.app}:${as.secret}` } : {}),
          ...options.headers,
        },
        body: JSON.stringify({ query, variables }),
      }),
    );
    return { status: response.status, body: (await response.json()) as { data?: any; errors?: any[] } };
  }

  return {
    app,
    platform,
    db,
    admin,
    rpc,
    gql,
    newCaller,
    async anotherInstance() {
      const pool = db.url ? await openDatabase({ kind: 'postgres', url: db.url }) : undefined;
      const other = createPlatform({ config, db: pool?.prisma ?? db.prisma, log: platform.log, secretKey });
      const instance = createApp(other, { ready: true });
      instances.push({ app: instance, close: async () => (await instance.close(), await pool?.close()) });
      return { app: instance, platform: other };
    },
    async close() {
      for (const instance of instances) await instance.close();
      await app.close();
      await db.close();
    },
  };
}
