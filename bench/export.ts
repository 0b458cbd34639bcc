/**
 * Memory of a results export (POST `exam:results:export`, then the download of its link), on a
 * fresh database seeded with an exam of 1,000 and one of 10,000 results:
 *
 *   npx tsx --expose-gc bench/export.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx --expose-gc bench/export.ts
 *
 * The download goes through `node:http` (`app.node`, as in production) on a free port; the client
 * in the same process reads the body and drops it. Memory is sampled every 5 ms from just before the
 * POST until the last byte; each figure is the peak minus the value after a GC before the call, the
 * worst of RUNS runs (RUNS, default 3). Without forced collections the heap peak counts garbage not
 * yet collected; one more run collects before every sample, and its heap peak is what the export keeps
 * referenced. SIZES (default 1000,10000) and FORMAT (default xlsx) change the case. Every export has the stats, answers and points columns on (10 questions, so
 * each result brings its 10 answers) and a custom field. The last download of each size is read
 * back with ExcelJS to check its rows (after the measured runs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { pino } from 'pino';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { loadSecretKey } from '../src/auth/secret-key.ts';
import { createPlatform } from '../src/platform.ts';
import { bootstrap } from '../src/services/bootstrap/bootstrap.service.ts';
import { createApp } from '../src/app.ts';
import { freshPostgresSchema } from './service.ts';
import { newId } from '../src/ids.ts';

const RUNS = Number(process.env.RUNS ?? 3);
const SIZES = (process.env.SIZES ?? '1000,10000').split(',').map(Number);
const FORMAT = process.env.FORMAT ?? 'xlsx';

const QUESTIONS = 10;

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-export-'));
const pgSchema = process.env.DATABASE_URL ? await freshPostgresSchema(process.env.DATABASE_URL) : undefined;
const dropSchema = async () => pgSchema?.drop();
const databaseUrl = pgSchema?.url;

const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0', BASE_URL: 'http://127.0.0.1',
  // Seeding keeps the client's pooled connection idle for seconds: the server must not close it meanwhile.
  HTTP_KEEP_ALIVE_TIMEOUT_MS: '120000', HTTP_CONNECTION_TIMEOUT_MS: '120000' });
const database = await openDatabase(config.database);
await migrate(database.pglite ? { kind: 'pglite', pglite: database.pglite } : { kind: 'postgres', url: databaseUrl! });
const platform = createPlatform({ config, db: database.prisma, log: pino({ level: 'silent' }), secretKey: loadSecretKey(config).key });
const { generated } = await bootstrap(platform);
const authorization = `Bearer ${generated!.app}:${generated!.secret}`;
const app = createApp(platform, { ready: true });
const base = await app.listen(0, '127.0.0.1');
const db = platform.db;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

async function call(endpoint: string, args: Record<string, string>) {
  const response = await fetch(`${base}/api/${endpoint}`, { method: 'POST', headers: { authorization }, body: new URLSearchParams(args) });
  const body = (await response.json()) as Record<string, string>;
  if (response.status !== 200) throw new Error(`${endpoint}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** An exam with `size` examinees, each with one finished result answering every question. */
async function seed(size: number): Promise<string> {
  const { quiz } = await call('quiz', { title: `Quiz ${size}` });
  const { exam } = await call('exam', { title: `Exam ${size}`, quiz: quiz!, start: '2030-01-01 08:00:00', end: '2030-01-31 20:00:00' });
  await call('exam:settings', { exam: exam!, export_stats: 'true', export_answers: 'true', export_points: 'true' });
  await call('exam:fields', { exam: exam!, fields: JSON.stringify([{ label: 'Student code' }]) });
  const field = await db.examField.findFirstOrThrow({ where: { examId: exam! } });
  const owner = (await db.user.findFirstOrThrow({ where: { admin: true } })).id;
  const questions: string[] = [];
  for (let i = 0; i < QUESTIONS; i++) {
    const q = await db.question.create({ data: { id: newId('Question'), externalId: `Q${size}-${i}`, scope: `folder:${owner}:/API`, ownerId: owner, type: 'generic', content: `Question ${i}`, answers: ['a'] } });
    await db.quizItem.create({ data: { quizId: quiz!, questionId: q.id, position: i } });
    questions.push(q.id);
  }
  const CHUNK = 1000;
  for (let from = 0; from < size; from += CHUNK) {
    const users = Array.from({ length: Math.min(CHUNK, size - from) }, (_, k) => {
      const n = from + k;
      return { id: newId('User'), username: `u${size}-${n}`, email: `u${size}-${n}@example.com`, passwordHash: '-', firstName: `First${n}`, lastName: `Last${n}`, fullName: `First${n} Last${n}`, displayName: `First${n}` };
    });
    const plays = users.map((u) => ({
      id: newId('Play'), examId: exam!, quizId: quiz!, userId: u.id, status: 'finished', evaluated: true, questionIds: questions,
      timeStart: new Date('2030-01-02T10:00:00Z'), timeEnd: new Date('2030-01-02T10:20:00Z'),
      questionsTotal: QUESTIONS, questionsCorrect: 7, pointsTotal: QUESTIONS, pointsCorrect: 7,
    }));
    await db.user.createMany({ data: users });
    await db.examUser.createMany({ data: users.map((u) => ({ examId: exam!, userId: u.id })) });
    await db.examFieldValue.createMany({ data: users.map((u, k) => ({ fieldId: field.id, userId: u.id, value: `S-${from + k}` })) });
    await db.play.createMany({ data: plays });
    await db.playAnswer.createMany({
      data: plays.flatMap((p) => questions.map((q, i) => ({ playId: p.id, questionId: q, index: i + 1, response: `answer ${i}`, points: i < 7 ? 1 : 0, pointsMaximum: 1, evaluated: true }))),
    });
  }
  return exam!;
}

interface Measure {
  rssMb: number;
  heapMb: number;
  ms: number;
  bytes: number;
}

/** One export: POST, then the download read to its end; the body is kept only when asked. */
async function exportOnce(exam: string, options: { keep?: boolean; live?: boolean } = {}): Promise<Measure & { body?: Buffer }> {
  const { keep = false, live = false } = options;
  gc();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sample = setInterval(() => {
    if (live) gc();
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 5);
  const started = performance.now();
  const { url } = await call('exam:results:export', { exam, format: FORMAT });
  const response = await fetch(url!.replace('http://127.0.0.1', base));
  if (response.status !== 200) throw new Error(`download: ${response.status}`);
  let bytes = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    if (keep) chunks.push(Buffer.from(chunk));
  }
  const ms = performance.now() - started;
  clearInterval(sample);
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
  const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
  return { rssMb: mb(peakRss - before.rss), heapMb: mb(peakHeap - before.heapUsed), ms: Math.round(ms), bytes, ...(keep && { body: Buffer.concat(chunks) }) };
}

console.log(`database ${config.database.kind}; ${RUNS} runs per size; XLSX with stats, answers and points of ${QUESTIONS} questions, one custom field\n`);
try {
  const exams = new Map<number, string>();
  for (const size of SIZES) {
    const started = performance.now();
    exams.set(size, await seed(size));
    console.log(`seeded ${size} results in ${Math.round(performance.now() - started)} ms`);
  }
  // One export to warm up code paths and the database, not counted.
  await exportOnce(exams.get(SIZES[0]!)!);
  console.log('\n| results | peak RSS delta (MB) | peak heap delta (MB) | peak live heap delta (MB) | time (ms) | file (KB) |\n|---|---|---|---|---|---|');
  for (const size of SIZES) {
    const runs: Measure[] = [];
    for (let r = 0; r < RUNS; r++) runs.push(await exportOnce(exams.get(size)!));
    // The live figure: a GC before every sample during the export, so the heap holds only what is still referenced.
    const live = await exportOnce(exams.get(size)!, { live: true });
    const worst = (k: keyof Measure) => Math.max(...runs.map((x) => x[k]));
    console.log(`| ${size} | ${worst('rssMb')} | ${worst('heapMb')} | ${live.heapMb} | ${Math.round(runs.reduce((a, x) => a + x.ms, 0) / RUNS)} | ${Math.round(runs[0]!.bytes / 1024)} |`);
  }
  for (const size of SIZES) {
    const { body } = await exportOnce(exams.get(size)!, { keep: true });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
    const rows = workbook.worksheets[0]!.rowCount;
    if (rows !== size + 1) throw new Error(`the ${size} export has ${rows} rows`);
  }
  console.log('\nchecked: each file read back with ExcelJS has a header and one row per result');
} finally {
  await app.close();
  await database.close();
  await dropSchema();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
