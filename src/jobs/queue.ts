import type { Db } from '../db/client.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { randomToken } from '../ids.ts';
import type { Task } from './task.ts';

/**
 * The jobs table (model Job). A job is `pending` until a worker claims it, `running` while the
 * worker holds its lease, and then deleted (done), `pending` again with a later runAt (retry) or
 * `failed`. Every change a worker makes to a claimed job is fenced by the claim it holds
 * (lockedBy and attempts), so a worker that lost its lease cannot overwrite the next run.
 */

type Tx = Prisma.TransactionClient;

export interface EnqueueOptions {
  /** Not before this time (default: now). */
  runAt?: Date;
  /** One job per key and task while it is pending or running: a second enqueue returns the first job. */
  dedupeKey?: string;
}

/**
 * Queues a job in the caller's transaction: it exists exactly when the change that causes it
 * does. The payload is checked against the task's schema here, so a bad payload fails the
 * caller, not a worker later. Answers the job's id.
 */
export async function enqueue<I>(tx: Tx, task: Task<any, any, I>, payload: I, options: EnqueueOptions = {}): Promise<string> {
  const checked = task.schema.parse(payload) as Prisma.InputJsonValue;
  const row = { task: task.name, payload: checked, runAt: options.runAt ?? new Date(), dedupeKey: options.dedupeKey ?? null };
  if (options.dedupeKey === undefined) return (await tx.job.create({ data: { id: newJobId(), ...row }, select: { id: true } })).id;
  // ON CONFLICT DO NOTHING: of two concurrent enqueues of one key, one inserts and the other waits for it and finds it.
  for (let tries = 0; tries < 3; tries++) {
    const id = newJobId();
    if ((await tx.job.createMany({ data: [{ id, ...row }], skipDuplicates: true })).count === 1) return id;
    const held = await tx.job.findUnique({ where: { task_dedupeKey: { task: task.name, dedupeKey: options.dedupeKey } }, select: { id: true } });
    // Gone in between: the holder finished, so the key is free again.
    if (held) return held.id;
  }
  throw new Error(`Could not enqueue ${task.name} with key ${options.dedupeKey}`);
}

/** A job to queue from inside a statement (see enqueueRows): its payload checked here, as enqueue checks it. */
export interface JobRow {
  jobId: string;
  jobPayload: string;
  jobRunAt: Date;
  jobKey: string | null;
}

export function jobRow<I>(task: Task<any, any, I>, payload: I, options: { runAt: Date; dedupeKey?: string }): JobRow {
  return { jobId: newJobId(), jobPayload: JSON.stringify(task.schema.parse(payload)), jobRunAt: options.runAt, jobKey: options.dedupeKey ?? null };
}

/**
 * Queues a job of `task` for each row of `source` (a CTE of the caller's statement with the
 * columns of JobRow), for a statement that writes changes and the jobs they cause at once, as
 * enqueue does inside a transaction. A key already held (pending or running) keeps the first job.
 */
export function enqueueRows(task: Task<any, any, any>, source: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`INSERT INTO "Job" ("id", "task", "payload", "runAt", "dedupeKey")
    SELECT "jobId", ${task.name}, "jobPayload"::jsonb, "jobRunAt", "jobKey" FROM ${source}
    ON CONFLICT ("task", "dedupeKey") DO NOTHING`;
}

/**
 * Drops pending jobs by their keys (a timer no longer needed); answers how many. A running job is
 * left to finish: its handler sees the domain change that made it moot.
 */
export async function cancel(tx: Tx, task: Task<any, any>, dedupeKeys: string | readonly string[]): Promise<number> {
  const keys = typeof dedupeKeys === 'string' ? [dedupeKeys] : [...dedupeKeys];
  if (keys.length === 0) return 0;
  return (await tx.job.deleteMany({ where: { task: task.name, dedupeKey: { in: keys }, status: 'pending' } })).count;
}

function newJobId(): string {
  return `job_${randomToken(16)}`;
}

export interface ClaimedJob {
  id: string;
  task: string;
  payload: unknown;
  dedupeKey: string | null;
  /** This claim's attempt number. */
  attempts: number;
  lockedBy: string;
  lockedUntil: Date;
  /** Set when the job was taken over from a worker whose lease ran out. */
  lastError: string | null;
}

export const LEASE_EXPIRED = 'lease expired: the worker running the previous attempt stopped';

/**
 * Claims up to `limit` due jobs of the given tasks for `worker`, each with its task's lease.
 * Due means pending with runAt passed, or running with its lease run out (its worker died).
 * SKIP LOCKED lets several workers claim at once without waiting for or taking each other's
 * rows. Times come from the database clock, the one clock every instance shares.
 */
export async function claimJobs(db: Db, worker: string, leases: Record<string, number>, limit: number): Promise<ClaimedJob[]> {
  return db.$queryRaw<ClaimedJob[]>`
    WITH due AS (
      SELECT "id" FROM "Job"
      WHERE (("status" = 'pending' AND "runAt" <= now()) OR ("status" = 'running' AND "lockedUntil" <= now()))
        AND (${JSON.stringify(leases)}::jsonb ->> "task") IS NOT NULL
      ORDER BY "runAt"
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE "Job" AS j SET
      "status" = 'running',
      "attempts" = j."attempts" + 1,
      "lockedBy" = ${worker},
      "lockedUntil" = now() + (${JSON.stringify(leases)}::jsonb ->> j."task")::int * interval '1 millisecond',
      "lastError" = CASE WHEN j."status" = 'running' THEN ${LEASE_EXPIRED} ELSE j."lastError" END
    FROM due WHERE j."id" = due."id"
    RETURNING j."id", j."task", j."payload", j."dedupeKey", j."attempts", j."lockedBy", j."lockedUntil", j."lastError"`;
}

const held = (job: ClaimedJob) => ({ id: job.id, status: 'running', attempts: job.attempts, lockedBy: job.lockedBy });

/** Extends the lease of a job still held; false when it was lost. */
export async function renewLease(db: Db, job: ClaimedJob, leaseMs: number): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE "Job" SET "lockedUntil" = now() + ${leaseMs}::int * interval '1 millisecond'
    WHERE "id" = ${job.id} AND "status" = 'running' AND "attempts" = ${job.attempts} AND "lockedBy" = ${job.lockedBy}`;
  return count === 1;
}

/** Done: the job goes (the domain's own rows are the record of what was done). */
export async function completeJob(db: Db, job: ClaimedJob): Promise<boolean> {
  return (await db.job.deleteMany({ where: held(job) })).count === 1;
}

export async function retryJob(db: Db, job: ClaimedJob, runAt: Date, error: string): Promise<boolean> {
  const { count } = await db.job.updateMany({ where: held(job), data: { status: 'pending', runAt, lastError: error, lockedBy: null, lockedUntil: null } });
  return count === 1;
}

/**
 * Failed for good; `hook` (the task's onFailed) runs in the same transaction. The key is freed,
 * so the same work may be enqueued anew.
 */
export async function failJob(db: Db, job: ClaimedJob, error: string, hook?: (tx: Tx) => Promise<unknown>): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.job.updateMany({
      where: held(job),
      data: { status: 'failed', lastError: error, failedAt: new Date(), dedupeKey: null, lockedBy: null, lockedUntil: null },
    });
    if (count === 1 && hook) await hook(tx);
    return count === 1;
  });
}

export interface TaskStats {
  /** Waiting, due or not. */
  pending: number;
  /** Pending and due now, or running on a lease that ran out. */
  due: number;
  running: number;
  failed: number;
  /** How long the longest-waiting due job has been due (ms), or null when none is. */
  oldestDueMs: number | null;
}

/** The queue at a glance, per task and in total: one aggregate over the jobs table (which holds only unfinished and failed jobs). */
export async function queueStats(db: Db): Promise<{ total: TaskStats; tasks: Record<string, TaskStats> }> {
  const rows = await db.$queryRaw<(Record<keyof TaskStats, number | bigint | null> & { task: string })[]>`
    SELECT "task",
      count(*) FILTER (WHERE "status" = 'pending') AS "pending",
      count(*) FILTER (WHERE ("status" = 'pending' AND "runAt" <= now()) OR ("status" = 'running' AND "lockedUntil" <= now())) AS "due",
      count(*) FILTER (WHERE "status" = 'running') AS "running",
      count(*) FILTER (WHERE "status" = 'failed') AS "failed",
      floor(extract(epoch FROM now() - min("runAt") FILTER (WHERE "status" = 'pending' AND "runAt" <= now())) * 1000) AS "oldestDueMs"
    FROM "Job" GROUP BY "task" ORDER BY "task"`;
  const total: TaskStats = { pending: 0, due: 0, running: 0, failed: 0, oldestDueMs: null };
  const tasks: Record<string, TaskStats> = {};
  for (const row of rows) {
    const stats: TaskStats = {
      pending: Number(row.pending),
      due: Number(row.due),
      running: Number(row.running),
      failed: Number(row.failed),
      oldestDueMs: row.oldestDueMs === null ? null : Number(row.oldestDueMs),
    };
    tasks[row.task] = stats;
    total.pending += stats.pending;
    total.due += stats.due;
    total.running += stats.running;
    total.failed += stats.failed;
    if (stats.oldestDueMs !== null) total.oldestDueMs = Math.max(total.oldestDueMs ?? 0, stats.oldestDueMs);
  }
  return { total, tasks };
}

export const JOB_STATUSES = ['pending', 'running', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobFilter {
  status?: JobStatus;
  task?: string;
  limit: number;
}

/** The jobs table for an operator: the oldest-due first (failed ones by when they failed). */
export async function listJobs(db: Db, filter: JobFilter) {
  return db.job.findMany({
    where: { status: filter.status, task: filter.task },
    orderBy: [{ runAt: 'asc' }, { id: 'asc' }],
    take: filter.limit,
    select: { id: true, task: true, status: true, attempts: true, runAt: true, failedAt: true, lastError: true, createdAt: true },
  });
}

/**
 * A failed job back to pending, due now, with its attempts counted afresh (its task's retry
 * policy applies again); its last error stays until the next attempt replaces it. One
 * conditional statement: a job that is not failed (or not there) is left as it is, and the answer
 * says which.
 */
export async function retryFailedJob(db: Db, id: string): Promise<'retried' | 'not failed' | 'unknown'> {
  // Due by the database's clock, the one the workers claim by.
  const count = await db.$executeRaw`
    UPDATE "Job" SET "status" = 'pending', "runAt" = now(), "attempts" = 0, "failedAt" = NULL WHERE "id" = ${id} AND "status" = 'failed'`;
  if (count === 1) return 'retried';
  return (await db.job.findUnique({ where: { id }, select: { id: true } })) ? 'not failed' : 'unknown';
}
