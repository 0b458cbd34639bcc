/**
 * Item analysis at scale: Exam.statistics (test and question statistics) through GraphQL over
 * HTTP on a loopback port, for an exam of 1,000 and one of 10,000 results of 20 questions each
 * (16 generic questions, 4 of them worth 2 points with partial credit, and 4 single-answer choice
 * questions, so the distractor counts run too; about one answer in 20 left unanswered).
 *
 *   npx tsx bench/statistics.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/statistics.ts
 *   SIZES=1000 RUNS=10 npx tsx bench/statistics.ts          (a smaller run)
 *
 * Seeded with bulk createMany. Each size: 3 warm-up queries, then RUNS sequential queries
 * (default 30 for 1,000 results, 10 for 10,000), p50 and p99 (nearest rank: with 10 runs p99 is
 * the slowest). Resident memory is sampled every 10 ms while the queries run: the process holds
 * the HTTP server, the service and, on PGlite, the database itself.
 */
import './production.ts';
import { cpus, loadavg } from 'node:os';
import { newId } from '../src/ids.ts';
import { percentile, startBenchService } from './service.ts';

const SIZES = (process.env.SIZES ?? '1000,10000').split(',').map(Number);
const QUESTIONS = 20;
const CHOICES = ['right', 'near', 'far', 'wild'];

const service = await startBenchService();
const db = service.platform.db;
const ownerId = (await db.integration.findFirstOrThrow({ where: { appId: service.admin.app } })).ownerId;

async function inBatches<T>(rows: T[], size: number, write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}

/** A small deterministic generator (mulberry32), so every run seeds the same answers. */
function generator(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let x = Math.imul(seed ^ (seed >>> 15), seed | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

const MB = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;

/** An exam of `size` results: every examinee a user, one finished attempt each. */
async function seedExam(size: number): Promise<string> {
  const quizId = newId('QuizSet');
  await db.quizSet.create({ data: { id: quizId, title: `Statistics ${size}`, language: 'en', ownerId } });
  const questions = Array.from({ length: QUESTIONS }, (_, j) => ({
    id: newId('Question'),
    externalId: `s${size}q${j}`,
    scope: `quiz:${quizId}`,
    ownerId,
    type: j % 5 === 4 ? 'choice' : 'generic',
    content: `Question ${j}`,
    answers: j % 5 === 4 ? CHOICES.slice(0, 1) : ['yes'],
    options: j % 5 === 4 ? CHOICES.slice(1) : [],
    data: j % 5 === 1 ? { points: 2 } : {},
  }));
  await db.question.createMany({ data: questions });
  await db.quizItem.createMany({ data: questions.map((q, position) => ({ quizId, questionId: q.id, position })) });
  const examId = newId('Exam');
  const now = Date.now();
  await db.exam.create({ data: { id: examId, title: `Statistics ${size}`, language: 'en', quizId, ownerId, start: new Date(now - 86_400_000), end: new Date(now + 86_400_000) } });

  const random = generator(size);
  const difficulty = questions.map(() => random() * 2 - 1);
  const users = Array.from({ length: size }, (_, i) => ({
    id: newId('User'), username: `stat${size}_${i}`, email: `stat${size}_${i}@example.com`, passwordHash: '-',
    firstName: 'Stat', lastName: String(i), fullName: `Stat ${i}`, displayName: `Stat ${i}`, createdById: ownerId,
  }));
  await inBatches(users, 2000, (batch) => db.user.createMany({ data: batch }));
  const plays: Record<string, unknown>[] = [];
  const answers: Record<string, unknown>[] = [];
  for (const user of users) {
    const playId = newId('Play');
    const ability = random() * 3 - 1.5;
    plays.push({ id: playId, examId, quizId, userId: user.id, status: 'finished', evaluated: true, questionIds: questions.map((q) => q.id), timeEnd: new Date() });
    questions.forEach((q, j) => {
      if (random() < 0.05) return; // unanswered: 0 of its maximum
      const right = random() < 1 / (1 + Math.exp(difficulty[j]! - ability));
      const maximum = j % 5 === 1 ? 2 : 1;
      const points = right ? maximum : maximum === 2 && random() < 0.5 ? 1 : 0;
      const response = q.type === 'choice' ? (right ? 'right' : CHOICES[1 + Math.floor(random() * 3)]!) : right ? 'yes' : 'no';
      answers.push({ playId, questionId: q.id, index: j + 1, response, points, pointsMaximum: maximum, evaluated: true });
    });
  }
  await inBatches(plays, 2000, (batch) => db.play.createMany({ data: batch as never }));
  await inBatches(answers, 5000, (batch) => db.playAnswer.createMany({ data: batch as never }));
  return examId;
}

const STATISTICS = `query($exam: ID!) { node(id: $exam) { ... on Exam { statistics {
  results mean median standardDeviation skewness kurtosis cronbachAlpha errorRatio standardError
  questions { question { id } results answered facilityIndex standardDeviation discriminationIndex randomGuessScore options { text correct chosen } flags }
} } } }`;

async function statistics(exam: string, retry = true): Promise<any> {
  // A kept-alive connection the server closes while idle (during the seeding) resets the next request on it: once more on a new one.
  const response = await fetch(`${service.base}/graphql`, {
    method: 'POST',
    headers: { authorization: service.authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ query: STATISTICS, variables: { exam } }),
  }).catch((error: Error & { cause?: { code?: string } }) => {
    if (retry && error.cause?.code === 'ECONNRESET') return null;
    throw error;
  });
  if (!response) return statistics(exam, false);
  const body = (await response.json()) as { data?: any; errors?: unknown[] };
  if (response.status !== 200 || body.errors) throw new Error(`${response.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body.data.node.statistics;
}

const rows: string[] = [];
for (const size of SIZES) {
  const seedStart = performance.now();
  const exam = await seedExam(size);
  const seeded = (performance.now() - seedStart) / 1000;
  const runs = Number(process.env.RUNS ?? (size >= 10_000 ? 10 : 30));
  for (let i = 0; i < 3; i++) await statistics(exam);
  const check = await statistics(exam);
  if (check.results !== size || check.questions.length !== QUESTIONS) throw new Error(`statistics of ${check.results} results and ${check.questions.length} questions`);
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await statistics(exam);
    times.push(performance.now() - start);
  }
  clearInterval(sampler);
  const load = loadavg().map((l) => l.toFixed(2)).join(' / ');
  rows.push(
    `| ${size.toLocaleString('en')} | ${runs} | ${percentile(times, 50).toFixed(1)} ms | ${percentile(times, 99).toFixed(1)} ms | ${MB(peak)} (+${MB(peak - before)}) | ${load} | ${seeded.toFixed(1)} s | ${check.mean} / ${check.cronbachAlpha} |`,
  );
  console.log(rows.at(-1));
}

console.log(`\nExam.statistics on ${service.database}, ${cpus().length} cores, Node ${process.versions.node}, ${QUESTIONS} questions per result\n`);
console.log('| results | runs | p50 | p99 | peak RSS while querying (over the start of the runs) | load average 1 / 5 / 15 min | seeding | mean / alpha (check) |');
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
await service.close();
