import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { z } from 'zod';
import type { Prisma } from '../../src/generated/prisma/client.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { cancel, claimJobs, completeJob, enqueue, LEASE_EXPIRED, queueStats } from '../../src/jobs/queue.ts';
import { runDue, startWorker } from '../../src/jobs/run.ts';
import { backoffMs, defineTask, PermanentJobError, type JobEnv, type JobRun } from '../../src/jobs/task.ts';

/**
 * The job kit on the real database engine (embedded PGlite, or PostgreSQL with DATABASE_URL):
 * durability in the caller's transaction, runAt, dedupe keys, backoff, the failed state and its
 * hook, leases and the worker loop.
 */

let database: TestDatabase;
let env: JobEnv;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  database = await createTestDatabase();
  env = { db: database.prisma, log: pino({ level: 'silent' }) };
  // A table of this file's own, where the test tasks note what ran: it is outside the Prisma schema, so it is written in SQL.
  await database.prisma.$executeRawUnsafe('CREATE TABLE "KitLog" ("job" TEXT NOT NULL, "note" TEXT NOT NULL, "at" TIMESTAMPTZ(3) NOT NULL DEFAULT now())');
});
afterAll(() => database?.close());
beforeEach(async () => {
  await database.prisma.job.deleteMany();
  await database.prisma.$executeRawUnsafe('DELETE FROM "KitLog"');
});

const job = (id: string) => database.prisma.job.findUnique({ where: { id } });
const makeDue = (id: string) => database.prisma.job.update({ where: { id }, data: { runAt: new Date() } });
const tx = <T>(fn: (t: Prisma.TransactionClient) => Promise<T>) => database.prisma.$transaction(fn);

// Each task records its runs here; tests read what they need.
const runs: { task: string; payload: unknown; attempt: number; retryAt: Date | null }[] = [];
const failures: { task: string; payload: unknown; error: string; attempts: number }[] = [];
const record = (task: string, payload: unknown, run: JobRun) => runs.push({ task, payload, attempt: run.attempt, retryAt: run.retryAt() });
beforeEach(() => {
  runs.length = 0;
  failures.length = 0;
});

const echo = defineTask('kit.echo', z.object({ n: z.number().int(), tag: z.string().default('none') }), async (_env: JobEnv, payload, run) => {
  record('kit.echo', payload, run);
  return payload.n;
});

const policy = { maxAttempts: 4, baseMs: 100, capMs: 250 };
const flaky = defineTask(
  'kit.flaky',
  z.object({ key: z.string() }),
  async (_env: JobEnv, payload, run) => {
    record('kit.flaky', payload, run);
    throw new Error(`failure ${run.attempt}`);
  },
  {
    retry: policy,
    onFailed: async (_env, payload, { tx, error, job }) => {
      failures.push({ task: 'kit.flaky', payload, error, attempts: job.attempts });
      // Written in the transaction that records the failure (into the file's own KitLog table, in SQL).
      await tx.$executeRaw`INSERT INTO "KitLog" ("job", "note") VALUES (${job.id}, ${`failed: ${error}`})`;
    },
  },
);

const doomed = defineTask('kit.doomed', z.object({}), async (_env: JobEnv) => {
  throw new PermanentJobError('cannot ever work');
});

describe('enqueue', () => {
  it('checks the payload with the task schema and stores what the schema answers', async () => {
    await expect(tx((t) => enqueue(t, echo, { n: 1.5 } as never))).rejects.toThrow(z.ZodError);
    await expect(tx((t) => enqueue(t, echo, { n: 'one' } as never))).rejects.toThrow(z.ZodError);
    expect(await database.prisma.job.count()).toBe(0);

    const id = await tx((t) => enqueue(t, echo, { n: 1, extra: true } as never));
    expect(await job(id)).toMatchObject({ task: 'kit.echo', status: 'pending', attempts: 0, payload: { n: 1, tag: 'none' }, dedupeKey: null });
  });

  it('is part of the caller transaction: a rolled-back change leaves no job', async () => {
    await expect(
      tx(async (t) => {
        await enqueue(t, echo, { n: 2 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await database.prisma.job.count()).toBe(0);
  });

  it('two enqueues of one key are one job while it is pending or running; once done, the key is free', async () => {
    const first = await tx((t) => enqueue(t, echo, { n: 1 }, { dedupeKey: 'k' }));
    const again = await tx(async (t) => [await enqueue(t, echo, { n: 2 }, { dedupeKey: 'k' }), await enqueue(t, echo, { n: 3 }, { dedupeKey: 'k' })]);
    expect(again).toEqual([first, first]);
    // Keys are per task.
    const other = await tx((t) => enqueue(t, flaky, { key: 'x' }, { dedupeKey: 'k' }));
    expect(other).not.toBe(first);
    expect(await database.prisma.job.count({ where: { task: 'kit.echo' } })).toBe(1);

    // While it runs the key is still held.
    const [claimed] = await claimJobs(database.prisma, 'holder', { 'kit.echo': 10_000 }, 1);
    expect(claimed!.id).toBe(first);
    expect(await tx((t) => enqueue(t, echo, { n: 4 }, { dedupeKey: 'k' }))).toBe(first);
    expect(await completeJob(database.prisma, claimed!)).toBe(true);

    const fresh = await tx((t) => enqueue(t, echo, { n: 5 }, { dedupeKey: 'k' }));
    expect(fresh).not.toBe(first);
    expect(await job(fresh)).toMatchObject({ payload: { n: 5, tag: 'none' } });
  });

  it('cancel drops a pending job by its key, but not a running one', async () => {
    const a = await tx((t) => enqueue(t, echo, { n: 1 }, { dedupeKey: 'timer-a' }));
    await tx((t) => enqueue(t, echo, { n: 2 }, { dedupeKey: 'timer-b' }));
    expect(await tx((t) => cancel(t, echo, ['timer-b', 'timer-missing']))).toBe(1);
    expect(await database.prisma.job.count()).toBe(1);
    await claimJobs(database.prisma, 'holder', { 'kit.echo': 10_000 }, 1);
    expect(await tx((t) => cancel(t, echo, 'timer-a'))).toBe(0);
    expect(await job(a)).toMatchObject({ status: 'running' });
  });
});

describe('running jobs', () => {
  it('runs a job once, not before its runAt, and deletes it when done', async () => {
    const now = await tx((t) => enqueue(t, echo, { n: 1 }));
    const later = await tx((t) => enqueue(t, echo, { n: 2 }, { runAt: new Date(Date.now() + 400) }));
    const first = await runDue(env, [echo]);
    expect(first).toEqual([{ job: now, task: 'kit.echo', status: 'completed', result: 1 }]);
    expect(await job(now)).toBeNull();
    expect(await job(later)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await runDue(env, [echo])).toEqual([]);

    await sleep(450);
    expect((await runDue(env, [echo])).map((o) => o.result)).toEqual([2]);
    expect(runs.map((r) => r.payload)).toEqual([{ n: 1, tag: 'none' }, { n: 2, tag: 'none' }]);
    expect(await runDue(env, [echo])).toEqual([]);
  });

  it('claims only the tasks it is given: other jobs wait for a worker that knows them', async () => {
    const id = await tx((t) => enqueue(t, flaky, { key: 'unknown-here' }));
    expect(await runDue(env, [echo])).toEqual([]);
    expect(await job(id)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('retries with exponential backoff up to the cap, at the time the handler was told', async () => {
    const id = await tx((t) => enqueue(t, flaky, { key: 'backoff' }));
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      await makeDue(id);
      const before = Date.now();
      const [outcome] = await runDue(env, [flaky]);
      const after = Date.now();
      expect(outcome).toMatchObject({ status: 'retrying', error: `failure ${attempt}` });
      const row = (await job(id))!;
      expect(row).toMatchObject({ status: 'pending', attempts: attempt, lastError: `failure ${attempt}`, lockedBy: null, lockedUntil: null });
      const wait = backoffMs(policy, attempt);
      expect(row.runAt.getTime()).toBeGreaterThanOrEqual(before + wait);
      expect(row.runAt.getTime()).toBeLessThanOrEqual(after + wait);
      // The time the handler read from retryAt() is the time the queue kept.
      expect(runs.at(-1)!.retryAt).toEqual(row.runAt);
      waits.push(wait);
    }
    expect(waits).toEqual([100, 200, 250]);
    // Not due yet: nothing runs.
    expect(await runDue(env, [flaky])).toEqual([]);
  });

  it('fails for good after maxAttempts with the last error, and onFailed runs once in the same transaction', async () => {
    const id = await tx((t) => enqueue(t, flaky, { key: 'final' }, { dedupeKey: 'final' }));
    for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
      await makeDue(id);
      await runDue(env, [flaky]);
    }
    expect(runs.map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
    // The last attempt knew it was the last.
    expect(runs.at(-1)!.retryAt).toBeNull();
    const row = (await job(id))!;
    expect(row).toMatchObject({ status: 'failed', attempts: 4, lastError: 'failure 4', dedupeKey: null, lockedBy: null });
    expect(row.failedAt).toBeInstanceOf(Date);
    expect(failures).toEqual([{ task: 'kit.flaky', payload: { key: 'final' }, error: 'failure 4', attempts: 4 }]);
    expect(await database.prisma.$queryRaw`SELECT "job", "note" FROM "KitLog"`).toEqual([{ job: id, note: 'failed: failure 4' }]);

    // A failed job is never claimed again, and its key is free for new work.
    await database.prisma.job.update({ where: { id }, data: { runAt: new Date(0) } });
    expect(await runDue(env, [flaky])).toEqual([]);
    expect(failures).toHaveLength(1);
    expect(await tx((t) => enqueue(t, flaky, { key: 'final' }, { dedupeKey: 'final' }))).not.toBe(id);
  });

  it('a PermanentJobError fails the job at its first attempt', async () => {
    const id = await tx((t) => enqueue(t, doomed, {}));
    expect(await runDue(env, [doomed])).toEqual([{ job: id, task: 'kit.doomed', status: 'failed', error: 'cannot ever work' }]);
    expect(await job(id)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'cannot ever work' });
  });

  it('a stored payload that no longer matches the task fails without running the handler', async () => {
    // A broken row, written directly: enqueue checks the payload, so no service stores one that does not match.
    await database.prisma.job.create({ data: { id: 'job_badpayload', task: 'kit.flaky', payload: { key: 7 }, runAt: new Date() } });
    const [outcome] = await runDue(env, [flaky]);
    expect(outcome).toMatchObject({ status: 'failed', error: expect.stringContaining('does not match') });
    expect(runs).toHaveLength(0);
    expect(failures).toEqual([expect.objectContaining({ payload: { key: 7 }, attempts: 1 })]);
  });

  it('a failing onFailed leaves the failure unrecorded; it is tried again once the lease runs out', async () => {
    let refuse = true;
    const picky = defineTask('kit.picky', z.object({}), async (_env: JobEnv) => Promise.reject(new Error('no')), {
      retry: { maxAttempts: 1 },
      leaseMs: 300,
      onFailed: async () => {
        if (refuse) throw new Error('hook down');
      },
    });
    const id = await tx((t) => enqueue(t, picky, {}));
    expect((await runDue(env, [picky]))[0]).toMatchObject({ status: 'lost' });
    expect(await job(id)).toMatchObject({ status: 'running', attempts: 1 });
    refuse = false;
    await sleep(350);
    expect((await runDue(env, [picky]))[0]).toMatchObject({ status: 'failed' });
    expect(await job(id)).toMatchObject({ status: 'failed', attempts: 2 });
  });
});

describe('leases', () => {
  const slow = defineTask('kit.slow', z.object({ ms: z.number() }), async (_env: JobEnv, payload, run) => {
    record('kit.slow', payload, run);
    await sleep(payload.ms);
    return run.signal.aborted ? 'lease lost' : 'done';
  }, { leaseMs: 300, retry: { maxAttempts: 3, baseMs: 10 } });

  it('a job whose worker stopped is taken over once its lease has run out, and not before', async () => {
    const id = await tx((t) => enqueue(t, slow, { ms: 0 }));
    // A worker claims the job and dies: it never finishes nor renews.
    const [dead] = await claimJobs(database.prisma, 'dead-worker', { 'kit.slow': 300 }, 1);
    expect(dead).toMatchObject({ id, attempts: 1, lockedBy: 'dead-worker' });
    expect(await runDue(env, [slow])).toEqual([]);

    await sleep(350);
    expect(await runDue(env, [slow], { worker: 'live-worker' })).toEqual([{ job: id, task: 'kit.slow', status: 'completed', result: 'done' }]);
    expect(runs).toEqual([expect.objectContaining({ attempt: 2 })]);
    // The dead worker's late word changes nothing.
    expect(await completeJob(database.prisma, dead!)).toBe(false);
  });

  it('a live worker renews its lease: a job longer than its lease runs once', async () => {
    const id = await tx((t) => enqueue(t, slow, { ms: 1000 }));
    const running = runDue(env, [slow]);
    await sleep(600);
    expect(await job(id)).toMatchObject({ status: 'running', attempts: 1 });
    expect(await runDue(env, [slow], { worker: 'other' })).toEqual([]);
    expect((await running).map((o) => o.result)).toEqual(['done']);
    expect(runs).toHaveLength(1);
    expect(await job(id)).toBeNull();
  });

  it('a job taken over after its last attempt fails with the reason', async () => {
    const id = await tx((t) => enqueue(t, flaky, { key: 'abandoned' }));
    await database.prisma.job.update({ where: { id }, data: { attempts: policy.maxAttempts - 1 } });
    await claimJobs(database.prisma, 'dead-worker', { 'kit.flaky': 1 }, 1);
    await sleep(20);
    expect(await runDue(env, [flaky])).toEqual([{ job: id, task: 'kit.flaky', status: 'failed', error: LEASE_EXPIRED }]);
    expect(runs).toHaveLength(0);
    expect(failures).toEqual([{ task: 'kit.flaky', payload: { key: 'abandoned' }, error: LEASE_EXPIRED, attempts: policy.maxAttempts + 1 }]);
  });
});

describe('the worker loop', () => {
  it('runs jobs as they become due and stop() lets the job in hand finish', async () => {
    const slowOne = defineTask('kit.loop', z.object({ n: z.number(), ms: z.number() }), async (_env: JobEnv, payload, run) => {
      record('kit.loop', payload, run);
      await sleep(payload.ms);
      // The file's own KitLog table, in SQL.
      await database.prisma.$executeRaw`INSERT INTO "KitLog" ("job", "note") VALUES (${run.id}, 'finished')`;
    });
    const worker = startWorker(env, [slowOne], { intervalMs: 30, concurrency: 2 });
    try {
      await tx((t) => enqueue(t, slowOne, { n: 1, ms: 0 }));
      await tx((t) => enqueue(t, slowOne, { n: 2, ms: 0 }, { runAt: new Date(Date.now() + 200) }));
      const deadline = Date.now() + 5000;
      while (runs.length < 2) {
        expect(Date.now()).toBeLessThan(deadline);
        await sleep(20);
      }
      const long = await tx((t) => enqueue(t, slowOne, { n: 3, ms: 400 }));
      while (runs.length < 3) await sleep(10);
      await worker.stop();
      // Stopped after the job in hand finished and was recorded.
      expect(await database.prisma.$queryRaw`SELECT "note" FROM "KitLog" WHERE "job" = ${long}`).toEqual([{ note: 'finished' }]);
      expect(await job(long)).toBeNull();
    } finally {
      await worker.stop();
    }
    // Nothing is claimed after stop().
    const after = await tx((t) => enqueue(t, slowOne, { n: 4, ms: 0 }));
    await sleep(100);
    expect(await job(after)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(runs.map((r) => (r.payload as { n: number }).n)).toEqual([1, 2, 3]);
  });
});

describe('queueStats', () => {
  it('counts pending, due, running and failed jobs per task, with the age of the oldest due job', async () => {
    expect(await queueStats(database.prisma)).toEqual({ total: { pending: 0, due: 0, running: 0, failed: 0, oldestDueMs: null }, tasks: {} });
    await tx(async (t) => {
      await enqueue(t, echo, { n: 1 }, { runAt: new Date(Date.now() - 5000) });
      await enqueue(t, echo, { n: 2 }, { runAt: new Date(Date.now() - 1000) });
      await enqueue(t, echo, { n: 3 }, { runAt: new Date(Date.now() + 60_000) });
      await enqueue(t, doomed, {});
    });
    await runDue(env, [doomed]);
    await claimJobs(database.prisma, 'holder', { 'kit.echo': 60_000 }, 1);
    const stats = await queueStats(database.prisma);
    expect(stats.tasks['kit.echo']).toMatchObject({ pending: 2, due: 1, running: 1, failed: 0 });
    expect(stats.tasks['kit.echo']!.oldestDueMs).toBeGreaterThanOrEqual(1000);
    expect(stats.tasks['kit.echo']!.oldestDueMs).toBeLessThan(4000);
    expect(stats.tasks['kit.doomed']).toEqual({ pending: 0, due: 0, running: 0, failed: 1, oldestDueMs: null });
    expect(stats.total).toMatchObject({ pending: 2, due: 1, running: 1, failed: 1 });
  });
});
