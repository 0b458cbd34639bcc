// Journeys at scale: 10,000 users moved through a 50-node journey by the timer task's batches.
//
//   npx tsx bench/journeys.ts                                                  embedded database (PGlite)
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/journeys.ts
//
// The journey: start, then 12 segments of wait (1 minute) -> condition (user.gender) -> flag -> split
// (two branches, both to the next segment), then an end: 50 nodes. The users stand waiting on the
// first wait, all due at once (the common case the timers batch: same node, same due time). Each tick
// advances the clock past the next wait and runs `runDueUsers`, which claims users in batches of
// TIMER_BATCH with FOR UPDATE SKIP LOCKED and writes each batch with a constant number of statements.
// Reported: time per tick, users per second, statements per tick, and resident memory.
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { newId } from '../src/ids.ts';
import { defaultJourneySettings, type JourneyNode } from '../src/services/journeys/format.ts';
import { runDueUsers, TIMER_BATCH } from '../src/services/journeys/runtime.ts';

const USERS = Number(process.env.USERS ?? 10_000);
const SEGMENTS = 12;

async function database(): Promise<{ db: Database; drop: () => Promise<void>; kind: string; statements: () => number }> {
  let count = 0;
  const base = process.env.DATABASE_URL;
  if (!base) {
    const pglite = new PGlite();
    await migrate({ kind: 'pglite', pglite });
    const db = await openDatabase({ kind: 'pglite-instance', pglite });
    const engine = pglite as any;
    for (const name of ['query', 'exec'] as const) {
      const original = engine[name].bind(pglite);
      engine[name] = (...a: unknown[]) => { count++; return original(...a); };
    }
    const transaction = engine.transaction.bind(pglite);
    engine.transaction = (fn: (tx: any) => Promise<unknown>) => transaction((tx: any) => {
      for (const name of ['query', 'exec'] as const) {
        const original = tx[name].bind(tx);
        tx[name] = (...a: unknown[]) => { count++; return original(...a); };
      }
      return fn(tx);
    });
    return { db, kind: 'PGlite', drop: async () => { await db.close(); await pglite.close(); }, statements: () => count };
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  await migrate({ kind: 'postgres', url: url.toString() });
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...a: unknown[]) { count++; return (query as (...x: unknown[]) => unknown).apply(this, a); } as typeof query;
  const db = await openDatabase({ kind: 'postgres', url: url.toString() });
  return {
    db, kind: 'PostgreSQL', statements: () => count,
    drop: async () => { await db.close(); pg.Client.prototype.query = query; await admin.query(`DROP SCHEMA "${schema}" CASCADE`); await admin.end(); },
  };
}

function journeyNodes(): JourneyNode[] {
  const nodes: JourneyNode[] = [{ node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'w1' } }];
  for (let i = 1; i <= SEGMENTS; i++) {
    const next = i === SEGMENTS ? 'end' : `w${i + 1}`;
    nodes.push(
      { node: `w${i}`, type: 'wait', config: { mode: 'duration', minutes: 1 }, next: { next: `c${i}` } },
      { node: `c${i}`, type: 'condition', config: { branches: [{ key: 'f', match: 'all', rules: [{ field: 'user.gender', operator: 'eq', value: 'female' }] }] }, next: { f: `f${i}`, else: `f${i}` } },
      { node: `f${i}`, type: 'flag', config: { name: 'segment', value: String(i) }, next: { next: `s${i}` } },
      { node: `s${i}`, type: 'split', config: { branches: [{ key: 'a', weight: 1 }, { key: 'b', weight: 1 }] }, next: { a: next, b: next } },
    );
  }
  nodes.push({ node: 'end', type: 'end', config: { outcome: 'completed' }, next: {} });
  return nodes;
}

async function main() {
  const { db, drop, kind, statements } = await database();
  const prisma = db.prisma;
  try {
    const owner = newId('User');
    await prisma.user.create({ data: { id: owner, username: 'owner', email: 'owner@example.com', passwordHash: 'x', firstName: 'O', lastName: 'O', fullName: 'O O', displayName: 'O O' } });
    const quiz = newId('QuizSet');
    await prisma.quizSet.create({ data: { id: quiz, title: 'Q', language: 'en', ownerId: owner } });
    const exam = newId('Exam');
    const t0 = new Date('2030-01-07T10:00:00Z');
    await prisma.exam.create({ data: { id: exam, title: 'E', language: 'en', quizId: quiz, ownerId: owner, start: new Date('2030-01-01T00:00:00Z'), end: new Date('2030-12-31T00:00:00Z') } });
    const nodes = journeyNodes();
    const journey = newId('Journey');
    const settings = { ...defaultJourneySettings, max_visits: 5 };
    await prisma.journey.create({ data: { id: journey, examId: exam, settings, nodes: nodes as object[], version: 1, published: { schema: 1, settings, nodes } as object, publishedAt: t0 } });

    const seeded = performance.now();
    const due = new Date(t0.getTime() + 60_000);
    for (let from = 0; from < USERS; from += 1000) {
      const ids = Array.from({ length: Math.min(1000, USERS - from) }, (_, i) => ({ id: newId('User'), n: from + i }));
      await prisma.user.createMany({ data: ids.map(({ id, n }) => ({ id, username: `u${n}`, email: `u${n}@example.com`, passwordHash: 'x', firstName: 'U', lastName: String(n), fullName: `U ${n}`, displayName: `U ${n}`, gender: n % 2 ? 'female' : 'male' })) });
      await prisma.journeyUser.createMany({ data: ids.map(({ id }) => ({ journeyId: journey, userId: id, status: 'waiting', node: 'w1', waitUntil: due, dueAt: due, timeStart: t0 })) });
      await prisma.journeyVisit.createMany({
        data: ids.flatMap(({ id }) => [
          { id: newId('JourneyVisit'), journeyId: journey, userId: id, run: 1, visit: 1, node: 'start', type: 'start', status: 'completed', output: 'done', timeStart: t0, timeEnd: t0 },
          { id: newId('JourneyVisit'), journeyId: journey, userId: id, run: 1, visit: 2, node: 'w1', type: 'wait', status: 'waiting', timeStart: t0 },
        ]),
      });
    }
    console.log(`${kind}: ${USERS} users seeded on the first wait of a ${nodes.length}-node journey in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

    let now = t0.getTime();
    const started = performance.now();
    const ticks: Array<{ ms: number; moved: number; statements: number }> = [];
    for (let tick = 1; tick <= SEGMENTS; tick++) {
      now += 61_000;
      const before = statements();
      const begin = performance.now();
      const moved = await runDueUsers({ db: prisma }, journey, new Date(now));
      ticks.push({ ms: performance.now() - begin, moved, statements: statements() - before });
    }
    const total = performance.now() - started;
    const completed = await prisma.journeyUser.count({ where: { journeyId: journey, status: 'completed' } });
    const visits = await prisma.journeyVisit.count({ where: { journeyId: journey } });
    for (const [i, t] of ticks.entries()) console.log(`tick ${String(i + 1).padStart(2)}: ${t.moved} users in ${(t.ms / 1000).toFixed(2)} s (${Math.round(t.moved / (t.ms / 1000))} users/s), ${t.statements} statements (batches of ${TIMER_BATCH})`);
    console.log(`total: ${USERS} users through ${SEGMENTS} waits and ${SEGMENTS * 3} instant nodes in ${(total / 1000).toFixed(1)} s; completed ${completed}; ${visits} visits; rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
  } finally {
    await drop();
  }
}

await main();
