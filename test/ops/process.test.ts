// The real service in a child process, started the way the README's set-up says: `npm start` (which builds
// dist/ when the sources changed) and `node src/scripts/start.mjs`. Linux only (reads /proc).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { alive, descendants, killSpawned, root, SERVICE_CREDENTIALS, start } from '../helpers/service-process.ts';

const { APP, SECRET } = SERVICE_CREDENTIALS;
const migrationCount = readdirSync(path.join(root, 'prisma', 'migrations'), { withFileTypes: true }).filter((e) => e.isDirectory()).length;

/** A database the service can open: a copy of the migrated template on disk, or a schema of its own. */
let db: TestDatabase | undefined;
let dataDir: string;
async function databaseEnv(): Promise<Record<string, string>> {
  if (onPostgres) return { DATABASE_URL: db!.url! };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lp-process-'));
  const pglite = await PGlite.create({ dataDir: path.join(dir, 'db'), loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) });
  await pglite.close();
  return { DATA_DIR: dir };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-process-'));
  if (onPostgres) db = await createTestDatabase();
});
afterAll(async () => {
  killSpawned();
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the service process', () => {
  it('SIGTERM to `npm start` stops the service: nothing is left running and the port is free', async () => {
    const service = await start('npm', ['start', '--silent'], await databaseEnv());
    // The compiled service (dist/) finds the guide beside the sources, as the service under tsx does.
    const guide = await fetch(`http://127.0.0.1:${service.port}/api/docs/guide`);
    expect(guide.status).toBe(200);
    expect(await guide.text()).toBe(readFileSync(path.join(root, 'src', 'http', 'guide.md'), 'utf8'));
    const tree = descendants(service.child.pid!);
    expect(tree.length).toBeGreaterThan(0);
    service.child.kill('SIGTERM');
    // npm passes the signal on, waits for the service, then ends itself by the same signal.
    await service.exited;
    expect(service.child.exitCode === 0 || service.child.signalCode === 'SIGTERM').toBe(true);
    await expect.poll(() => tree.filter(alive), { timeout: 10_000 }).toEqual([]);
    await expect(fetch(`http://127.0.0.1:${service.port}/health/live`)).rejects.toThrow();
    expect(service.output()).toContain('"msg":"stopped"');
  }, 150_000);

  it('SIGTERM lets a 1.5 MB upload in progress finish and answers it, refuses new connections, then exits 0', async () => {
    const service = await start(process.execPath, ['src/scripts/start.mjs'], await databaseEnv());
    const payload = Buffer.from(`padding=${'a'.repeat(1.5 * 1024 * 1024)}`);
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: service.port,
          method: 'POST',
          path: '/api/v1/test:app',
          headers: {
            authorization: `Bearer ${APP}:${SECRET}`,
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': payload.length,
          },
        },
        (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      void (async () => {
        const chunk = 128 * 1024;
        req.write(payload.subarray(0, chunk));
        await new Promise((r) => setTimeout(r, 300));
        service.child.kill('SIGTERM');
        await new Promise((r) => setTimeout(r, 300));
        // Stopping: the listening socket is closed, the upload goes on.
        await expect(fetch(`http://127.0.0.1:${service.port}/health/live`)).rejects.toThrow();
        for (let at = chunk; at < payload.length; at += chunk) {
          req.write(payload.subarray(at, at + chunk));
          await new Promise((r) => setTimeout(r, 50));
        }
        req.end();
      })().catch(reject);
    });
    const { status, body } = await answer;
    expect(status).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ app: APP, status: true });
    expect(await service.exited).toBe(0);
    expect(service.output()).toContain('"msg":"shutting down"');
  }, 150_000);

  it('the first start on an empty database says what it does: creating it, applying migration k of n', async () => {
    let env: Record<string, string>;
    let schema: string | undefined;
    if (onPostgres) {
      schema = `t_first_${process.pid}`;
      const url = new URL(process.env.DATABASE_URL!);
      url.searchParams.set('schema', schema);
      env = { DATABASE_URL: url.toString() };
    } else {
      env = { DATA_DIR: path.join(dataDir, 'empty') };
    }
    try {
      const service = await start(process.execPath, ['src/scripts/start.mjs'], env);
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      const out = service.output();
      if (!onPostgres) expect(out).toContain('"msg":"creating the embedded database (first start only)"');
      for (let k = 1; k <= migrationCount; k++) expect(out).toContain(`"msg":"applying migration ${k} of ${migrationCount}"`);
      expect(out).toContain('"msg":"database migrated"');

      // The second start finds nothing to do.
      const again = await start(process.execPath, ['src/scripts/start.mjs'], env);
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(0);
      expect(again.output()).toContain(`"applied":[],"database":"${onPostgres ? 'postgres' : 'pglite'}","msg":"database migrated"`);
      expect(again.output()).not.toContain('applying migration');
      expect(again.output()).not.toContain('creating the embedded database');
    } finally {
      if (schema) {
        const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    }
  }, 300_000);
});
