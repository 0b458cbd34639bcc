/**
 * Both faces measured in one run: REST against a bare node:http server answering the same JSON,
 * and GraphQL against REST for the same data.
 *
 * The ratio service/bare says how much of a loopback call's budget goes to routing, credentials
 * (from the instance's credential cache), instance settings, the per-call log line and the
 * metrics, as opposed to HTTP itself. Both servers run in this process; the load generator runs in an
 * autocannon worker thread so it does not share the servers' event loop (on 2 cores: one core for
 * the servers, one for the load).
 *
 *   npm run bench
 *   BENCH_DURATION=10 BENCH_WARMUP=2 BENCH_CONNECTIONS=10 LOG_LEVEL=info npm run bench
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench   (a fresh schema, dropped after)
 *   BENCH_CASES=GraphQL npm run bench          (only the cases whose name contains one of these)
 *   BENCH_ONLY=service node --cpu-prof --cpu-prof-dir=/tmp/prof bench/compiled.mjs bench/faces.ts
 *   npx tsx bench/faces.ts                     (the sources under tsx's loader, as the tests run them)
 *
 * `npm run bench` runs it compiled, as `npm start` runs the service (bench/compiled.mjs).
 *
 * The service logs as in production (pino, LOG_LEVEL, default info, same redaction) but into a file
 * in the temporary DATA_DIR instead of a terminal, so terminal rendering is not measured.
 */
import './production.ts';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { createLogger } from '../src/logger.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { loadSecretKey } from '../src/auth/secret-key.ts';
import { createPlatform } from '../src/platform.ts';
import { bootstrap } from '../src/services/bootstrap/bootstrap.service.ts';
import { createApp } from '../src/app.ts';
import { freshPostgresSchema } from './service.ts';

const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const DURATION = envNumber('BENCH_DURATION', 6);
const WARMUP = envNumber('BENCH_WARMUP', 2);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 10);
/** Each side of a pair is measured in this many slices, taking turns with the other. */
const SLICES = Math.max(1, envNumber('BENCH_SLICES', 6));
/** `bare` or `service` measures one side only: a CPU profile of the service alone is easier to read. */
const ONLY = process.env.BENCH_ONLY;
function listen(handler: RequestListener): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });
}

async function startService() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-'));
  const pgSchema = process.env.DATABASE_URL ? await freshPostgresSchema(process.env.DATABASE_URL) : undefined;
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: pgSchema?.url,
    RATE_LIMIT_PER_SECOND: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    BOOTSTRAP_APP: undefined,
    BOOTSTRAP_SECRET: undefined,
    MAINTENANCE: undefined,
    // As the bare server: keep-alive connections of the load generator are not closed under it.
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
    // autocannon keeps sending on a connection the service asked to close after its 1,000th
    // request (Node then answers 503); the bare server has no such limit either.
    HTTP_MAX_REQUESTS_PER_SOCKET: '0',
  });
  // The service's own logger, writing into a file instead of stdout.
  const logFile = path.join(dataDir, 'service.log');
  const log = createLogger(config.LOG_LEVEL, logFile);
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
    authorization: `Bearer ${boot.generated.app}:${boot.generated.secret}`,
    logLines: () => readFileSync(logFile, 'utf8').split('\n').filter(Boolean).length,
    async close() {
      app.server.server.closeAllConnections();
      await app.close();
      await database.close();
      await pgSchema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The lower bound: node:http answering the same bodies the service gives for the same calls, with
 * the same content type, and nothing else (no routing table, no credentials, no log).
 */
function bareHandler(bodies: Map<string, string>): RequestListener {
  return (req, res) => {
    const body = bodies.get(req.url ?? '');
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
}

/** fastify with one route answering the same bodies as the bare server: no hooks, no plugins, no log. */
async function bareFastify(bodies: Map<string, string>) {
  const app = Fastify({ keepAliveTimeout: 65_000 });
  app.get('/*', (request, reply) => {
    const body = bodies.get(request.url);
    if (body === undefined) return reply.code(404).send();
    return reply.header('content-type', 'application/json; charset=utf-8').send(body);
  });
  return { app, base: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

interface Case {
  name: string;
  /** Served by the bare fastify reference instead of the service. */
  server?: 'fastify';
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** What it is measured against, in the same run: the bare server or another case. */
  against: 'bare' | string;
}

const graphql = (query: string) => JSON.stringify({ query });
/**
 * REST against bare node:http; GraphQL against REST for the same data (`{ me { id name } }` is
 * what `GET user:me` answers; `{ __typename }` is GraphQL with no data at all).
 */
const ALL_CASES: Case[] = [
  { name: 'REST GET test:app', method: 'GET', path: '/api/v1/test:app', against: 'bare' },
  { name: 'REST GET user:me', method: 'GET', path: '/api/v1/user:me', against: 'bare' },
  // The framework's own floor: what fastify alone keeps of bare node:http on this machine.
  { name: 'fastify alone, GET user:me', server: 'fastify', method: 'GET', path: '/api/v1/user:me', against: 'bare' },
  { name: 'GraphQL { me { id name } }', method: 'POST', path: '/graphql', body: graphql('{ me { id name } }'), against: 'REST GET user:me' },
  { name: 'GraphQL { __typename }', method: 'POST', path: '/graphql', body: graphql('{ __typename }'), against: 'REST GET user:me' },
];
const CASES = ALL_CASES.filter((c) => !process.env.BENCH_CASES || process.env.BENCH_CASES.split(',').some((name) => c.name.includes(name.trim())));

async function load(base: string, c: Case, authorization: string, duration: number) {
  const result = await autocannon({
    url: base + c.path,
    method: c.method,
    body: c.body,
    connections: CONNECTIONS,
    duration,
    workers: 1,
    headers: { authorization, ...(c.body ? { 'content-type': 'application/json' } : {}) },
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    // What one more such call answers now, to say why.
    const again = await fetch(base + c.path, { method: c.method, body: c.body, headers: { authorization, ...(c.body ? { 'content-type': 'application/json' } : {}) } });
    const why = `${again.status} ${(await again.text()).slice(0, 300)}`;
    throw new Error(`${c.name}: ${result.non2xx} non-2xx answers (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors, ${result.timeouts} timeouts; one more call answers ${why}`);
  }
  return result;
}

const service = await startService();
const bodies = new Map<string, string>();
for (const c of ALL_CASES.filter((c) => c.against === 'bare')) {
  const response = await fetch(service.base + c.path, { headers: { authorization: service.authorization } });
  if (response.status !== 200) throw new Error(`GET ${c.path}: ${response.status} ${await response.text()}`);
  bodies.set(c.path, await response.text());
}
const bare = await listen(bareHandler(bodies));
const fastifyAlone = await bareFastify(bodies);

console.log(
  `database ${service.database}, LOG_LEVEL ${process.env.LOG_LEVEL ?? 'info'} (to a file), ${CONNECTIONS} connections, ` +
    `${WARMUP} s warm-up + ${DURATION} s per side of a pair in ${SLICES} slices, node ${process.version}, ${cpus().length} cores, ` +
    `load average ${loadavg()[0]!.toFixed(2)}\n`,
);
/** A server measured in a pair: a case of the service (or of fastify alone), or the bare server on a case's path. */
interface Side {
  name: string;
  base: string;
  c: Case;
  /** `bare` or `service`, for BENCH_ONLY. */
  kind: 'bare' | 'service';
}
const sideOf = (c: Case): Side => ({ name: c.name, base: c.server === 'fastify' ? fastifyAlone.base : service.base, c, kind: 'service' });
const referenceOf = (c: Case): Side =>
  c.against === 'bare' ? { name: `bare ${c.path}`, base: bare.base, c, kind: 'bare' } : sideOf(ALL_CASES.find((other) => other.name === c.against)!);

/**
 * Rounds: in every round each case is measured against its reference, and the ratio is taken
 * within the pair; the table gives the median over the rounds. Within a pair the two sides take
 * turns in short slices (reference, case, case, reference, …: BENCH_SLICES slices of
 * BENCH_DURATION / BENCH_SLICES seconds each), so that both see the machine alike: on a shared
 * 2-core machine the speed of the host drifted by a factor of two within minutes, and a pair of
 * 6 s runs one after the other once measured fastify alone at 119 % of the bare server.
 */
const ROUNDS = envNumber('BENCH_ROUNDS', 3);
interface Measured {
  rps: number;
  p99: number;
}
async function measurePair(mine: Side, theirs: Side): Promise<Map<string, Measured>> {
  const sides = [theirs, mine].filter((side) => !ONLY || side.kind === ONLY);
  const totals = new Map(sides.map((side) => [side.name, { requests: 0, seconds: 0, p99s: [] as number[] }]));
  for (const side of sides) if (WARMUP > 0) await load(side.base, side.c, service.authorization, WARMUP);
  for (let slice = 0; slice < SLICES; slice++) {
    for (const side of slice % 2 ? [...sides].reverse() : sides) {
      const result = await load(side.base, side.c, service.authorization, DURATION / SLICES);
      const total = totals.get(side.name)!;
      total.requests += result.requests.total;
      total.seconds += result.duration;
      total.p99s.push(result.latency.p99);
    }
  }
  const measured = new Map<string, Measured>();
  for (const [name, total] of totals) {
    const side = { rps: total.requests / total.seconds, p99: median(total.p99s) };
    measured.set(name, side);
    console.log(`${name.padEnd(34)} ${side.rps.toFixed(0).padStart(6)} req/s  latency p99 ${side.p99} ms (median of ${SLICES} slices)`);
  }
  return measured;
}
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
const rows: { case: string; against: string; reqPerSec: number; reference: number; ratio: string; ratios: string; p99: string }[] = [];
try {
  /** Per case, its pair's figures in each round. */
  const rounds = new Map<string, { mine?: Measured; theirs?: Measured }[]>(CASES.map((c) => [c.name, []]));
  for (let r = 1; r <= ROUNDS; r++) {
    console.log(`round ${r} of ${ROUNDS}`);
    for (const c of CASES) {
      const mine = sideOf(c);
      const theirs = referenceOf(c);
      const measured = await measurePair(mine, theirs);
      rounds.get(c.name)!.push({ mine: measured.get(mine.name), theirs: measured.get(theirs.name) });
    }
  }
  for (const c of CASES) {
    const pairs = rounds.get(c.name)!;
    const ratios = pairs.flatMap(({ mine, theirs }) => (mine && theirs ? [(mine.rps / theirs.rps) * 100] : []));
    const of = (pick: (pair: { mine?: Measured; theirs?: Measured }) => number | undefined) =>
      median(pairs.flatMap((pair) => (pick(pair) === undefined ? [] : [pick(pair)!])));
    rows.push({
      case: c.name,
      against: referenceOf(c).name,
      reqPerSec: Math.round(of((pair) => pair.mine?.rps) || 0),
      reference: Math.round(of((pair) => pair.theirs?.rps) || 0),
      ratio: ratios.length ? `${median(ratios).toFixed(1)}%` : '-',
      ratios: ratios.map((ratio) => ratio.toFixed(0)).join(' / '),
      p99: `${of((pair) => pair.mine?.p99) || '-'} / ${of((pair) => pair.theirs?.p99) || '-'} ms`,
    });
  }
  console.log();
  console.table(rows);
  console.log(`service log: ${service.logLines()} lines`);
} finally {
  await new Promise((resolve) => bare.server.close(resolve));
  await fastifyAlone.app.close();
  await service.close();
}
// The migration engine leaves a 10 s timer behind; the run is over.
process.exit(0);
