// Exam day on two instances of the service over one PostgreSQL database, one of them killed with
// SIGKILL while answers are in flight to it: examinees go on on the other. Nothing acknowledged is
// lost, no examinee gets a second play, and the timers of plays started on the dead instance still
// finish them. The embedded database is one process and cannot be shared: PostgreSQL only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datetime } from '../../src/dates.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { killSpawned, post, SERVICE_CREDENTIALS, start, type Service } from '../helpers/service-process.ts';

const EXAMINEES = 40;
const QUESTIONS = 6;
/** Seconds each play may last: the examinees who never finish are finished by their timer. */
const TIME_LIMIT = 30;

let db: TestDatabase;
beforeAll(async () => {
  if (onPostgres) db = await createTestDatabase();
});
afterAll(async () => {
  killSpawned();
  await db?.close();
});

interface Examinee {
  userId: string;
  token: string;
}

/** One GraphQL call of an examinee to an instance: its data, or why it failed (an error code, or the connection). */
async function call(service: Service, who: Examinee, query: string, variables: Record<string, unknown>): Promise<{ data?: any; failed?: string }> {
  try {
    const response = await fetch(`http://127.0.0.1:${service.port}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SERVICE_CREDENTIALS.APP}:${SERVICE_CREDENTIALS.SECRET}`, 'service-api-assume': who.token, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: any; errors?: { extensions?: { code?: string } }[] };
    return body.errors ? { failed: body.errors[0]?.extensions?.code ?? 'UNKNOWN' } : { data: body.data };
  } catch {
    return { failed: 'CONNECTION' };
  }
}

const START = `mutation($exam: ID!) { startPlay(input: { exam: $exam }) { id } }`;
const ANSWER = `mutation($play: ID!, $question: ID!, $response: JSON!) { answerQuestion(input: { play: $play, question: $question, response: $response }) { index } }`;
const FINISH = `mutation($play: ID!) { finishPlay(input: { play: $play }) { result { pointsCorrect } } }`;

describe.skipIf(!onPostgres)('exam day on two instances, one killed', () => {
  it('loses no acknowledged answer, starts no second play and still finishes overdue plays', async () => {
    const env = { DATABASE_URL: db.url!, WORKER_INTERVAL_MS: '200', LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0' };
    const a = await start(process.execPath, ['src/scripts/start.mjs'], env);
    const b = await start(process.execPath, ['src/scripts/start.mjs'], env);

    // An exam of QUESTIONS questions ("yes" is right) with a time limit, and its examinees with assume tokens,
    // made through the contract by the administrator the instances bootstrapped.
    const seed = (endpoint: string, args: Record<string, string>) => post(a.port, endpoint, args);
    const { quiz } = await seed('quiz', { title: 'Two instances' });
    await seed('quiz:settings', { quiz, timelimit: String(TIME_LIMIT) });
    const questions: string[] = [];
    for (let i = 0; i < QUESTIONS; i++) questions.push((await seed('question', { id: `q${i}`, type: 'generic', content: `Q${i}`, answer: 'yes' })).question);
    await seed('quiz:questions', { quiz, questions: questions.join(',') });
    const { exam } = await seed('exam', { title: 'Two instances', quiz, start: datetime(new Date(Date.now() - 3600_000)), end: datetime(new Date(Date.now() + 3600_000)) });
    const examinees: Examinee[] = await Promise.all(
      Array.from({ length: EXAMINEES }, async (_, i) => {
        const { user } = await seed('user', { username: `two${i}`, email: `two${i}@example.com`, first_name: 'Two', last_name: String(i) });
        return { userId: user as string, token: (await seed('user:assume', { user })).token as string };
      }),
    );
    await seed('exam:users', { exam, users: examinees.map((e) => e.userId).join(',') });

    // The storm, spread over both instances; every examinee starts twice at once (a double click).
    const home = (i: number) => (i % 2 === 0 ? a : b);
    const starts = await Promise.all(examinees.flatMap((e, i) => [call(home(i), e, START, { exam }), call(home(i + 1), e, START, { exam })]));
    expect(starts.filter((s) => s.failed)).toEqual([]);
    const plays = examinees.map((_, i) => starts[2 * i]!.data.startPlay.id as string);
    examinees.forEach((_, i) => expect(starts[2 * i + 1]!.data.startPlay.id).toBe(plays[i]));

    /** What the examinees were told was recorded: play -> question -> response. */
    const acknowledged = new Map<string, Map<string, string>>(plays.map((p) => [p, new Map()]));
    const answer = async (service: Service, i: number, q: number) => {
      const response = (i + q) % 3 === 0 ? 'no' : 'yes';
      const r = await call(service, examinees[i]!, ANSWER, { play: plays[i], question: questions[q], response });
      if (!r.failed) acknowledged.get(plays[i]!)!.set(questions[q]!, response);
      return r;
    };
    // Half the questions with everyone on their own instance.
    for (let q = 0; q < QUESTIONS / 2; q++) expect((await Promise.all(examinees.map((_, i) => answer(home(i), i, q)))).filter((r) => r.failed)).toEqual([]);

    // The next question: instance A is killed while its examinees' answers are in flight.
    const inFlight = Promise.all(examinees.map((_, i) => answer(home(i), i, QUESTIONS / 2)));
    await new Promise((resolve) => setTimeout(resolve, 15));
    a.child.kill('SIGKILL');
    const outcome = await inFlight;
    expect(outcome.filter((r) => r.failed && r.failed !== 'CONNECTION')).toEqual([]);
    await a.exited;

    // Everyone goes on on B: a start continues the same play; unanswered questions are sent (again).
    for (const [i, e] of examinees.entries()) expect((await call(b, e, START, { exam })).data?.startPlay.id).toBe(plays[i]);
    for (let q = QUESTIONS / 2; q < QUESTIONS; q++) {
      const missing = examinees.flatMap((_, i) => (acknowledged.get(plays[i]!)!.has(questions[q]!) ? [] : [i]));
      expect((await Promise.all(missing.map((i) => answer(b, i, q)))).filter((r) => r.failed)).toEqual([]);
    }
    // Three quarters finish; the others leave their plays to the timer, which A had queued for half of them.
    const finishers = examinees.slice(0, (EXAMINEES * 3) / 4);
    for (const [i, e] of finishers.entries()) expect((await call(b, e, FINISH, { play: plays[i] })).failed).toBeUndefined();

    await expect.poll(() => db.prisma.play.count({ where: { examId: exam, status: 'open' } }), { timeout: (TIME_LIMIT + 20) * 1000, interval: 500 }).toBe(0);

    // One play per examinee, each finished with every acknowledged answer and the points they earn.
    const stored = await db.prisma.play.findMany({ where: { examId: exam }, include: { answers: true } });
    expect(stored).toHaveLength(EXAMINEES);
    expect(new Set(stored.map((p) => p.userId)).size).toBe(EXAMINEES);
    for (const play of stored) {
      const told = acknowledged.get(play.id)!;
      expect(Object.fromEntries(play.answers.map((x) => [x.questionId, x.response]))).toEqual(Object.fromEntries(told));
      expect(play.status).toBe('finished');
      expect(play.pointsCorrect).toBe([...told.values()].filter((r) => r === 'yes').length);
    }
    expect(await db.prisma.job.count({ where: { task: 'plays.finish-overdue' } })).toBe(0);
  }, 150_000);
});
