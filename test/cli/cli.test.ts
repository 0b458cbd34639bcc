import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { loadSecretKey } from '../../src/auth/secret-key.ts';
import { verifyPassword } from '../../src/auth/secrets.ts';
import { createPlatform } from '../../src/platform.ts';
import { createApp } from '../../src/app.ts';
import type { Platform } from '../../src/context.ts';
import { runCli } from '../../src/cli/run.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';

/**
 * The CLI on the configured database: DATA_DIR (embedded) or, on PostgreSQL, DATABASE_URL with a
 * schema of this file's own. The commands run in this process, through the function the entry
 * point calls, with the configuration given as the environment would give it; starting a process
 * per command took seconds each. A few run as their own process (src/cli.ts, as `npm run cli`
 * starts it): the entry point itself, and what only another process shows (the embedded database
 * held by a process other than the CLI's). Results are checked by opening the same database
 * afterwards (the embedded one only once the command has released it).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI_TIMEOUT = 90_000;
const SECRET_KEY = randomBytes(32).toString('hex');
let dataDir: string;
let pgDatabase: TestDatabase | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'cli-test-'));
  if (onPostgres) pgDatabase = await createTestDatabase();
});
afterAll(async () => {
  await pgDatabase?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Only the configuration under test: vitest's own variables (BASE_URL=/) would be read as config. */
function env(): Record<string, string> {
  // On PostgreSQL, as in a deployment there, SECRET_KEY; the embedded database uses the key file in DATA_DIR.
  const postgres: Record<string, string> = pgDatabase?.url ? { DATABASE_URL: pgDatabase.url, SECRET_KEY } : {};
  return { DATA_DIR: dataDir, ...postgres, LOG_LEVEL: 'warn' };
}

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One command line, run as the entry point runs it, its output and exit code captured. */
async function cli(...args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { env: env(), stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

/** The CLI as its own process, with further configuration (BASE_URL): node loads tsx itself, which starts faster than npx. */
function cliProcess(extra: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env: { ...env(), ...extra } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `key: value` lines of the CLI's output. */
function fields(stdout: string): Record<string, string> {
  return Object.fromEntries([...stdout.matchAll(/^([a-z]+):\s+(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
}

/** The database the CLI used, opened as the service would open it. */
async function withDb<T>(run: (db: Database['prisma']) => Promise<T>): Promise<T> {
  const database = pgDatabase ?? (await openDatabase({ kind: 'pglite', dataDir }));
  try {
    return await run(database.prisma);
  } finally {
    if (!pgDatabase) await database.close();
  }
}

/** The same database and secret key file the CLI used, with the service on top of them. */
function withService<T>(run: (platform: Platform, fetch: (endpoint: string, authorization: string) => Promise<Response>) => Promise<T>): Promise<T> {
  const postgres = pgDatabase?.url ? { DATABASE_URL: pgDatabase.url, SECRET_KEY } : {};
  const config = loadConfig({ DATA_DIR: dataDir, ...postgres, RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0' });
  const key = loadSecretKey(config);
  // The key the CLI used: on the embedded database, the file it created (a new one would not open its secrets).
  expect(key.source).toBe(onPostgres ? 'env' : 'file');
  return withDb(async (db) => {
    const platform = createPlatform({ config, db, log: pino({ level: 'silent' }), secretKey: key.key });
    const app = createApp(platform, { ready: true });
    try {
      return await run(platform, (endpoint, authorization) => app.fetch(new Request(`http://cli.test/api/v1/${endpoint}`, { headers: { authorization } })));
    } finally {
      await app.close();
    }
  });
}

const counts = () => withDb(async (db) => ({ users: await db.user.count(), integrations: await db.integration.count() }));

describe('usage', () => {
  it('prints help with exit code 0', { timeout: CLI_TIMEOUT }, async () => {
    const r = await cli('help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('create-user --username U --email E --first-name F --last-name L [--admin] [--password P]');
    expect(r.stdout).toContain('create-integration --owner <username or usr_ id> --title T');
  });

  it('lists every command in the help', { timeout: CLI_TIMEOUT }, async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    for (const synopsis of [
      'rotate-secret --integration <int_ id or app>',
      'jobs [--status pending|running|failed] [--task T] [--limit N]',
      'retry-job --job <job_ id>',
      'migrate-status\n',
    ]) {
      expect(r.stdout).toContain(`  ${synopsis}`);
    }
  });

  it('shows the help of each command with --help, exit code 0, touching no database', { timeout: 4 * CLI_TIMEOUT }, async () => {
    const synopses: Record<string, string> = {
      'create-user': 'create-user --username U --email E --first-name F --last-name L [--admin] [--password P]',
      'create-integration': 'create-integration --owner <username or usr_ id> --title T',
      'rotate-secret': 'rotate-secret --integration <int_ id or app>',
      jobs: 'jobs [--status pending|running|failed] [--task T] [--limit N]',
      'retry-job': 'retry-job --job <job_ id>',
      'migrate-status': 'migrate-status',
    };
    const runs = await Promise.all(Object.keys(synopses).map((name) => cli(name, '--help')));
    for (const [i, name] of Object.keys(synopses).entries()) {
      expect(runs[i]!.code, name).toBe(0);
      expect(runs[i]!.stdout.split('\n')[0], name).toBe(`Usage: npm run cli -- ${synopses[name]}`);
      expect(runs[i]!.stdout.split('\n').length, name).toBeGreaterThan(3);
    }
    if (!onPostgres) expect(readdirSync(dataDir)).toEqual([]);
  });

  it('refuses a missing or unknown command with exit code 2', { timeout: CLI_TIMEOUT }, async () => {
    const none = await cli();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('a command is required');
    // As its own process: the exit code is the process's.
    const unknown = await cliProcess({}, 'delete-everything');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'delete-everything'");
    expect(unknown.stderr).toContain("Run 'npm run cli -- help' for usage.");
  });

  it('lists every problem of a bad create-user at once, exit code 2, and creates nothing', { timeout: CLI_TIMEOUT }, async () => {
    const r = await cli('create-user', '--username', 'abc', '--email', 'not-an-email', '--first-name', 'Jane');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--last-name is required');
    expect(r.stderr).toContain('--username must be 4 to 64 characters');
    expect(r.stderr).toContain('--email must be an email address');
    const unknownOption = await cli('create-user', '--username', 'jdoe', '--nickname', 'J');
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toContain("Unknown option '--nickname'");
    const badChars = await cli('create-user', '--username', 'j doe!', '--email', 'j@example.com', '--first-name', 'J', '--last-name', 'D');
    expect(badChars.code).toBe(2);
    expect(badChars.stderr).toContain('--username may contain letters, digits and . _ @ + - only');
    // Refused before the database is opened: on the embedded one, DATA_DIR stays empty.
    if (!onPostgres) expect(readdirSync(dataDir)).toEqual([]);
    else expect(await counts()).toEqual({ users: 0, integrations: 0 });
  });
});

describe('create-user', () => {
  // As its own process, the way the first administrator of a new installation is made: the entry
  // point reads its environment, opens the database (the embedded one new, created and migrated
  // here) and exits once done (the migration engine leaves a timer behind that must not hold it).
  it('creates an administrator with the given password', { timeout: CLI_TIMEOUT }, async () => {
    const r = await cliProcess({}, 'create-user', '--username', 'jdoe', '--email', 'jane@example.com', '--first-name', 'Jane', '--last-name', 'Doe', '--admin', '--password', 'correct horse');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = fields(r.stdout);
    expect(out.user).toMatch(/^usr_[0-9a-z]{14}$/);
    expect(out).toMatchObject({ username: 'jdoe', admin: 'true' });
    // A chosen password is not echoed.
    expect(r.stdout).not.toContain('password');
    await withService(async (p) => {
      const user = await p.db.user.findUniqueOrThrow({ where: { id: out.user } });
      expect(user).toMatchObject({ username: 'jdoe', email: 'jane@example.com', firstName: 'Jane', lastName: 'Doe', fullName: 'Jane Doe', admin: true, enabled: true });
      expect(await verifyPassword('correct horse', user.passwordHash)).toBe(true);
    });
  });

  it('generates a password when none is given and prints it once', { timeout: CLI_TIMEOUT }, async () => {
    const r = await cli('create-user', '--username', 'asmith', '--email', 'a@example.com', '--first-name', 'Ann', '--last-name', 'Smith');
    expect(r.code).toBe(0);
    const out = fields(r.stdout);
    expect(out).toMatchObject({ username: 'asmith', admin: 'false' });
    expect(out.password).toMatch(/^[0-9a-z]{16}$/);
    await withService(async (p) => {
      const user = await p.db.user.findUniqueOrThrow({ where: { username: 'asmith' } });
      expect(user.admin).toBe(false);
      expect(await verifyPassword(out.password!, user.passwordHash)).toBe(true);
    });
  });

  it('refuses a taken username with exit code 1 and changes nothing', { timeout: CLI_TIMEOUT }, async () => {
    const before = await counts();
    const r = await cli('create-user', '--username', 'jdoe', '--email', 'other@example.com', '--first-name', 'J', '--last-name', 'D');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("username 'jdoe' is already taken");
    expect(await counts()).toEqual(before);
  });
});

describe('create-integration', () => {
  it('creates an API integration for an owner named by username; the printed credentials authenticate', { timeout: CLI_TIMEOUT }, async () => {
    const r = await cli('create-integration', '--owner', 'jdoe', '--title', "Jane's reporting");
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = fields(r.stdout);
    expect(out.integration).toMatch(/^int_[0-9a-z]{14}$/);
    expect(out.app).toMatch(/^[0-9a-z]{24}$/);
    expect(out.secret).toMatch(/^[0-9a-z]{48}$/);
    await withService(async (p, fetch) => {
      const owner = await p.db.user.findUniqueOrThrow({ where: { username: 'jdoe' } });
      expect(out.owner).toBe(owner.id);
      const integration = await p.db.integration.findUniqueOrThrow({ where: { id: out.integration } });
      expect(integration).toMatchObject({ title: "Jane's reporting", type: 'api', active: true, ownerId: owner.id, appId: out.app });
      // Stored encrypted with the key file in DATA_DIR, never in clear.
      expect(integration.secretCipher).not.toContain(out.secret);
      expect(p.secrets.open(integration.secretCipher!)).toBe(out.secret);

      const me = await fetch('user:me', `Bearer ${out.app}:${out.secret}`);
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({ user: owner.id, name: 'Jane Doe', status: true, exam: false });
      const wrong = await fetch('user:me', `Bearer ${out.app}:${'x'.repeat(48)}`);
      expect(wrong.status).toBe(401);
    });
  });

  it('accepts the owner as an identification string', { timeout: CLI_TIMEOUT }, async () => {
    const ownerId = await withService((p) => p.db.user.findUniqueOrThrow({ where: { username: 'asmith' } }).then((u) => u.id));
    const r = await cli('create-integration', '--owner', ownerId, '--title', 'Ann app');
    expect(r.code).toBe(0);
    const out = fields(r.stdout);
    expect(out.owner).toBe(ownerId);
    await withService(async (_p, fetch) => {
      const app = await fetch('test:app', `Bearer ${out.app}:${out.secret}`);
      expect(app.status).toBe(200);
      expect(await app.json()).toMatchObject({ app: out.app, user: ownerId, status: true });
    });
  });

  it('refuses bad usage with 2 and an unknown owner with 1, creating nothing', { timeout: CLI_TIMEOUT }, async () => {
    const before = await counts();
    const missing = await cli('create-integration');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--owner is required');
    expect(missing.stderr).toContain('--title is required');
    const long = await cli('create-integration', '--owner', 'jdoe', '--title', 'x'.repeat(256));
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('--title must be 1 to 255 characters');
    const unknown = await cli('create-integration', '--owner', 'nobody', '--title', 'X');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no user with username or identification string 'nobody'");
    expect(await counts()).toEqual(before);
  });
});

describe('rotate-secret', () => {
  /** Jane's integration (made above) with its secret as stored now. */
  const current = () =>
    withService(async (p) => {
      const integration = await p.db.integration.findFirstOrThrow({ where: { title: "Jane's reporting" } });
      return { id: integration.id, app: integration.appId!, secret: p.secrets.open(integration.secretCipher!) };
    });

  it('replaces the secret: the new one authenticates, the old one no longer does, and the rotation is audited', { timeout: CLI_TIMEOUT }, async () => {
    const before = await current();
    const r = await cli('rotate-secret', '--integration', before.id);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = fields(r.stdout);
    expect(out).toMatchObject({ integration: before.id, app: before.app });
    expect(out.secret).toMatch(/^[0-9a-z]{48}$/);
    expect(out.secret).not.toBe(before.secret);
    expect(r.stdout).toContain('the previous secret no longer works');
    await withService(async (p, fetch) => {
      expect((await fetch('user:me', `Bearer ${before.app}:${out.secret}`)).status).toBe(200);
      expect((await fetch('user:me', `Bearer ${before.app}:${before.secret}`)).status).toBe(401);
      const audited = await p.db.auditEvent.findMany({ where: { action: 'integration.keys.rotate', subject: before.id } });
      // The operator's command: no user to attribute it to.
      expect(audited).toEqual([expect.objectContaining({ actorId: null, integrationId: null })]);
    });
  });

  it('finds the integration by its app id too', { timeout: CLI_TIMEOUT }, async () => {
    const before = await current();
    const r = await cli('rotate-secret', '--integration', before.app);
    expect(r.code).toBe(0);
    const out = fields(r.stdout);
    expect(out.integration).toBe(before.id);
    expect((await current()).secret).toBe(out.secret);
    expect(out.secret).not.toBe(before.secret);
  });

  it('refuses an unknown integration with 1 and a missing one with 2, changing nothing', { timeout: CLI_TIMEOUT }, async () => {
    const before = await current();
    const unknown = await cli('rotate-secret', '--integration', 'int_nothing');
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain("no integration with identification string 'int_nothing'");
    const missing = await cli('rotate-secret');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--integration is required');
    expect(missing.stderr).toContain("Run 'npm run cli -- rotate-secret --help' for usage.");
    expect(await current()).toEqual(before);
  });
});

describe('jobs and retry-job', () => {
  const PAST = new Date('2026-01-02T03:04:05.000Z');
  beforeAll(async () => {
    await withDb(async (db) => {
      await db.job.createMany({
        data: [
          { id: 'job_pending', task: 'webhooks.deliver', payload: { delivery: 'whd_1' }, runAt: new Date('2026-01-01T00:00:00.000Z') },
          { id: 'job_running', task: 'notifications.deliver', payload: {}, status: 'running', attempts: 1, runAt: new Date('2026-01-01T00:00:01.000Z'), lockedBy: 'w', lockedUntil: new Date('2099-01-01T00:00:00.000Z') },
          {
            id: 'job_failed',
            task: 'webhooks.deliver',
            payload: { delivery: 'whd_2' },
            status: 'failed',
            attempts: 5,
            runAt: new Date('2026-01-01T00:00:02.000Z'),
            failedAt: PAST,
            lastError: 'HTTP 500 from the receiver\n  at deliver (delivery.ts:1)',
          },
        ],
      });
    });
  });

  it('lists the jobs, the first due first, with their state', { timeout: CLI_TIMEOUT }, async () => {
    const r = await cli('jobs');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id\s+task\s+status\s+attempts\s+run at\s+failed at\s+last error$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 4))).toEqual([
      ['job_pending', 'webhooks.deliver', 'pending', '0'],
      ['job_running', 'notifications.deliver', 'running', '1'],
      ['job_failed', 'webhooks.deliver', 'failed', '5'],
    ]);
    // The failed job: when it failed and the first line of its error.
    expect(lines[3]).toContain('2026-01-02T03:04:05.000Z');
    expect(lines[3]).toMatch(/HTTP 500 from the receiver$/);
  });

  it('filters by status and task, and says when --limit cut the list', { timeout: 2 * CLI_TIMEOUT }, async () => {
    // One after the other: the embedded database admits one process at a time.
    const failed = await cli('jobs', '--status', 'failed');
    const webhooks = await cli('jobs', '--task', 'webhooks.deliver');
    const first = await cli('jobs', '--limit', '1');
    expect(failed.code).toBe(0);
    expect(failed.stdout.trimEnd().split('\n').slice(1).map((l) => l.split(' ')[0])).toEqual(['job_failed']);
    expect(webhooks.stdout.trimEnd().split('\n').slice(1).map((l) => l.split(' ')[0])).toEqual(['job_pending', 'job_failed']);
    expect(first.stdout.trimEnd().split('\n')).toEqual([expect.stringMatching(/^id /), expect.stringMatching(/^job_pending /), '(the first 1; --limit shows more)']);
    const none = await cli('jobs', '--task', 'no.such.task');
    expect(none).toMatchObject({ code: 0, stdout: 'No jobs.\n' });
  });

  it('refuses a bad status or limit with 2', { timeout: CLI_TIMEOUT }, async () => {
    const r = await cli('jobs', '--status', 'done', '--limit', '0');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--status must be one of pending, running, failed');
    expect(r.stderr).toContain('--limit must be 1 to 1000');
  });

  it('retries a failed job: pending again, due now, attempts afresh', { timeout: CLI_TIMEOUT }, async () => {
    const started = await withDb(async (db) => (await db.$queryRaw<{ now: Date }[]>`SELECT now() AS "now"`)[0]!.now);
    const r = await cli('retry-job', '--job', 'job_failed');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('job job_failed: pending, due now\n');
    const job = await withDb((db) => db.job.findUniqueOrThrow({ where: { id: 'job_failed' } }));
    expect(job).toMatchObject({ status: 'pending', attempts: 0, failedAt: null, task: 'webhooks.deliver', payload: { delivery: 'whd_2' } });
    expect(job.runAt.getTime()).toBeGreaterThanOrEqual(started.getTime());
    expect(job.runAt.getTime()).toBeLessThan(started.getTime() + CLI_TIMEOUT);
  });

  it('refuses a job that has not failed or does not exist with 1, and a missing --job with 2, changing nothing', { timeout: 2 * CLI_TIMEOUT }, async () => {
    const before = await withDb((db) => db.job.findMany({ orderBy: { id: 'asc' } }));
    const pending = await cli('retry-job', '--job', 'job_running');
    const unknown = await cli('retry-job', '--job', 'job_nothing');
    const missing = await cli('retry-job');
    expect(pending.code).toBe(1);
    expect(pending.stderr).toContain("job 'job_running' has not failed: only a failed job is retried");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no job 'job_nothing'");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--job is required');
    expect(await withDb((db) => db.job.findMany({ orderBy: { id: 'asc' } }))).toEqual(before);
  });
});

describe('migrate-status', () => {
  it('reports an up-to-date database with 0', { timeout: CLI_TIMEOUT }, async () => {
    const r = await cli('migrate-status');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Database: /);
    expect(r.stdout).toContain(onPostgres ? `schema=${new URL(pgDatabase!.url!).searchParams.get('schema')}` : path.join(dataDir, 'db'));
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('Database schema is up to date.');
  });

  it('reports a migration the folder lacks with 1, changing nothing', { timeout: CLI_TIMEOUT }, async () => {
    const foreign = '29990101000000_not_in_the_folder';
    await withDb((db) =>
      db.$executeRawUnsafe(
        `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "finished_at", "applied_steps_count") VALUES ($1, 'x', $1, now(), now(), 1)`,
        foreign,
      ),
    );
    try {
      const r = await cli('migrate-status');
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`  applied but missing from the folder: ${foreign}`);
      expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('Database is not in sync with prisma/migrations.');
      expect(await withDb((db) => db.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM "_prisma_migrations" WHERE "migration_name" = $1`, foreign))).toHaveLength(1);
    } finally {
      await withDb((db) => db.$executeRawUnsafe(`DELETE FROM "_prisma_migrations" WHERE "migration_name" = $1`, foreign));
    }
  });
});

describe.skipIf(onPostgres)('embedded database in use', () => {
  it('refuses with exit code 1 while another process holds DATA_DIR', { timeout: CLI_TIMEOUT }, async () => {
    const held = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const r = await cliProcess({}, 'create-user', '--username', 'blocked', '--email', 'b@example.com', '--first-name', 'B', '--last-name', 'L');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`is in use by process ${process.pid}`);
      expect(await held.prisma.user.count({ where: { username: 'blocked' } })).toBe(0);
    } finally {
      await held.close();
    }
  });

  it('migrate-status asks the service holding the database, and says so plainly when it does not answer', { timeout: 2 * CLI_TIMEOUT }, async () => {
    const held = await openDatabase({ kind: 'pglite', dataDir });
    const config = loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0' });
    const platform = createPlatform({ config, db: held.prisma, log: pino({ level: 'silent' }), secretKey: loadSecretKey(config).key });
    const app = createApp(platform, { ready: true });
    try {
      const base = await app.listen(0, '127.0.0.1');
      const answered = await cliProcess({ BASE_URL: base }, 'migrate-status');
      expect(answered.stderr).toBe('');
      expect(answered.code).toBe(0);
      expect(answered.stdout).toBe(
        `Database: PGlite ${path.join(dataDir, 'db')} (in use by process ${process.pid}; its service at ${base}/health/ready reports the migrations: ok)\n` +
          'Database schema is up to date.\n',
      );
      await app.close();
      // Nothing listens there now.
      const silent = await cliProcess({ BASE_URL: base }, 'migrate-status');
      expect(silent.code).toBe(1);
      expect(silent.stdout).toBe('');
      expect(silent.stderr).toContain(`The embedded database in ${dataDir} is in use by process ${process.pid}, and only one process can open it.`);
      expect(silent.stderr).toContain(`That process did not answer at ${base}/health/ready`);
      expect(silent.stderr).toContain('stop it and run migrate-status again');
    } finally {
      await app.close();
      await held.close();
    }
  });
});
