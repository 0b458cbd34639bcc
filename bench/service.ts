/**
 * The service as a benchmark runs it: a temporary DATA_DIR (the embedded database), or a schema of
 * its own on the PostgreSQL server of DATABASE_URL (dropped after), migrated and bootstrapped, behind
 * its own fastify server on a free loopback port. Logs go to a file in DATA_DIR at LOG_LEVEL
 * (default warn), so terminal rendering is not measured.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createApp } from '../src/app.ts';
import { loadSecretKey } from '../src/auth/secret-key.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { createLogger } from '../src/logger.ts';
import { createPlatform } from '../src/platform.ts';
import { bootstrap } from '../src/services/bootstrap/bootstrap.service.ts';

/** On PostgreSQL, a schema of its own so a benchmark never touches other data. */
export async function freshPostgresSchema(base: string): Promise<{ url: string; drop(): Promise<void> }> {
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

export async function startBenchService(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-'));
  const pgSchema = process.env.DATABASE_URL ? await freshPostgresSchema(process.env.DATABASE_URL) : undefined;
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: pgSchema?.url,
    RATE_LIMIT_PER_SECOND: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    BOOTSTRAP_APP: undefined,
    BOOTSTRAP_SECRET: undefined,
    MAINTENANCE: undefined,
    ...env,
  });
  const log = createLogger(config.LOG_LEVEL, path.join(dataDir, 'service.log'));
  const database = await openDatabase(config.database);
  await migrate(database.pglite ? { kind: 'pglite', pglite: database.pglite } : { kind: 'postgres', url: config.DATABASE_URL! });
  const platform = createPlatform({ config, db: database.prisma, log, secretKey: loadSecretKey(config).key });
  const boot = await bootstrap(platform);
  if (!boot.generated) throw new Error('bootstrap did not generate credentials on an empty database');
  const app = createApp(platform, { ready: true });
  const base = await app.listen(0, '127.0.0.1');
  return {
    base,
    database: config.database.kind,
    /** The embedded database itself (undefined on PostgreSQL), for counting statements. */
    pglite: database.pglite,
    platform,
    admin: boot.generated,
    authorization: `Bearer ${boot.generated.app}:${boot.generated.secret}`,
    async close() {
      app.server.server.closeAllConnections();
      await app.close();
      await database.close();
      await pgSchema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The p-th percentile (0-100) of some durations, nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
