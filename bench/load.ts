/**
 * A load test, not part of the test suite: 200 connections of mixed REST and GraphQL traffic
 * against the service behind its own node:http server (src/http/server.ts, the limits of main.ts)
 * on 127.0.0.1, for a few seconds. It reports latency percentiles, errors and timeouts; bench/README.md
 * ("Load test") records a run.
 *
 *   npx tsx bench/load.ts
 *   LOAD_DURATION=10 LOAD_CONNECTIONS=200 npx tsx bench/load.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/load.ts   (in a schema of its own, dropped after)
 *
 * The rate limit is off here (it would answer most of this traffic 429): the test measures the
 * service's work, not its refusals. The load generator runs in autocannon's worker thread.
 */
import autocannon from 'autocannon';
import { startBenchService } from './service.ts';

const DURATION = Number(process.env.LOAD_DURATION ?? 5);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 200);
/** A request not answered within this counts as a timeout. */
const TIMEOUT_SECONDS = 10;

const service = await startBenchService();
const base = service.base;
const authorization = service.authorization;
const json = { 'content-type': 'application/json', authorization };

const result = await autocannon({
  url: base,
  connections: CONNECTIONS,
  duration: DURATION,
  timeout: TIMEOUT_SECONDS,
  workers: 1,
  // Each connection goes round these: two REST reads, a GraphQL query, a GraphQL page, a health check.
  requests: [
    { method: 'GET', path: '/api/user:me', headers: { authorization } },
    { method: 'GET', path: '/api/test:app', headers: { authorization } },
    { method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: '{ me { id name } }' }) },
    { method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: '{ users(first: 20) { edges { node { id name } } } }' }) },
    { method: 'GET', path: '/health' },
  ],
});

const summary = {
  connections: CONNECTIONS,
  seconds: DURATION,
  database: service.database,
  requests: result.requests.total,
  perSecond: result.requests.average,
  latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);

await service.close();
if (summary.timeouts > 0 || summary.errors > 0) process.exitCode = 1;
