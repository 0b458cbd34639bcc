/**
 * Exam day: thousands of examinees of one exam start at the same moment, answer, and finish,
 * each with its own assume token through the school's one application, against REST
 * `GET user:me` driven by the same generator before and after, for the ratios.
 *
 *   node bench/compiled.mjs bench/exam-day.ts                            (embedded database)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/compiled.mjs bench/exam-day.ts
 *   BENCH_EXAMINEES=10000 BENCH_QUESTIONS=4 DATABASE_URL=… node bench/compiled.mjs bench/exam-day.ts   (the stretch)
 *   npx tsx bench/exam-day.ts                                            (the sources under tsx's loader)
 *
 * BENCH_START_CONNECTIONS (6,000) caps the starts sent at once: generator and service together
 * hold two descriptors per connection, and a process may hold 20,000.
 *
 * Phases: `user:me` for BENCH_ME_SECONDS at 50 in flight; every examinee's `startPlay` at once;
 * every answer (BENCH_QUESTIONS per examinee) at 50 in flight; every `finishPlay` at 50 in flight;
 * `user:me` again. The generator runs in a worker thread (bench/exam-day-client.ts), so on 2 cores
 * one serves and one loads; a call refused as SERVICE_BUSY is sent again after Retry-After and
 * counted as a retry. Afterwards the database is checked: one play per examinee, every
 * acknowledged answer stored, every play finished with the points its answers earn. Then one
 * examinee more plays alone, and the SQL statements of each of its mutations are printed.
 * Peak RSS is that of this process (service and generator together), sampled every 100 ms.
 *
 * BENCH_PROFILE=start (or answer, finish) writes a CPU profile of the service's thread during that
 * phase alone to .scratch/ (read it with bench/profile-summary.ts). BENCH_STATEMENTS=start (or
 * answer, finish), on the embedded database, prints the statements of that phase by kind: how
 * many, and the time the database spent on them.
 */
import './production.ts';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { projectRoot } from '../src/project-root.ts';
import { sha256 } from '../src/auth/secrets.ts';
import { newId } from '../src/ids.ts';
import { countStatements, watchPGlite } from '../test/helpers/sql-counter.ts';
import type { Examinee, Phase, PhaseResult } from './exam-day-client.ts';
import { percentile, startBenchService } from './service.ts';

const EXAMINEES = Number(process.env.BENCH_EXAMINEES ?? 3000);
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 4);
const ME_SECONDS = Number(process.env.BENCH_ME_SECONDS ?? 5);
// Generator and service share this process's file descriptors (each connection costs two): beyond
// this many starts at once, the rest wait on the generator's side for a connection to come free.
const START_CONNECTIONS = Math.min(EXAMINEES, Number(process.env.BENCH_START_CONNECTIONS ?? 6000));
const IN_FLIGHT = 50;

const load = [loadavg()[0]!];
const service = await startBenchService();
const db = service.platform.db;
const integration = await db.integration.findFirstOrThrow({ where: { appId: service.admin.app } });
const ownerId = integration.ownerId;
let peakRss = process.memoryUsage.rss();
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 100);

// --- Seed: an exam of QUESTIONS generic questions ("yes" is right, 1 point each) and its examinees.
const seedStart = performance.now();
const quizId = newId('QuizSet');
await db.quizSet.create({ data: { id: quizId, title: 'Exam day', language: 'en', ownerId } });
const questionIds = Array.from({ length: QUESTIONS }, () => newId('Question'));
await db.question.createMany({
  data: questionIds.map((id, i) => ({ id, externalId: `q${i}`, scope: `folder:${ownerId}:/API`, ownerId, type: 'generic', content: `Question ${i}`, answers: ['yes'] })),
});
await db.quizItem.createMany({ data: questionIds.map((questionId, position) => ({ quizId, questionId, position })) });
const examId = newId('Exam');
const hour = 3600_000;
await db.exam.create({ data: { id: examId, title: 'Exam day', language: 'en', quizId, ownerId, start: new Date(Date.now() - hour), end: new Date(Date.now() + 2 * hour) } });

async function examinees(count: number, prefix: string): Promise<(Examinee & { userId: string })[]> {
  const made = Array.from({ length: count }, (_, i) => ({ userId: newId('User'), token: `${randomBytes(8).toString('hex')}.${randomBytes(30).toString('hex')}`, i }));
  for (let i = 0; i < made.length; i += 1000) {
    const batch = made.slice(i, i + 1000);
    await db.user.createMany({
      data: batch.map((u) => ({ id: u.userId, username: `${prefix}${u.i}`, email: `${prefix}${u.i}@example.com`, passwordHash: '-', firstName: 'Examinee', lastName: String(u.i), fullName: `Examinee ${u.i}`, displayName: `Examinee ${u.i}`, createdById: ownerId })),
    });
    await db.examUser.createMany({ data: batch.map((u) => ({ examId, userId: u.userId })) });
    await db.assumeToken.createMany({
      data: batch.map((u) => ({ id: newId('AssumeToken'), tokenHash: sha256(u.token), userId: u.userId, issuerId: ownerId, integrationId: integration.id, expiresAt: new Date(Date.now() + 3 * hour) })),
    });
  }
  return made.map(({ userId, token }) => ({ userId, token }));
}
const crowd = await examinees(EXAMINEES, 'examinee');
const seedSeconds = (performance.now() - seedStart) / 1000;

// --- Drive -------------------------------------------------------------------------------------
// The worker registers tsx's loader before it imports the TypeScript generator (a worker does not
// inherit it); the generator is not what is measured, so it stays a source even when this runs compiled.
const client = pathToFileURL(path.join(projectRoot(path.dirname(fileURLToPath(import.meta.url))), 'bench', 'exam-day-client.ts')).href;
const worker = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(client)}); });`, {
  eval: true,
  workerData: { base: service.base, authorization: service.authorization },
});
const drive = (phase: Phase) =>
  new Promise<PhaseResult>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.postMessage(phase);
  });

/**
 * The embedded database's statements while `fn` runs, by kind (their first 100 characters): how
 * many ran and the milliseconds each kind took, the most expensive first.
 */
async function statementCensus<T>(fn: () => Promise<T>): Promise<T> {
  const kinds = new Map<string, { count: number; ms: number }>();
  const restore = watchPGlite(service.pglite!, (sql) => {
    const started = performance.now();
    return () => {
      const kind = String(sql).replace(/\s+/g, ' ').slice(0, 100);
      const entry = kinds.get(kind) ?? { count: 0, ms: 0 };
      entry.count++;
      entry.ms += performance.now() - started;
      kinds.set(kind, entry);
    };
  });
  try {
    return await fn();
  } finally {
    restore();
    console.log('statements of the phase (count, total ms; times include waiting for the one connection):');
    for (const [kind, { count, ms }] of [...kinds].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)) console.log(`${String(count).padStart(7)} ${ms.toFixed(0).padStart(8)} ms  ${kind}`);
  }
}

/** Drives a phase; with BENCH_PROFILE naming it, under the V8 profiler of this (the service's) thread. */
async function run(phase: Phase): Promise<PhaseResult> {
  if (process.env.BENCH_STATEMENTS === phase.kind && service.pglite) return statementCensus(() => drive(phase));
  if (process.env.BENCH_PROFILE !== phase.kind) return drive(phase);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await drive(phase);
  } finally {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync('.scratch', { recursive: true });
    const file = `.scratch/exam-day-${phase.kind}-${service.database}.cpuprofile`;
    writeFileSync(file, JSON.stringify(profile));
    console.log(`CPU profile of the ${phase.kind} phase: ${file}`);
    session.disconnect();
  }
}

const meBefore = await run({ kind: 'me', seconds: ME_SECONDS, inFlight: IN_FLIGHT });
load.push(loadavg()[0]!);
const starts = await run({ kind: 'start', examinees: crowd, exam: examId, inFlight: START_CONNECTIONS });
load.push(loadavg()[0]!);
const plays = starts.answers as string[];
// Question by question, as an exam runs; the first half of the examinees answers right.
// Examinees whose start failed (counted above) have nothing to answer or finish.
const started = crowd.flatMap((examinee, i) => (plays[i] ? [{ examinee, play: plays[i]!, right: i < EXAMINEES / 2 }] : []));
const answerCalls = questionIds.flatMap((question) => started.map(({ examinee, play, right }) => ({ examinee, play, question, response: right ? 'yes' : 'no' })));
const answers = await run({ kind: 'answer', calls: answerCalls, inFlight: IN_FLIGHT });
load.push(loadavg()[0]!);
const finishes = await run({ kind: 'finish', calls: started.map(({ examinee, play }) => ({ examinee, play })), inFlight: IN_FLIGHT });
load.push(loadavg()[0]!);
const meAfter = await run({ kind: 'me', seconds: ME_SECONDS, inFlight: IN_FLIGHT });
load.push(loadavg()[0]!);
clearInterval(sampler);

// --- Check what the database holds ----------------------------------------------------------------
const stored = await db.play.groupBy({ by: ['userId'], where: { examId }, _count: { _all: true } });
const duplicates = stored.reduce((sum, row) => sum + row._count._all - 1, 0);
const finished = await db.play.count({ where: { examId, status: 'finished' } });
const answersStored = await db.playAnswer.count({ where: { play: { examId } } });
const acknowledged = answers.answers.filter((a) => a !== undefined).length;
const wrongPoints = (finishes.answers as (number | undefined)[]).filter((points, i) => points !== undefined && points !== (started[i]!.right ? QUESTIONS : 0)).length;

// --- Statements of one examinee's mutations, alone ---------------------------------------------------
const [alone] = await examinees(1, 'alone');
const gql = async (query: string, variables: Record<string, unknown>) => {
  const response = await fetch(`${service.base}/graphql`, { method: 'POST', headers: { authorization: service.authorization, 'service-api-assume': alone!.token, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const body = (await response.json()) as { data?: any; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
};
const counter = { db: { pglite: service.pglite } } as Parameters<typeof countStatements>[0];
await gql('{ me { id } }', {}); // the assume token looked up once, as every examinee's first call does
const startCount = await countStatements(counter, () => gql(`mutation($exam: ID!) { startPlay(input: { exam: $exam }) { id } }`, { exam: examId }));
const play = startCount.result.startPlay.id;
const answerCount = await countStatements(counter, () => gql(`mutation($play: ID!, $q: ID!) { answerQuestion(input: { play: $play, question: $q, response: "yes" }) { index } }`, { play, q: questionIds[0] }));
const finishCount = await countStatements(counter, () => gql(`mutation($play: ID!) { finishPlay(input: { play: $play }) { result { pointsCorrect } } }`, { play }));
await worker.terminate();
await service.close();

// --- Report -----------------------------------------------------------------------------------------
const meRate = (meBefore.calls / meBefore.seconds + meAfter.calls / meAfter.seconds) / 2;
const rate = (r: PhaseResult) => r.calls / r.seconds;
const ms = (n: number) => `${n.toFixed(0)} ms`;
const pct = (n: number) => `${((100 * n) / meRate).toFixed(1)} %`;
const failures = (r: PhaseResult) => Object.entries(r.failures).map(([code, n]) => `${n} ${code}`).join(', ') || '0';
const row = (name: string, r: PhaseResult, goal: string) =>
  `| ${name} | ${r.calls.toLocaleString('en')} | ${r.seconds.toFixed(1)} s | ${rate(r).toFixed(0)}/s | ${pct(rate(r))} (${goal}) | ${ms(percentile(r.latencies, 50))} / ${ms(percentile(r.latencies, 99))} | ${failures(r)} | ${r.retries} |`;

console.log(`\nExam day on ${service.database}: ${EXAMINEES.toLocaleString('en')} examinees × ${QUESTIONS} questions (${cpus().length} cores, Node ${process.version}, seeded in ${seedSeconds.toFixed(1)} s)`);
console.log(`load average at the phases' ends: ${load.map((l) => l.toFixed(2)).join(' / ')}\n`);
console.log('| Phase | Calls | Wall | Rate | Share of user:me | p50 / p99 | Failed | Retried (busy) |');
console.log('|---|---|---|---|---|---|---|---|');
console.log(`| REST user:me before, ${IN_FLIGHT} in flight | ${meBefore.calls.toLocaleString('en')} | ${meBefore.seconds.toFixed(1)} s | ${rate(meBefore).toFixed(0)}/s | | ${ms(percentile(meBefore.latencies, 50))} / ${ms(percentile(meBefore.latencies, 99))} | ${failures(meBefore)} | |`);
const startsAtOnce = START_CONNECTIONS === EXAMINEES ? 'all at once' : `${START_CONNECTIONS.toLocaleString('en')} at once`;
console.log(row(`startPlay, ${EXAMINEES.toLocaleString('en')}, ${startsAtOnce}`, starts, 'goal 10 %'));
console.log(row(`answerQuestion, ${IN_FLIGHT} in flight`, answers, `goal ${service.database === 'postgres' ? 25 : 20} %`));
console.log(row(`finishPlay, ${IN_FLIGHT} in flight`, finishes, 'goal 10 %'));
console.log(`| REST user:me after | ${meAfter.calls.toLocaleString('en')} | ${meAfter.seconds.toFixed(1)} s | ${rate(meAfter).toFixed(0)}/s | | ${ms(percentile(meAfter.latencies, 50))} / ${ms(percentile(meAfter.latencies, 99))} | ${failures(meAfter)} | |`);
console.log(`\nChecked in the database: ${stored.length.toLocaleString('en')} examinees with a play, ${duplicates} duplicate attempts, ${finished.toLocaleString('en')} plays finished, ${answersStored.toLocaleString('en')} answers stored of ${acknowledged.toLocaleString('en')} acknowledged, ${wrongPoints} results with wrong points.`);
console.log(`Peak RSS (service and generator): ${(peakRss / 2 ** 20).toFixed(0)} MB.`);
console.log(`SQL statements of one examinee alone (credentials cached): startPlay ${startCount.count}, answerQuestion ${answerCount.count}, finishPlay ${finishCount.count}.`);
if (duplicates || answersStored !== acknowledged || wrongPoints || stored.length !== EXAMINEES) process.exitCode = 1;
