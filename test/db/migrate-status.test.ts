import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../helpers/database.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const folders = readdirSync(path.join(root, 'prisma', 'migrations'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'lp-status-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function status(env: Record<string, string>) {
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const run = spawnSync(tsx, ['src/scripts/migrate.ts', 'status'], { cwd: root, env: { PATH: process.env.PATH!, HOME: os.tmpdir(), ...env }, encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, out: run.stdout + run.stderr };
}

describe('npm run migrate:status', () => {
  it.skipIf(onPostgres)('reports every migration pending for an embedded database that does not exist, and creates nothing', () => {
    const dataDir = path.join(tmp, 'never-started');
    const { code, out } = status({ DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(out).toContain(`Database: PGlite ${path.join(dataDir, 'db')} (does not exist)`);
    for (const name of folders) expect(out).toContain(`  pending:  ${name}`);
    expect(out).toContain(`No migration applied yet (${folders.length} pending)`);
    expect(existsSync(dataDir)).toBe(false);
  });

  it.runIf(onPostgres)('reports every migration pending for a PostgreSQL schema that does not exist, and creates nothing', async () => {
    const schema = `t_status_${process.pid}`;
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('schema', schema);
    const { code, out } = status({ DATABASE_URL: url.toString() });
    expect(code).toBe(1);
    for (const name of folders) expect(out).toContain(`  pending:  ${name}`);
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const { rows } = await client.query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [schema]);
    await client.end();
    expect(rows).toEqual([]);
  });
});
