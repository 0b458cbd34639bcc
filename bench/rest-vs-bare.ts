/**
 * REST face vs. a bare node:http server answering the same JSON.
 *
 * The ratio service/bare says how much of a loopback call's budget goes to routing, credentials
 * (a database lookup and an AES-GCM decryption per call), instance settings and the per-call log
 * line, as opposed to HTTP itself. Both servers run in this process; the load generator runs in an
 * autocannon worker thread so it does not share the servers' event loop (on 2 cores: one core for
 * the servers, one for the load).
 *
 *   npm run bench
 *   BENCH_DURATION=10 BENCH_WARMUP=2 BENCH_CONNECTIONS=10 LOG_LEVEL=info npm run bench
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench   (a fresh schema, dropped after)
 *   BENCH_AUTH_CACHE_MS=2000 npm run bench     (what-if: the credential lookup memoised, see below)
 *   BENCH_ONLY=service node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/rest-vs-bare.ts
 *
 * The service logs as in production (pino, LOG_LEVEL, default info, same redaction) but into a file
 * in the temporary DATA_DIR instead of a terminal, so terminal rendering is not measured.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { createLogger } from '../src/logger.ts';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { loadSecretKey } from '../src/auth/secret-key.ts';
import { createPlatform } from '../src/platform.ts';
import { bootstrap } from '../src/services/bootstrap/bootstrap.service.ts';
import { createApp } from '../src/app.ts';

const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const DURATION = envNumber('BENCH_DURATION', 10);
const WARMUP = envNumber('BENCH_WARMUP', 2);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 10);
const ENDPOINTS = ['test:app', 'user:me'] as const;
/** `bare` or `service` measures one side only: a CPU profile of the service alone is easier to read. */
const ONLY = process.env.BENCH_ONLY;
/**
 * What-if, not the service as shipped: memoise the credential lookup (integration by app id with
 * its owner) for this many ms, to measure what a short-lived credential cache in authenticate
 * would gain. 0 (default) measures the service unchanged.
 */
const AUTH_CACHE_MS = envNumber('BENCH_AUTH_CACHE_MS', 0);

/** Wraps the Prisma client so `integration.findUnique` answers from memory for `ttlMs`. */
function withCachedCredentialLookup(db: Db, ttlMs: number): Db {
  const cache = new Map<string, { at: number; value: Promise<unknown> }>();
  const integration = new Proxy(db.integration, {
    get(target, prop, receiver) {
      if (prop !== 'findUnique') return Reflect.get(target, prop, receiver);
      return (args: Parameters<Db['integration']['findUnique']>[0]) => {
        const key = JSON.stringify(args);
        const hit = cache.get(key);
        if (hit && Date.now() - hit.at < ttlMs) return hit.value;
        const value = target.findUnique(args);
        cache.set(key, { at: Date.now(), value });
        return value;
      };
    },
  });
  return new Proxy(db, { get: (target, prop, receiver) => (prop === 'integration' ? integration : Reflect.get(target, prop, receiver)) });
}

function listen(handler: RequestListener): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });
}

/** On PostgreSQL, a schema of its own so the bench never touches other data. */
async function freshPostgresSchema(base: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await run(`CREATE SCHEMA "${schema}"`);
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  return { url: url.toString(), drop: () => run(`DROP SCHEMA "${schema}" CASCADE`) };
}

async function startService() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-'));
  const pgSchema = process.env.DATABASE_URL ? await freshPostgresSchema(process.env.DATABASE_URL) : undefined;
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: pgSchema?.url,
    RATE_LIMIT_PER_SECOND: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    BOOTSTRAP_APP: undefined,
    BOOTSTRAP_SECRET: undefined,
    MAINTENANCE: undefined,
  });
  // The service's own logger, writing into a file instead of stdout.
  const logFile = path.join(dataDir, 'service.log');
  const log = createLogger(config.LOG_LEVEL, logFile);
  const database = await openDatabase(config.database);
  await migrate(database.pglite ? { kind: 'pglite', pglite: database.pglite } : { kind: 'postgres', url: config.DATABASE_URL! });
  const platform = createPlatform({ config, db: database.prisma, log, secretKey: loadSecretKey(config).key });
  const boot = await bootstrap(platform);
  if (!boot.generated) throw new Error('bootstrap did not generate credentials on an empty database');
  const served = AUTH_CACHE_MS > 0 ? { ...platform, db: withCachedCredentialLookup(platform.db, AUTH_CACHE_MS) } : platform;
  const app = createApp(served, { ready: true });
  const { server, base } = await listen(app.node);
  return {
    base,
    database: config.database.kind,
    authorization: `Bearer ${boot.generated.app}:${boot.generated.secret}`,
    logLines: () => readFileSync(logFile, 'utf8').split('\n').filter(Boolean).length,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await app.close();
      await database.close();
      await pgSchema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The lower bound: node:http answering the same bodies the service gives for the same calls, with
 * the same content type, and nothing else (no routing table, no credentials, no log).
 */
function bareHandler(bodies: Map<string, string>): RequestListener {
  return (req, res) => {
    const body = bodies.get(req.url ?? '');
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
}

async function load(url: string, authorization: string, duration: number) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, workers: 1, headers: { authorization } });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result;
}

const service = await startService();
const bodies = new Map<string, string>();
for (const endpoint of ENDPOINTS) {
  const path = `/api/v1/${endpoint}`;
  const response = await fetch(service.base + path, { headers: { authorization: service.authorization } });
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  bodies.set(path, await response.text());
}
const bare = await listen(bareHandler(bodies));

console.log(
  `database ${service.database}, LOG_LEVEL ${process.env.LOG_LEVEL ?? 'info'} (to a file), ${CONNECTIONS} connections, ` +
    `${WARMUP} s warm-up + ${DURATION} s per run, node ${process.version}, ${cpus().length} cores, ` +
    `load average ${loadavg()[0]!.toFixed(2)}${AUTH_CACHE_MS > 0 ? `, WHAT-IF: credential lookup cached ${AUTH_CACHE_MS} ms` : ''}\n`,
);
const rows: { endpoint: string; bare: number; service: number; ratio: string; p99: string }[] = [];
try {
  for (const endpoint of ENDPOINTS) {
    const path = `/api/v1/${endpoint}`;
    const measured: Record<'bare' | 'service', { rps: number; p99: number }> = { bare: { rps: 0, p99: 0 }, service: { rps: 0, p99: 0 } };
    for (const [name, base] of [['bare', bare.base], ['service', service.base]] as const) {
      if (ONLY && ONLY !== name) continue;
      if (WARMUP > 0) await load(base + path, service.authorization, WARMUP);
      const result = await load(base + path, service.authorization, DURATION);
      measured[name] = { rps: result.requests.average, p99: result.latency.p99 };
      console.log(`GET ${path} ${name.padEnd(7)} ${result.requests.average.toFixed(0).padStart(6)} req/s  latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`);
    }
    rows.push({
      endpoint: `GET ${path}`,
      bare: Math.round(measured.bare.rps),
      service: Math.round(measured.service.rps),
      ratio: ONLY ? '-' : `${((measured.service.rps / measured.bare.rps) * 100).toFixed(1)}%`,
      p99: `${measured.bare.p99} / ${measured.service.p99} ms`,
    });
  }
  console.log();
  console.table(rows);
  console.log(`service log: ${service.logLines()} lines`);
} finally {
  await new Promise((resolve) => bare.server.close(resolve));
  await service.close();
}
// The migration engine leaves a 10 s timer behind; the run is over.
process.exit(0);
