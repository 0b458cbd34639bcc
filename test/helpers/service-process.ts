// The real service in a child process, started as the README's set-up says, for the tests that need a
// process of its own (signals, restarts, several instances). Linux only (reads /proc).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const root = fileURLToPath(new URL('../..', import.meta.url));
/** The administrator's application every started service bootstraps. */
export const SERVICE_CREDENTIALS = { APP: 'process_test_app', SECRET: 'process-test-secret-0123456789' };

/** A POST of the contract to the service on `port` as an application; the call must succeed. Returns the body. */
export async function post(port: number, endpoint: string, args: Record<string, string>, credentials = SERVICE_CREDENTIALS): Promise<any> {
  const r = await fetch(`http://127.0.0.1:${port}/api/${endpoint}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${credentials.APP}:${credentials.SECRET}` },
    body: new URLSearchParams(args),
  });
  const body = await r.json();
  expect(r.status, `${endpoint}: ${JSON.stringify(body)}`).toBe(200);
  return body;
}

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Every process a test started, ended in afterAll should a failed test leave one behind. */
export const spawned: number[] = [];

export interface Service {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

export async function start(command: string, args: string[], env: Record<string, string>): Promise<Service> {
  const port = await freePort();
  const child = spawn(command, args, {
    cwd: root,
    // Not the test runner's environment (vite sets BASE_URL, for one): what a shell would have.
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      BOOTSTRAP_APP: SERVICE_CREDENTIALS.APP,
      BOOTSTRAP_SECRET: SERVICE_CREDENTIALS.SECRET,
      PASSWORD_HASH_COST: '4',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  spawned.push(child.pid!);
  const deadline = Date.now() + 110_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output}`);
    const status = await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.status, () => 0);
    if (status === 200) break;
    if (Date.now() > deadline) throw new Error(`the service did not get ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, port, output: () => output, exited };
}

/** Every process below `pid` (its children, theirs, …). */
export function descendants(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry), ...descendants(Number(entry)));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Ends every process a test started (and their children) that is still running. */
export function killSpawned(): void {
  for (const pid of spawned.flatMap((p) => [p, ...descendants(p)])) if (alive(pid)) process.kill(pid, 'SIGKILL');
}
