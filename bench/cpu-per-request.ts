/**
 * CPU microseconds the server process spends per request, over loopback HTTP: steadier than
 * requests per second on a shared machine, since time other processes take is not counted.
 * The server runs in a child process of its own; this process drives it with autocannon and reads
 * the child's user+system time from /proc/<pid>/stat before and after each round.
 *
 *   npx tsx bench/cpu-per-request.ts                    (REST GET user:me and fastify alone)
 *   BENCH_SERVERS=service BENCH_REQUESTS=20000 BENCH_ROUNDS=5 npx tsx bench/cpu-per-request.ts
 *   BENCH_PATH=/api/v1/test:app npx tsx bench/cpu-per-request.ts
 *   BENCH_PATH=/graphql BENCH_BODY='{"query":"{ me { id name } }"}' BENCH_SERVERS=service npx tsx bench/cpu-per-request.ts   (a JSON POST)
 *   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" BENCH_SERVERS=service npx tsx bench/cpu-per-request.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/cpu-per-request.ts
 *
 * The service is configured as `npm run bench` configures it (rate limits off, logs at LOG_LEVEL,
 * default info, into a file); `fastify` is one fastify route answering the same JSON.
 * Each line: the least and the median of the rounds, in µs of server CPU per request.
 */
import './production.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import path from 'node:path';

const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const PATH = process.env.BENCH_PATH ?? '/api/v1/user:me';
/** A JSON body to POST instead of a GET. */
const BODY = process.env.BENCH_BODY;
const request = (authorization: string): { method: string; headers: Record<string, string>; body?: string } =>
  BODY === undefined
    ? { method: 'GET', headers: { authorization } }
    : { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: BODY };

interface Served {
  base: string;
  authorization: string;
  body: string;
}

/** The child's side: start the server, tell the parent where it is, serve until stdin closes. */
async function serve(kind: string): Promise<void> {
  const { startBenchService } = await import('./service.ts');
  const service = await startBenchService({
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
    HTTP_MAX_REQUESTS_PER_SOCKET: '0',
  });
  const answer = await fetch(service.base + PATH, request(service.authorization));
  const body = await answer.text();
  if (answer.status !== 200) throw new Error(`${PATH}: ${answer.status} ${body}`);
  let base = service.base;
  let close = () => service.close();
  if (kind === 'fastify') {
    const { default: Fastify } = await import('fastify');
    const app = Fastify({ keepAliveTimeout: 65_000 });
    app.all('/*', (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    close = async () => {
      await app.close();
      await service.close();
    };
  }
  const served: Served = { base, authorization: service.authorization, body };
  process.stdout.write(`${JSON.stringify(served)}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void close().then(() => process.exit(0)));
}

/** utime + stime of a process, in µs (clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * A server in a child process. `service@<dir>` runs the service of another checkout (say, the
 * commit before a change, exported with `git archive` and given this checkout's node_modules), so
 * that before and after are measured in turns, under the same load of the machine.
 */
async function startChild(kind: string): Promise<{ child: ChildProcess; served: Served }> {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const [name, dir] = kind.split('@');
  const script = dir ? path.join(path.resolve(dir), 'bench', path.basename(fileURLToPath(import.meta.url))) : fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, '--serve', name!], {
    cwd: dir ? path.resolve(dir) : undefined,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, served: JSON.parse(first) as Served };
}

async function drive(served: Served, amount: number): Promise<void> {
  const { default: autocannon } = await import('autocannon');
  const result = await autocannon({
    url: served.base + PATH,
    connections: envNumber('BENCH_CONNECTIONS', 10),
    amount,
    ...request(served.authorization),
  } as unknown as Parameters<typeof autocannon>[0]);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
}

/** Every server started at once; each round drives them one after the other, so a busy moment of the machine touches each alike. */
async function measureInTurns(kinds: string[]): Promise<Map<string, number[]>> {
  const servers: { kind: string; child: ChildProcess; served: Served }[] = [];
  const requests = envNumber('BENCH_REQUESTS', 20_000);
  const perRound = new Map<string, number[]>(kinds.map((kind) => [kind, []]));
  try {
    for (const kind of kinds) servers.push({ kind, ...(await startChild(kind)) });
    for (const server of servers) await drive(server.served, envNumber('BENCH_WARMUP_REQUESTS', 10_000));
    for (let r = 0; r < envNumber('BENCH_ROUNDS', 5); r++) {
      for (const { kind, child, served } of servers) {
        const before = cpuMicros(child.pid!);
        await drive(served, requests);
        perRound.get(kind)!.push((cpuMicros(child.pid!) - before) / requests);
      }
    }
  } finally {
    for (const { child } of servers) {
      child.stdin!.end();
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
  return perRound;
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt > 0) {
  await serve(process.argv[serveAt + 1]!);
} else {
  console.log(`${BODY === undefined ? 'GET' : `POST ${BODY}`} ${PATH}, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded'}, load average ${loadavg()[0]!.toFixed(2)}`);
  const measured = await measureInTurns((process.env.BENCH_SERVERS ?? 'service,fastify').split(','));
  for (const [kind, rounds] of measured) {
    const sorted = [...rounds].sort((a, b) => a - b);
    console.log(
      `${kind.padEnd(12)} ${sorted[0]!.toFixed(1).padStart(6)} µs least, ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} µs median per request  (rounds ${rounds.map((v) => v.toFixed(1)).join(' / ')})`,
    );
  }
  console.log(`load average ${loadavg()[0]!.toFixed(2)}`);
}
