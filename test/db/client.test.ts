import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, parsePostgresUrl } from '../../src/db/client.ts';
import { onPostgres } from '../helpers/database.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const { PATH = '', HOME = '' } = process.env;
let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'db-client-test-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function collect(child: ChildProcessWithoutNullStreams) {
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (out.stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { out, exit };
}

/** Another process opening DATA_DIR with openDatabase, as the service or the CLI would. */
async function openFromAnotherProcess(dataDir: string) {
  const script = path.join(scratch, 'open-database.mts');
  writeFileSync(
    script,
    `import { openDatabase } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'src/db/client.ts')).href)};
try {
  const database = await openDatabase({ kind: 'pglite', dataDir: process.argv[2] });
  await database.close();
  console.log('opened');
} catch (error) {
  console.error(error.message);
  process.exitCode = 3;
}
`,
  );
  const { out, exit } = collect(spawn('npx', ['tsx', script, dataDir], { cwd: ROOT, env: { PATH, HOME } }));
  return { code: await exit, ...out };
}

describe('parsePostgresUrl', () => {
  it('takes ?schema= off the connection string', () => {
    expect(parsePostgresUrl('postgres://u@h:5432/db?schema=t_1&sslmode=disable')).toEqual({
      connectionString: 'postgres://u@h:5432/db?sslmode=disable',
      schema: 't_1',
    });
    expect(parsePostgresUrl('postgres://u@h/db')).toEqual({ connectionString: 'postgres://u@h/db', schema: undefined });
  });
});

// The lock and the real start concern the embedded database only.
describe.skipIf(onPostgres)('the DATA_DIR lock of the embedded database', () => {
  it('refuses a second process while the first holds DATA_DIR, and lets it in once released', { timeout: 90_000 }, async () => {
    const dataDir = path.join(scratch, 'locked');
    const first = await openDatabase({ kind: 'pglite', dataDir });
    let released = false;
    try {
      expect(readFileSync(path.join(dataDir, 'service.lock'), 'utf8')).toBe(String(process.pid));
      await first.prisma.$queryRaw`SELECT 1`;
      const refused = await openFromAnotherProcess(dataDir);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain(`The database in ${path.resolve(dataDir)} is in use by process ${process.pid}; stop it first or choose another DATA_DIR`);
      // The refusal leaves our lock (and our database) alone.
      expect(readFileSync(path.join(dataDir, 'service.lock'), 'utf8')).toBe(String(process.pid));
      await first.prisma.$queryRaw`SELECT 1`;
      // A second open in this same process is refused too.
      await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow('is already open in this process');

      await first.close();
      released = true;
      expect(existsSync(path.join(dataDir, 'service.lock'))).toBe(false);
      const later = await openFromAnotherProcess(dataDir);
      expect(later.stderr.replace(/^npm warn.*\n/gm, '')).toBe('');
      expect(later).toMatchObject({ code: 0, stdout: 'opened\n' });
    } finally {
      if (!released) await first.close();
    }
  });

  it('takes over a stale lock left by a process that died', async () => {
    const dataDir = path.join(scratch, 'stale');
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    // The dead process's pid, written as a crashed service would have left it.
    (await import('node:fs')).mkdirSync(dataDir, { recursive: true });
    writeFileSync(path.join(dataDir, 'service.lock'), String(dead));
    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      expect(readFileSync(path.join(dataDir, 'service.lock'), 'utf8')).toBe(String(process.pid));
      expect(await database.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
    }
    expect(existsSync(path.join(dataDir, 'service.lock'))).toBe(false);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(onPostgres)('a real start of the service', () => {
  const APP = 'start-test-app';
  const SECRET = 'start-test-secret-0123456789';
  const authorization = { authorization: `Bearer ${APP}:${SECRET}` };
  let running: ChildProcessWithoutNullStreams | undefined;
  // The service runs in a process group of its own, and signals go to the whole group, as a
  // terminal's Ctrl-C would send them. It runs in node itself with tsx's loader (`--import tsx`),
  // not under tsx's command line: that one passes a signal on to the service unless the service
  // tells it within 30 ms that it got it, and kills it outright 30 ms later, which on a busy
  // machine cut the shutdown short and left the database's lock behind.
  const signal = (child: ChildProcessWithoutNullStreams, name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      /* already gone */
    }
  };
  afterEach(() => {
    if (running) signal(running, 'SIGKILL');
    running = undefined;
  });

  async function start(dataDir: string, port: number) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      detached: true,
      env: { PATH, HOME, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', BOOTSTRAP_APP: APP, BOOTSTRAP_SECRET: SECRET, LOG_LEVEL: 'info' },
    });
    running = child;
    const { out, exit } = collect(child);
    const base = `http://127.0.0.1:${port}`;
    let exited = false;
    void exit.then(() => (exited = true));
    for (;;) {
      if (exited) throw new Error(`the service exited during start:\n${out.stderr}`);
      const health = await fetch(`${base}/health`).catch(() => undefined);
      if (health?.status === 200) {
        expect(health.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await health.json()).toEqual({ status: 'ok', database: 'ready' });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    /** JSON log lines so far. */
    const logs = () =>
      out.stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    /**
     * SIGTERM to the service's process group, then wait until the service closed its output.
     * `repeated`: the signal again 10 ms later, as a terminal's Ctrl-C reaches a service under
     * `npm start` twice (directly, and passed on by npm): the same stop, not a second one.
     */
    async function stop(repeated = false) {
      signal(child, 'SIGTERM');
      if (repeated) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        signal(child, 'SIGTERM');
      }
      await exit;
      running = undefined;
    }
    return { base, logs, stop, out };
  }

  it('serves REST over HTTP with the bootstrap credentials, stops on SIGTERM and restarts on the same data', { timeout: 60_000 }, async () => {
    const dataDir = path.join(scratch, 'service');
    const port = await freePort();

    const first = await start(dataDir, port);
    const app = await fetch(`${first.base}/api/test:app`, { headers: authorization });
    expect(app.status).toBe(200);
    const admin = (await app.json()) as { user: string };
    expect(admin).toEqual({ version: 'default', language: 'en', app: APP, user: expect.stringMatching(/^usr_/), status: true });
    const created = await fetch(`${first.base}/api/user`, {
      method: 'POST',
      headers: authorization,
      body: new URLSearchParams({ username: 'persisted', first_name: 'Per', last_name: 'Sisted', email: 'p@example.com' }),
    });
    expect(created.status).toBe(200);
    const { user } = (await created.json()) as { user: string };
    const firstMigrated = first.logs().find((l) => l.msg === 'database migrated');
    expect((firstMigrated?.applied as string[]).length).toBeGreaterThan(0);
    await first.stop(true);
    // A clean shutdown, the repeated signal taken for the same stop (src/http/shutdown.test.ts): it
    // logged the signal, finished, and closed the database, which removes the lock file.
    expect(first.logs().some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM')).toBe(true);
    expect(first.logs().some((l) => l.msg === 'second signal: exiting now')).toBe(false);
    expect(first.logs().some((l) => l.msg === 'stopped')).toBe(true);
    expect(existsSync(path.join(dataDir, 'service.lock'))).toBe(false);

    const second = await start(dataDir, port);
    // Every migration was applied by the first start; none runs twice.
    expect(second.logs().find((l) => l.msg === 'database migrated')).toMatchObject({ applied: [], database: 'pglite' });
    // The bootstrap credentials still work, with no second bootstrap integration, and the data is there.
    const again = await fetch(`${second.base}/api/test:app`, { headers: authorization });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { user: string }).user).toBe(admin.user);
    const list = await fetch(`${second.base}/api/integrations`, { headers: authorization });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { integrations: unknown[] }).integrations).toHaveLength(1);
    const found = await fetch(`${second.base}/api/user?user=${user}`, { headers: authorization });
    expect(found.status).toBe(200);
    expect(await found.json()).toEqual({ user, name: 'Per Sisted', status: true, exam: false });
    // Credentials are never logged.
    expect(first.out.stdout + second.out.stdout).not.toContain(SECRET);
    await second.stop();
    expect(existsSync(path.join(dataDir, 'service.lock'))).toBe(false);
  });
});
