/**
 * A load test, not part of the test suite: 200 connections of mixed REST and GraphQL traffic
 * against the service on fastify with its production limits (src/http/server.ts, the overload
 * guard of src/http/overload.ts) on 127.0.0.1, for 20 s. It reports latency percentiles, the
 * answers by status, the share refused with 503 OVERLOADED, errors and timeouts; bench/README.md
 * ("Load test") records runs. It fails on any timeout or error, on any answer other than 200 or
 * 503, and on a 503 without Retry-After and the error headers (bench/load-refusal.cjs): under load
 * a call is answered or refused cleanly, never left to time out.
 *
 *   node bench/compiled.mjs bench/load.ts
 *   LOAD_DURATION=10 LOAD_CONNECTIONS=200 node bench/compiled.mjs bench/load.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/compiled.mjs bench/load.ts   (in a schema of its own, dropped after)
 *
 * The rate limit is off here (it would answer most of this traffic 429): the test measures the
 * service's work and its overload refusals. The load generator runs in autocannon's worker thread.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { projectRoot } from '../src/project-root.ts';
import { startBenchService } from './service.ts';

const DURATION = Number(process.env.LOAD_DURATION ?? 20);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 200);
/** A request not answered within this counts as a timeout. */
const TIMEOUT_SECONDS = 10;

const service = await startBenchService();
const base = service.base;
const authorization = service.authorization;
const json = { 'content-type': 'application/json', authorization };
/** Checks every refusal's headers in the worker (a file: autocannon's workers load their hooks themselves). */
const onResponse = path.join(projectRoot(path.dirname(fileURLToPath(import.meta.url))), 'bench', 'load-refusal.cjs');
const loadBefore = loadavg()[0]!;

const result = await autocannon({
  url: base,
  connections: CONNECTIONS,
  duration: DURATION,
  timeout: TIMEOUT_SECONDS,
  workers: 1,
  // Each connection goes round these: two REST reads, a GraphQL query, a GraphQL page, a health check.
  requests: [
    { method: 'GET', path: '/api/user:me', headers: { authorization }, onResponse },
    { method: 'GET', path: '/api/test:app', headers: { authorization }, onResponse },
    { method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: '{ me { id name } }' }), onResponse },
    { method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: '{ users(first: 20) { edges { node { id name } } } }' }), onResponse },
    { method: 'GET', path: '/health', onResponse },
  ],
});

/** Answers by status code, as autocannon counts them. */
const byStatus = Object.fromEntries(
  Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count]),
);
const answered = Object.values(byStatus).reduce((sum, count) => sum + count, 0);
const refused = byStatus['503'] ?? 0;
const unexpected = Object.entries(byStatus).filter(([status]) => status !== '200' && status !== '503');

const summary = {
  connections: CONNECTIONS,
  seconds: DURATION,
  database: service.database,
  requests: result.requests.total,
  perSecond: result.requests.average,
  latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
  byStatus,
  refused,
  refusedShare: `${answered ? ((refused / answered) * 100).toFixed(1) : '0.0'} %`,
  errors: result.errors,
  timeouts: result.timeouts,
  loadAverage: { before: loadBefore, after: loadavg()[0] },
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);

await service.close();
if (summary.timeouts > 0 || summary.errors > 0 || unexpected.length > 0) process.exitCode = 1;
