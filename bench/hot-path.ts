/**
 * The pieces of one authenticated REST call, timed one by one in a loop (no HTTP, no
 * concurrency), to tell which of them makes the service slower than a bare server:
 *
 *   npx tsx bench/hot-path.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/hot-path.ts
 *
 * Each line is microseconds per operation, the median of 5 rounds.
 */
import './production.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { loadSecretKey } from '../src/auth/secret-key.ts';
import { createPlatform } from '../src/platform.ts';
import { bootstrap } from '../src/services/bootstrap/bootstrap.service.ts';
import { authenticate, readCredentials } from '../src/auth/authenticate.ts';
import { createApp } from '../src/app.ts';
import { freshPostgresSchema } from './service.ts';

const ROUNDS = 5;
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-hot-'));
const pgSchema = process.env.DATABASE_URL ? await freshPostgresSchema(process.env.DATABASE_URL) : undefined;
const dropSchema = async () => pgSchema?.drop();
const databaseUrl = pgSchema?.url;

const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0' });
const fileLog = pino(
  { level: 'info', base: undefined, redact: { paths: ['secret', '*.secret', 'password', '*.password', 'token', '*.token', 'headers.authorization'], censor: '[redacted]' } },
  pino.destination({ dest: path.join(dataDir, 'service.log'), sync: true }),
);
const database = await openDatabase(config.database);
await migrate(database.pglite ? { kind: 'pglite', pglite: database.pglite } : { kind: 'postgres', url: databaseUrl! });
const platform = createPlatform({ config, db: database.prisma, log: fileLog, secretKey: loadSecretKey(config).key });
const { generated } = await bootstrap(platform);
const credentials = { app: generated!.app, secret: generated!.secret };
const sealed = (await platform.db.integration.findUnique({ where: { appId: credentials.app } }))!.secretCipher!;
const authorization = `Bearer ${credentials.app}:${credentials.secret}`;
const quietApp = createApp(createPlatform({ config, db: database.prisma, log: pino({ level: 'silent' }), secretKey: loadSecretKey(config).key }), { ready: true });
const loggingApp = createApp(platform, { ready: true });

async function time(label: string, iterations: number, op: () => unknown): Promise<void> {
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    for (let i = 0; i < iterations; i++) await op();
    rounds.push(((performance.now() - started) * 1000) / iterations);
  }
  rounds.sort((a, b) => a - b);
  console.log(`${rounds[Math.floor(ROUNDS / 2)]!.toFixed(1).padStart(8)} µs  ${label}`);
}

const graphql = (query: string) =>
  new Request('http://bench.test/graphql', { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
const request = (endpoint: string) => new Request(`http://bench.test/api/v1/${endpoint}`, { headers: { authorization } });
console.log(`database ${config.database.kind}\n`);
try {
  await time('SELECT 1 through Prisma ($queryRaw)', 500, () => platform.db.$queryRaw`SELECT 1`);
  await time('integration.findUnique by appId, include owner (the credential lookup)', 500, () =>
    platform.db.integration.findUnique({ where: { appId: credentials.app }, include: { owner: true } }),
  );
  await time('SecretBox.open (AES-256-GCM decryption of the stored secret)', 20_000, () => platform.secrets.open(sealed));
  await time('settings.current() (snapshot cached for 2 s)', 20_000, () => platform.settings.current());
  await time('pino info line to a file (the per-call "rest call" line)', 20_000, () =>
    fileLog.info({ reqId: randomUUID(), method: 'GET', endpoint: 'test:app', status: 200, ms: 1.23 }, 'rest call'),
  );
  await time('authenticate() (lookup + decrypt + checks)', 500, () => authenticate(platform, readCredentials(new Headers({ authorization }), {})));
  await time('app.fetch GET test:app, LOG_LEVEL silent', 500, async () => (await quietApp.fetch(request('test:app'))).text());
  await time('app.fetch GET test:app, LOG_LEVEL info to a file', 500, async () => (await loggingApp.fetch(request('test:app'))).text());
  await time('app.fetch GET user:me, LOG_LEVEL info to a file', 500, async () => (await loggingApp.fetch(request('user:me'))).text());
  await time('app.fetch GraphQL { __typename }, LOG_LEVEL info to a file', 500, async () => (await loggingApp.fetch(graphql('{ __typename }'))).text());
  await time('app.fetch GraphQL { me { id name } }, LOG_LEVEL info to a file', 500, async () => (await loggingApp.fetch(graphql('{ me { id name } }'))).text());
} finally {
  await quietApp.close();
  await loggingApp.close();
  await database.close();
  await dropSchema();
  rmSync(dataDir, { recursive: true, force: true });
}
// The migration engine leaves a 10 s timer behind; the run is over.
process.exit(0);
