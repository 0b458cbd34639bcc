// The lean start, measured: time from spawning the service until /health/ready answers 200, and its
// resident memory (the whole process tree, from /proc; Linux) right then and after some idle seconds.
//
//   npm run bench:start                                            embedded database (PGlite)
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:start
//
// It runs what `npm start` runs (node src/scripts/start.mjs, dist/ built beforehand so the build is
// not counted) on a database it makes and removes: a new DATA_DIR (or a new schema), started once to
// create and migrate it (the first start, also reported), then `RUNS` more starts on the existing one.
// Each start is stopped with SIGTERM, which also times the shutdown.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { build } from '../src/scripts/build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.RUNS ?? 5);
const IDLE_MS = Number(process.env.IDLE_MS ?? 5000);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function tree(pid: number): number[] {
  const out = [pid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(...tree(Number(entry)));
    } catch {
      /* gone */
    }
  }
  return out;
}

function rssMb(pid: number): number {
  let kb = 0;
  for (const p of tree(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))![1]);
    } catch {
      /* gone */
    }
  }
  return kb / 1024;
}

interface Run {
  readyMs: number;
  rssReadyMb: number;
  rssIdleMb: number;
  stopMs: number;
}

async function once(env: Record<string, string>): Promise<Run> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['src/scripts/start.mjs'], {
    cwd: root,
    env: { PATH: process.env.PATH!, HOME: os.tmpdir(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', PASSWORD_HASH_COST: '4', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    if ((await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.status, () => 0)) === 200) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const readyMs = performance.now() - started;
  const rssReadyMb = rssMb(child.pid!);
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const rssIdleMb = rssMb(child.pid!);
  const stopping = performance.now();
  child.kill('SIGTERM');
  await exited;
  return { readyMs, rssReadyMb, rssIdleMb, stopMs: performance.now() - stopping };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const show = (label: string, runs: Run[]) =>
  console.log(
    `${label.padEnd(34)} ready ${Math.round(median(runs.map((r) => r.readyMs)))} ms (${runs.map((r) => Math.round(r.readyMs)).join(', ')}), ` +
      `memory at ready ${Math.round(median(runs.map((r) => r.rssReadyMb)))} MB, after ${IDLE_MS / 1000} s idle ${Math.round(median(runs.map((r) => r.rssIdleMb)))} MB ` +
      `(${runs.map((r) => Math.round(r.rssIdleMb)).join(', ')}), SIGTERM to exit ${Math.round(median(runs.map((r) => r.stopMs)))} ms`,
  );

await build();
const url = process.env.DATABASE_URL;
let env: Record<string, string>;
let cleanup: () => Promise<void>;
if (url && /^postgres(ql)?:\/\//.test(url)) {
  const schema = `bench_start_${process.pid}`;
  const u = new URL(url);
  u.searchParams.set('schema', schema);
  env = { DATABASE_URL: u.toString() };
  cleanup = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  };
} else {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lp-bench-start-'));
  env = { DATA_DIR: dir };
  cleanup = async () => rmSync(dir, { recursive: true, force: true });
}
const kind = env.DATABASE_URL ? 'PostgreSQL' : 'embedded (PGlite)';
try {
  console.log(`${kind}, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${os.cpus().length} cores`);
  show('first start (creates, migrates)', [await once(env)]);
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once(env));
  show(`existing database, ${RUNS} starts`, runs);
} finally {
  await cleanup();
}
