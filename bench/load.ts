/**
 * A load test, not part of the test suite: 200 connections of mixed REST and GraphQL traffic
 * against the service behind its own node:http server (src/http/server.ts, the limits of main.ts)
 * on 127.0.0.1, for a few seconds. It reports latency percentiles, errors and timeouts; the README
 * ("Load test") records a run.
 *
 *   npx tsx bench/load.ts
 *   LOAD_DURATION=10 LOAD_CONNECTIONS=200 npx tsx bench/load.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/load.ts   (its own database must be empty)
 *
 * The rate limit is off here (it would answer most of this traffic 429): the test measures the
 * service's work, not its refusals. The load generator runs in autocannon's worker thread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { pino } from 'pino';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { loadSecretKey } from '../src/auth/secret-key.ts';
import { createPlatform } from '../src/platform.ts';
import { bootstrap } from '../src/services/bootstrap/bootstrap.service.ts';
import { createApp } from '../src/app.ts';
import { createHttpServer } from '../src/http/server.ts';

const DURATION = Number(process.env.LOAD_DURATION ?? 5);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 200);
/** A request not answered within this counts as a timeout. */
const TIMEOUT_SECONDS = 10;

const dataDir = mkdtempSync(path.join(tmpdir(), 'load-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0', BOOTSTRAP_APP: undefined, BOOTSTRAP_SECRET: undefined });
const log = pino({ level: 'silent' });
const database = await openDatabase(config.database);
await migrate(database.pglite ? { kind: 'pglite', pglite: database.pglite } : { kind: 'postgres', url: config.DATABASE_URL! });
const platform = createPlatform({ config, db: database.prisma, log, secretKey: loadSecretKey(config).key });
const boot = await bootstrap(platform);
if (!boot.generated) throw new Error('bootstrap did not generate credentials on an empty database');
const app = createApp(platform, { ready: true });
const server = createHttpServer(app, config, log);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const authorization = `Bearer ${boot.generated.app}:${boot.generated.secret}`;
const json = { 'content-type': 'application/json', authorization };

const result = await autocannon({
  url: base,
  connections: CONNECTIONS,
  duration: DURATION,
  timeout: TIMEOUT_SECONDS,
  workers: 1,
  // Each connection goes round these: two REST reads, a GraphQL query, a GraphQL page, a health check.
  requests: [
    { method: 'GET', path: '/api/user:me', headers: { authorization } },
    { method: 'GET', path: '/api/test:app', headers: { authorization } },
    { method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: '{ me { id name } }' }) },
    { method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: '{ users(first: 20) { edges { node { id name } } } }' }) },
    { method: 'GET', path: '/health' },
  ],
});

const summary = {
  connections: CONNECTIONS,
  seconds: DURATION,
  database: config.database.kind,
  requests: result.requests.total,
  perSecond: result.requests.average,
  latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);

server.closeAllConnections();
await new Promise((resolve) => server.close(resolve));
await app.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
if (summary.timeouts > 0 || summary.errors > 0) process.exitCode = 1;
