import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import type { Prisma } from '../generated/prisma/client.ts';

/**
 * A task is a kind of background work: a name (stored with each job, so it must never change
 * once jobs of it exist), a zod schema for its payload, a handler, and its retry policy.
 * Define tasks beside the domain code they serve; src/jobs/workers.ts lists the ones the
 * service runs.
 */

/** What every task handler receives at least. Most tasks take the whole SystemContext. */
export interface JobEnv {
  db: Db;
  log: Logger;
}

/** Attempts and waits: after the n-th failed attempt the job waits base × 2^(n−1), at most cap. */
export interface RetryPolicy {
  maxAttempts: number;
  baseMs: number;
  capMs: number;
}

const HOUR = 60 * 60 * 1000;
export const defaultRetry: RetryPolicy = { maxAttempts: 5, baseMs: 10_000, capMs: HOUR };
/**
 * Long enough to ride out a pause of the event loop, short enough that a dead worker's job is
 * soon taken over. A live worker renews the lease while its handler runs, so this does not
 * bound how long a job may take.
 */
export const defaultLeaseMs = 30_000;

/** The wait after the n-th failed attempt (n ≥ 1). */
export function backoffMs(policy: Pick<RetryPolicy, 'baseMs' | 'capMs'>, attempt: number): number {
  return Math.min(policy.baseMs * 2 ** (attempt - 1), policy.capMs);
}

/** Thrown by a handler for a failure that retrying cannot fix: the job fails at once. */
export class PermanentJobError extends Error {}

/** One run of a job, as its handler sees it. */
export interface JobRun {
  id: string;
  task: string;
  /** 1 for the first run; a run whose worker died counts too. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when this worker has lost the job's lease (another worker may take the job over). */
  signal: AbortSignal;
  /**
   * When the next attempt runs should this one fail, or null when it is the last. The first
   * call fixes the time and the queue then uses that same time, so a domain record can show it.
   */
  retryAt(): Date | null;
}

/** What onFailed learns: the transaction that marks the job failed, and the last error. */
export interface Failure {
  tx: Prisma.TransactionClient;
  error: string;
  job: { id: string; task: string; attempts: number };
}

export interface TaskOptions<P, E extends JobEnv> {
  retry?: Partial<RetryPolicy> | ((env: E) => Partial<RetryPolicy>);
  leaseMs?: number | ((env: E) => number);
  /**
   * Runs once, when the job has failed for good, in the transaction that records the failure:
   * the domain record and the queue never disagree about it. Use `tx`, not `env.db`.
   */
  onFailed?: (env: E, payload: P, failure: Failure) => Promise<unknown>;
}

/** P: the payload a handler gets; I: what enqueue takes (the schema's input, before defaults). */
export interface Task<P = any, E extends JobEnv = JobEnv, I = P> {
  readonly name: string;
  readonly schema: z.ZodType<P, I>;
  /** Its result is handed back to whoever ran the job (runDue), e.g. to count what was sent. */
  readonly handler: (env: E, payload: P, job: JobRun) => Promise<unknown>;
  readonly options: TaskOptions<P, E>;
}

const names = new Set<string>();

/**
 * Declares a task. The type of the handler's first parameter decides what it needs from the
 * worker: most ask for a SystemContext (jobs/system.ts), some for less. The kit itself knows only
 * JobEnv: what the platform holds (the notifier, the player's writers) uses the kit, so the kit
 * cannot depend on the platform.
 */
export function defineTask<S extends z.ZodType, E extends JobEnv = JobEnv>(
  name: string,
  schema: S,
  handler: (env: E, payload: z.output<S>, job: JobRun) => Promise<unknown>,
  options: TaskOptions<z.output<S>, E> = {},
): Task<z.output<S>, E, z.input<S>> {
  // Jobs find their task by name: two tasks of one name would run each other's jobs.
  if (names.has(name)) throw new Error(`A task named '${name}' is already defined`);
  names.add(name);
  return { name, schema: schema as z.ZodType<z.output<S>, z.input<S>>, handler, options };
}

export function retryPolicyOf<E extends JobEnv>(task: Task<any, E>, env: E): RetryPolicy {
  const own = typeof task.options.retry === 'function' ? task.options.retry(env) : task.options.retry;
  return { ...defaultRetry, ...own };
}

export function leaseOf<E extends JobEnv>(task: Task<any, E>, env: E): number {
  const own = typeof task.options.leaseMs === 'function' ? task.options.leaseMs(env) : task.options.leaseMs;
  return own ?? defaultLeaseMs;
}
