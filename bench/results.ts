/**
 * Results at scale: 100,000 results over 1,000 exams (one exam with 1,000 examinees, the others
 * with about 100 each), then through HTTP on a loopback port:
 * - the exam results dashboard query (GraphQL: the exam, its 1,000 results in pages of 100, each
 *   user, grade and points), p50/p99 over sequential walks, and per page;
 * - GET exam:results:user, p50/p99 over sequential requests for different users;
 * - the player: startPlay, 10 answers and finishPlay by 10 examinees at once, plays per second.
 * The peak memory of a 10,000-result export is measured by bench/export.ts.
 *
 *   npx tsx bench/results.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/results.ts
 *   BENCH_RESULTS=20000 BENCH_SECONDS=5 npx tsx bench/results.ts     (a smaller or shorter run)
 */
import { cpus, loadavg } from 'node:os';
import { newId } from '../src/ids.ts';
import { createAccount, createApiIntegration } from '../src/services/bootstrap/bootstrap.service.ts';
import { percentile, startBenchService } from './service.ts';

const RESULTS = Number(process.env.BENCH_RESULTS ?? 100_000);
const EXAMS = Number(process.env.BENCH_EXAMS ?? 1_000);
const BIG_EXAM = 1_000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PLAYERS = 10;
const QUESTIONS = 10;

const service = await startBenchService();
const db = service.platform.db;
const ownerId = (await db.integration.findFirstOrThrow({ where: { appId: service.admin.app } })).ownerId;
const HOUR = 3600_000;

async function inBatches<T>(rows: T[], size: number, write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}

// --- Seed ------------------------------------------------------------------------------------
const seedStart = performance.now();
const quizId = newId('QuizSet');
await db.quizSet.create({ data: { id: quizId, title: 'Bench quiz', language: 'en', ownerId, grading: 'gp_passfail' } });
const questionIds = Array.from({ length: QUESTIONS }, () => newId('Question'));
await db.question.createMany({
  data: questionIds.map((id, i) => ({ id, externalId: `q${i}`, scope: `folder:${ownerId}:/API`, ownerId, type: 'generic', content: `Question ${i}`, answers: ['yes'] })),
});
await db.quizItem.createMany({ data: questionIds.map((questionId, position) => ({ quizId, questionId, position })) });

const users = Array.from({ length: BIG_EXAM }, (_, i) => ({
  id: newId('User'),
  username: `bench${i}`,
  email: `bench${i}@example.com`,
  passwordHash: '-',
  firstName: 'Bench',
  lastName: `User ${i}`,
  fullName: `Bench User ${i}`,
  displayName: `Bench User ${i}`,
  createdById: ownerId,
}));
await inBatches(users, 1000, (batch) => db.user.createMany({ data: batch }));

const now = Date.now();
const exams = Array.from({ length: EXAMS }, (_, i) => ({
  id: newId('Exam'),
  title: `Exam ${i}`,
  language: 'en',
  quizId,
  ownerId,
  start: new Date(now - 24 * HOUR),
  end: new Date(now + 24 * HOUR),
}));
await inBatches(exams, 1000, (batch) => db.exam.createMany({ data: batch }));
const bigExam = exams[0]!.id;

// The big exam: every user once; the rest of the results spread over the other exams.
const perExam = Math.max(1, Math.floor((RESULTS - BIG_EXAM) / Math.max(1, EXAMS - 1)));
const examUsers: { examId: string; userId: string }[] = [];
const plays: Record<string, unknown>[] = [];
for (const [e, exam] of exams.entries()) {
  const count = e === 0 ? BIG_EXAM : Math.min(perExam, BIG_EXAM);
  for (let u = 0; u < count; u++) {
    const user = users[(e * 7 + u) % BIG_EXAM]!;
    const points = (u * 37) % (QUESTIONS + 1);
    examUsers.push({ examId: exam.id, userId: user.id });
    plays.push({
      id: newId('Play'),
      examId: exam.id,
      quizId,
      userId: user.id,
      status: 'finished',
      timeStart: new Date(now - 2 * HOUR),
      timeEnd: new Date(now - HOUR),
      questionIds,
      questionsTotal: QUESTIONS,
      questionsCorrect: points,
      pointsTotal: QUESTIONS,
      pointsCorrect: points,
      evaluated: true,
      successful: points >= QUESTIONS / 2,
      grade: points >= QUESTIONS / 2 ? 'pass' : 'fail',
    });
  }
}
await inBatches(examUsers, 5000, (batch) => db.examUser.createMany({ data: batch }));
await inBatches(plays, 5000, (batch) => db.play.createMany({ data: batch as never }));
const seedSeconds = (performance.now() - seedStart) / 1000;

// --- Measure -----------------------------------------------------------------------------------
async function call(path: string, init: RequestInit = {}, authorization = service.authorization): Promise<unknown> {
  const response = await fetch(`${service.base}${path}`, { ...init, headers: { authorization, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const body = (await response.json()) as { errors?: unknown[] };
  if (response.status !== 200 || body.errors) throw new Error(`${path}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}
const gql = (query: string, variables: Record<string, unknown>, authorization?: string) =>
  call('/graphql', { method: 'POST', body: JSON.stringify({ query, variables }) }, authorization) as Promise<{ data: any }>;

async function latencies(runs: number, once: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 3; i++) await once(i); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await once(i);
    times.push(performance.now() - start);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

// Connections serve at most 100 per page: a dashboard pages through the 1,000 results.
const DASHBOARD = `query($id: ID!, $after: String) { node(id: $id) { ... on Exam { title results(first: 100, after: $after) { pageInfo { hasNextPage endCursor } edges { node { id attempt timeEnd user { id name } result { grade pointsCorrect pointsTotal valid successful } } } } } } }`;
const pageTimes: number[] = [];
const dashboard = await latencies(20, async () => {
  let after: string | null = null;
  let seen = 0;
  do {
    const start = performance.now();
    const { data } = await gql(DASHBOARD, { id: bigExam, after });
    pageTimes.push(performance.now() - start);
    seen += data.node.results.edges.length;
    after = data.node.results.pageInfo.hasNextPage ? data.node.results.pageInfo.endCursor : null;
  } while (after);
  if (seen !== BIG_EXAM) throw new Error(`dashboard: ${seen} results`);
});
const perUser = await latencies(200, (i) => call(`/api/v1/exam:results:user?exam=${bigExam}&user=${users[i % BIG_EXAM]!.id}`));

// The player: PLAYERS examinees of a new exam, each with its own application, playing in a loop.
const playExam = newId('Exam');
await db.exam.create({ data: { id: playExam, title: 'Player', language: 'en', quizId, ownerId, start: new Date(now - HOUR), end: new Date(now + 24 * HOUR) } });
const players: string[] = [];
for (let i = 0; i < PLAYERS; i++) {
  const user = await createAccount(service.platform, { username: `player${i}`, email: `player${i}@example.com`, firstName: 'Player', lastName: String(i) });
  await db.examUser.create({ data: { examId: playExam, userId: user.id } });
  const { app, secret } = await createApiIntegration(service.platform, user, `player ${i}`);
  players.push(`Bearer ${app}:${secret}`);
}
const START = `mutation($exam: ID!) { startPlay(input: { exam: $exam }) { id questions { question { id } } } }`;
const ANSWER = `mutation($play: ID!, $question: ID!) { answerQuestion(input: { play: $play, question: $question, response: "yes" }) { points } }`;
const FINISH = `mutation($play: ID!) { finishPlay(input: { play: $play }) { result { pointsCorrect } } }`;
let finished = 0;
const until = performance.now() + SECONDS * 1000;
await Promise.all(
  players.map(async (authorization) => {
    while (performance.now() < until) {
      const { data } = await gql(START, { exam: playExam }, authorization);
      for (const q of data.startPlay.questions) await gql(ANSWER, { play: data.startPlay.id, question: q.question.id }, authorization);
      const done = await gql(FINISH, { play: data.startPlay.id }, authorization);
      if (done.data.finishPlay.result.pointsCorrect !== QUESTIONS) throw new Error('a play scored wrong');
      finished++;
    }
  }),
);
const playsPerSecond = finished / SECONDS;

const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(`\nResults benchmark on ${service.database} (${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}): ${plays.length.toLocaleString('en')} results over ${EXAMS.toLocaleString('en')} exams, seeded in ${seedSeconds.toFixed(1)} s\n`);
console.log('| Measure | Figure |');
console.log('|---|---|');
console.log(`| Results dashboard, one exam of ${BIG_EXAM.toLocaleString('en')} results (GraphQL, 10 pages of 100), p50 / p99 | ${ms(dashboard.p50)} / ${ms(dashboard.p99)} |`);
console.log(`| One page of 100 of those results, p50 / p99 | ${ms(percentile(pageTimes, 50))} / ${ms(percentile(pageTimes, 99))} |`);
console.log(`| GET exam:results:user, p50 / p99 | ${ms(perUser.p50)} / ${ms(perUser.p99)} |`);
console.log(`| startPlay + ${QUESTIONS} answers + finishPlay, ${PLAYERS} examinees at once | ${playsPerSecond.toFixed(1)} plays/s (${((playsPerSecond * (QUESTIONS + 2))).toFixed(0)} mutations/s) |`);
await service.close();
