/**
 * The GraphQL fast path and the REST router called in a loop without HTTP (no sockets, no
 * concurrency), so that what each face costs beyond the HTTP layer is measured in CPU
 * microseconds, steadier than requests per second on a shared machine:
 *
 *   node bench/compiled.mjs bench/handlers.ts          (compiled, as npm start runs the service)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/compiled.mjs bench/handlers.ts
 *
 * Each line is the process's CPU microseconds per call, the least of 15 rounds of 5,000 calls
 * (the round least disturbed by the rest of the machine; the cases take turns), logging at `info`
 * into a file as in production.
 */
import './production.ts';
import { RateLimiter } from '../src/rate-limit.ts';
import { RestRouter } from '../src/rest/router.ts';
import { createGraphQLHandler } from '../src/graphql/yoga.ts';
import { startBenchService } from './service.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const CALLS = Number(process.env.BENCH_CALLS ?? 5_000);
// The service's own set-up (its HTTP server stays idle); logs at `info` into its file, as in production.
const service = await startBenchService({ LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' });
const { platform, authorization } = service;
const headers = { get: (name: string) => (name === 'authorization' ? authorization : name === 'content-type' ? 'application/json' : undefined) };
const limiter = new RateLimiter(platform.config.rateLimit);
const rest = new RestRouter(platform, limiter, () => {});
const graphql = createGraphQLHandler(platform, limiter, () => {});

let n = 0;
const restCall = (endpoint: string) => () =>
  rest.handle({ method: 'GET', path: `/v1/${endpoint}`, query: new URLSearchParams(), headers, requestId: `r${n++}`, body: async () => ({}) });
const graphqlCall = (query: string) => {
  const body = JSON.stringify({ query });
  return () => graphql.json({ method: 'POST', url: 'http://localhost/graphql', headers, requestId: `g${n++}` }, body);
};

const cases: [string, () => Promise<unknown>][] = [
  ['REST GET user:me', restCall('user:me')],
  ['GraphQL { me { id name } }', graphqlCall('{ me { id name } }')],
  ['GraphQL { __typename }', graphqlCall('{ __typename }')],
];
const only = process.env.BENCH_CASES?.split(',');
const measured = cases.filter(([label]) => !only || only.some((part) => label.includes(part)));
const rounds = new Map<string, number[]>(measured.map(([label]) => [label, []]));
try {
  for (const [label, call] of measured) if (!(await call())) throw new Error(`${label} was not answered by its handler`);
  // Round robin: a disturbed moment of the machine touches every case alike.
  for (let r = 0; r < ROUNDS; r++) {
    for (const [label, call] of measured) {
      const started = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) await call();
      const spent = process.cpuUsage(started);
      rounds.get(label)!.push((spent.user + spent.system) / CALLS);
    }
  }
  for (const [label, times] of rounds) {
    times.sort((a, b) => a - b);
    console.log(`${times[0]!.toFixed(2).padStart(8)} µs  ${label}   (quartiles ${[0.25, 0.5, 0.75].map((q) => times[Math.floor(q * times.length)]!.toFixed(1)).join(' / ')})`);
  }
} finally {
  await limiter.close();
  await service.close();
}
process.exit(0);
