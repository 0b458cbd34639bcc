/**
 * CPU microseconds the server process spends per request, over loopback HTTP: steadier than
 * requests per second on a shared machine, since time other processes take is not counted.
 * The server runs in a child process of its own; this process drives it with autocannon and reads
 * the child's user+system time from /proc/<pid>/stat before and after each round.
 *
 * With BENCH_MEASURE=instructions the child runs under valgrind's callgrind and each round counts
 * the instructions it executed per request (user space: JavaScript, V8, Node and libuv; not the
 * kernel's socket work). The count does not depend on what else the machine is doing (rounds agree
 * within about 0.5 %), so a change of a few per cent shows in one run where CPU time needs many.
 * The server runs about 50 times slower under valgrind: use fewer requests (BENCH_REQUESTS=5000,
 * BENCH_WARMUP_REQUESTS=20000 so the JIT settles first).
 *
 *   node bench/compiled.mjs bench/cpu-per-request.ts    (REST GET user:me and fastify alone, compiled as npm start runs it)
 *   BENCH_SERVERS=bare,fastify,service BENCH_REQUESTS=20000 BENCH_ROUNDS=5 node bench/compiled.mjs bench/cpu-per-request.ts
 *   BENCH_PATH=/api/v1/test:app node bench/compiled.mjs bench/cpu-per-request.ts
 *   BENCH_PATH=/graphql BENCH_BODY='{"query":"{ me { id name } }"}' BENCH_SERVERS=service node bench/compiled.mjs bench/cpu-per-request.ts   (a JSON POST)
 *   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" BENCH_SERVERS=service node bench/compiled.mjs bench/cpu-per-request.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/compiled.mjs bench/cpu-per-request.ts
 *   BENCH_MEASURE=instructions BENCH_REQUESTS=5000 BENCH_WARMUP_REQUESTS=20000 BENCH_ROUNDS=3 node bench/compiled.mjs bench/cpu-per-request.ts
 *   npx tsx bench/cpu-per-request.ts                    (the sources under tsx's loader, as the tests run them)
 *
 * The service is configured as `npm run bench` configures it (rate limits off, logs at LOG_LEVEL,
 * default info, into a file); `fastify` is one fastify route answering the same JSON, `bare` a
 * node:http server answering it (the reference of `npm run bench`).
 * Each line: the least and the median of the rounds, in µs of server CPU per request.
 */
import './production.ts';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadavg, tmpdir } from 'node:os';
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

/** The service as the benchmark runs it, and its answer to the measured request. */
async function startService(): Promise<{ served: Served; close(): Promise<void> }> {
  const { startBenchService } = await import('./service.ts');
  const service = await startBenchService({
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
    HTTP_MAX_REQUESTS_PER_SOCKET: '0',
  });
  const answer = await fetch(service.base + PATH, request(service.authorization));
  const body = await answer.text();
  if (answer.status !== 200) throw new Error(`${PATH}: ${answer.status} ${body}`);
  return { served: { base: service.base, authorization: service.authorization, body }, close: () => service.close() };
}

/** A reference server answering `body` to every request: node:http alone, or one fastify route. */
async function startReference(kind: string, body: string): Promise<{ base: string; close(): Promise<void> }> {
  if (kind === 'bare') {
    const { createServer } = await import('node:http');
    const bare = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      response.end(body);
    });
    bare.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    return { base: `http://127.0.0.1:${(bare.address() as { port: number }).port}`, close: () => new Promise((resolve) => bare.close(() => resolve())) };
  }
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ keepAliveTimeout: 65_000 });
  app.all('/*', (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
  return { base: await app.listen({ port: 0, host: '127.0.0.1' }), close: () => app.close() };
}

/**
 * The child's side: start the server, tell the parent where it is, serve until stdin closes. A
 * reference server is given the service's answer by the parent when a service was started before
 * it (BENCH_SERVED), so that no idle service shares its process; otherwise it starts one to learn it.
 */
async function serve(kind: string): Promise<void> {
  const given = process.env.BENCH_SERVED ? (JSON.parse(process.env.BENCH_SERVED) as Served) : undefined;
  const service = kind === 'service' || !given ? await startService() : undefined;
  let served = (service?.served ?? given)!;
  let close = async () => service?.close();
  if (kind !== 'service') {
    const reference = await startReference(kind, served.body);
    served = { ...served, base: reference.base };
    close = async () => {
      await reference.close();
      await service?.close();
    };
  }
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
 * Instructions (callgrind's Ir) the child's main thread executed since the last call: its counters
 * are dumped and zeroed. Only the main thread: the engine's compiler and GC helper threads run
 * whenever they are scheduled, and counted with them, rounds differed by a factor of two.
 */
function instructionsSinceLast(pid: number, outDir: string): number {
  execFileSync('callgrind_control', ['--dump', String(pid)], { stdio: 'ignore' });
  execFileSync('callgrind_control', ['--zero', String(pid)], { stdio: 'ignore' });
  const dump = (name: string) => Number(/\.(\d+)-01$/.exec(name)?.[1] ?? -1);
  const last = readdirSync(outDir).sort((a, b) => dump(a) - dump(b)).at(-1)!;
  return Number(/^totals: (\d+)/m.exec(readFileSync(path.join(outDir, last), 'utf8'))![1]);
}

const INSTRUCTIONS = process.env.BENCH_MEASURE === 'instructions';

/**
 * Instructions per request of one round under callgrind. A round runs for seconds there, and the
 * process works while idle too (timers, the pool, the compiler's threads), so what it does in as
 * long without requests is measured right after and taken off. A few requests first bring back
 * code the engine let go while other servers had their turn.
 */
async function instructionsPerRequest(pid: number, outDir: string, served: Served, requests: number): Promise<number> {
  await drive(served, Math.ceil(requests / 5));
  instructionsSinceLast(pid, outDir);
  const started = performance.now();
  await drive(served, requests);
  const busy = instructionsSinceLast(pid, outDir);
  const busyMs = performance.now() - started;
  const idleStarted = performance.now();
  await new Promise((resolve) => setTimeout(resolve, Math.min(busyMs, 5_000)));
  const idlePerMs = instructionsSinceLast(pid, outDir) / (performance.now() - idleStarted);
  return (busy - idlePerMs * busyMs) / requests;
}

/**
 * A server in a child process. `service@<dir>` runs the service of another checkout (say, the
 * commit before a change, exported with `git archive` and given this checkout's node_modules), so
 * that before and after are measured in turns, under the same load of the machine.
 */
async function startChild(kind: string, given?: Served): Promise<{ child: ChildProcess; served: Served; outDir: string }> {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const [name, dir] = kind.split('@');
  const self = fileURLToPath(import.meta.url);
  // Run as this script runs: compiled (bench/compiled.mjs, another checkout's compiled by its own) or under tsx.
  const compiled = self.endsWith('.js');
  const script = dir ? path.join(path.resolve(dir), 'bench', compiled ? 'compiled.mjs' : 'cpu-per-request.ts') : self;
  const loader = compiled ? (dir ? [path.join(path.resolve(dir), 'bench', 'cpu-per-request.ts')] : []) : ['--import', 'tsx'];
  const command = [process.execPath, ...nodeArgs, ...(compiled ? [script, ...loader] : [...loader, script]), '--serve', name!];
  // Under callgrind, counting only once switched on (after start-up); JIT code is checked for changes.
  const outDir = INSTRUCTIONS ? mkdtempSync(path.join(tmpdir(), 'callgrind-')) : '';
  const valgrind = ['valgrind', '--tool=callgrind', '--smc-check=all-non-file', '--instr-atstart=no', '--separate-threads=yes', `--callgrind-out-file=${outDir}/callgrind.out`];
  const [program, ...args] = INSTRUCTIONS ? [...valgrind, ...command] : command;
  // valgrind's slowness is not overload: the event-loop delay guard would refuse its requests.
  const env = { ...process.env, ...(given ? { BENCH_SERVED: JSON.stringify(given) } : {}), ...(INSTRUCTIONS ? { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' } : {}) };
  const child = spawn(program!, args, {
    env,
    cwd: dir ? path.resolve(dir) : undefined,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  if (INSTRUCTIONS) execFileSync('callgrind_control', ['--instr=on', String(child.pid)], { stdio: 'ignore' });
  return { child, served: JSON.parse(first) as Served, outDir };
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
  const servers: { kind: string; child: ChildProcess; served: Served; outDir: string }[] = [];
  const requests = envNumber('BENCH_REQUESTS', 20_000);
  const perRound = new Map<string, number[]>(kinds.map((kind) => [kind, []]));
  try {
    // Services first: the reference servers answer what a service answered.
    const services = kinds.filter((kind) => kind.startsWith('service'));
    for (const kind of [...services, ...kinds.filter((kind) => !services.includes(kind))]) {
      servers.push({ kind, ...(await startChild(kind, servers[0]?.served)) });
    }
    servers.sort((a, b) => kinds.indexOf(a.kind) - kinds.indexOf(b.kind));
    for (const server of servers) await drive(server.served, envNumber('BENCH_WARMUP_REQUESTS', 10_000));
    for (let r = 0; r < envNumber('BENCH_ROUNDS', 5); r++) {
      for (const { kind, child, served, outDir } of servers) {
        if (INSTRUCTIONS) {
          perRound.get(kind)!.push(await instructionsPerRequest(child.pid!, outDir, served, requests));
          continue;
        }
        const before = cpuMicros(child.pid!);
        await drive(served, requests);
        perRound.get(kind)!.push((cpuMicros(child.pid!) - before) / requests);
      }
    }
  } finally {
    for (const { child, outDir } of servers) {
      child.stdin!.end();
      await new Promise((resolve) => child.once('exit', resolve));
      if (outDir) rmSync(outDir, { recursive: true, force: true });
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
    const [unit, shown] = INSTRUCTIONS ? ['k instructions', (v: number) => (v / 1000).toFixed(1)] : ['µs', (v: number) => v.toFixed(1)];
    console.log(
      `${kind.padEnd(12)} ${shown(sorted[0]!).padStart(6)} ${unit} least, ${shown(sorted[Math.floor(sorted.length / 2)]!)} ${unit} median per request  (rounds ${rounds.map(shown).join(' / ')})`,
    );
  }
  console.log(`load average ${loadavg()[0]!.toFixed(2)}`);
}
