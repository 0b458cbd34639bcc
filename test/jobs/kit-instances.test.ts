import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { z } from 'zod';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { enqueue, LEASE_EXPIRED } from '../../src/jobs/queue.ts';
import { runDue, startWorker } from '../../src/jobs/run.ts';
import { defineTask, type JobEnv } from '../../src/jobs/task.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';

/**
 * Several instances over one PostgreSQL queue, each with its own connection pool, as separate
 * service processes would be. PGlite is one process's database, so these run on PostgreSQL only.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LEASE_MS = 1500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!onPostgres)('several instances on one queue (PostgreSQL)', () => {
  let database: TestDatabase;
  const others: Database[] = [];
  const children = new Set<ChildProcess>();

  beforeAll(async () => {
    database = await createTestDatabase();
    // A table of this file's own, where the test tasks note what ran: it is outside the Prisma schema, so it is written in SQL.
    await database.prisma.$executeRawUnsafe('CREATE TABLE "KitLog" ("job" TEXT NOT NULL, "note" TEXT NOT NULL, "at" TIMESTAMPTZ(3) NOT NULL DEFAULT now())');
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    for (const other of others) await other.close();
    await database?.close();
  });

  const instance = async (): Promise<JobEnv> => {
    const opened = await openDatabase({ kind: 'postgres', url: database.url! });
    others.push(opened);
    return { db: opened.prisma, log: pino({ level: 'silent' }) };
  };

  it('two workers share 500 jobs and each job is handled exactly once', { timeout: 120_000 }, async () => {
    const handled: { job: string; n: number; worker: string }[] = [];
    const count = defineTask('kit.count', z.object({ n: z.number().int() }), async (env: JobEnv & { worker: string }, { n }, job) => {
      handled.push({ job: job.id, n, worker: env.worker });
      // The file's own KitLog table, in SQL.
      await env.db.$executeRaw`INSERT INTO "KitLog" ("job", "note") VALUES (${job.id}, ${env.worker})`;
    });
    await database.prisma.$transaction(async (tx) => {
      for (let n = 0; n < 500; n++) await enqueue(tx, count, { n });
    });
    const [a, b] = [{ ...(await instance()), worker: 'a' }, { ...(await instance()), worker: 'b' }];
    const workers = [startWorker(a, [count], { intervalMs: 20, concurrency: 4 }), startWorker(b, [count], { intervalMs: 20, concurrency: 4 })];
    try {
      const deadline = Date.now() + 90_000;
      while ((await database.prisma.job.count({ where: { task: 'kit.count' } })) > 0) {
        expect(Date.now()).toBeLessThan(deadline);
        await sleep(100);
      }
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    expect(handled).toHaveLength(500);
    expect(new Set(handled.map((h) => h.job)).size).toBe(500);
    expect(handled.map((h) => h.n).sort((x, y) => x - y)).toEqual([...Array(500).keys()]);
    // Both instances took part.
    expect(handled.filter((h) => h.worker === 'a').length).toBeGreaterThan(0);
    expect(handled.filter((h) => h.worker === 'b').length).toBeGreaterThan(0);
    const rows = await database.prisma.$queryRaw<{ total: bigint; jobs: bigint }[]>`SELECT count(*) AS total, count(DISTINCT "job") AS jobs FROM "KitLog"`;
    expect(rows).toEqual([{ total: 500n, jobs: 500n }]);
  });

  it('the job of a killed worker is completed by another once its lease has run out, not before', { timeout: 60_000 }, async () => {
    const done: { attempt: number; lastError: string | null | undefined }[] = [];
    const takeover = defineTask(
      'kit.takeover',
      z.object({}),
      async (env: JobEnv, _payload, job) => {
        // The row tells why the job was taken over.
        done.push({ attempt: job.attempt, lastError: (await env.db.job.findUnique({ where: { id: job.id } }))?.lastError });
        // The test's own KitLog table, in SQL.
        await env.db.$executeRaw`INSERT INTO "KitLog" ("job", "note") VALUES (${job.id}, ${`completed attempt ${job.attempt}`})`;
      },
      { leaseMs: LEASE_MS },
    );
    const id = await database.prisma.$transaction((tx) => enqueue(tx, takeover, {}));
    let stderr = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/jobs/hanging-worker.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: database.url, LEASE_MS: String(LEASE_MS) },
    });
    children.add(child);
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));

    // The child holds the job and renews its lease while it hangs.
    const deadline = Date.now() + 30_000;
    while ((await database.prisma.$queryRaw<unknown[]>`SELECT 1 FROM "KitLog" WHERE "job" = ${id} AND "note" = 'started attempt 1'`).length === 0) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the hanging worker did not start the job:\n${stderr}`);
      await sleep(50);
    }
    const live = await instance();
    await sleep(LEASE_MS * 1.5);
    expect(await database.prisma.job.findUnique({ where: { id } })).toMatchObject({ status: 'running', lockedBy: 'hanging-worker', attempts: 1 });
    expect(await runDue(live, [takeover])).toEqual([]);

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const { lockedUntil } = (await database.prisma.job.findUniqueOrThrow({ where: { id } }))!;

    // Polling as a worker does: nothing is claimed until the lease has run out.
    let emptyPolls = 0;
    for (;;) {
      const outcomes = await runDue(live, [takeover]);
      if (outcomes.length > 0) {
        expect(outcomes).toEqual([{ job: id, task: 'kit.takeover', status: 'completed', result: undefined }]);
        break;
      }
      emptyPolls++;
      expect(Date.now()).toBeLessThan(lockedUntil!.getTime() + 10_000);
      await sleep(50);
    }
    expect(emptyPolls).toBeGreaterThan(0);
    expect(done).toEqual([{ attempt: 2, lastError: LEASE_EXPIRED }]);
    // Completed on the database clock no earlier than the lease's end.
    const [completed] = await database.prisma.$queryRaw<{ at: Date }[]>`SELECT "at" FROM "KitLog" WHERE "job" = ${id} AND "note" = 'completed attempt 2'`;
    expect(completed!.at.getTime()).toBeGreaterThanOrEqual(lockedUntil!.getTime());
    expect(await database.prisma.job.findUnique({ where: { id } })).toBeNull();
  });
});
