import { hostname } from 'node:os';
import { randomToken } from '../ids.ts';
import { claimJobs, completeJob, failJob, renewLease, retryJob, type ClaimedJob } from './queue.ts';
import { backoffMs, leaseOf, PermanentJobError, retryPolicyOf, type JobEnv, type JobRun, type Task } from './task.ts';

/** What became of one claimed job. `lost`: its lease passed to another worker before it finished. */
export interface Outcome {
  job: string;
  task: string;
  status: 'completed' | 'retrying' | 'failed' | 'lost';
  /** The handler's result, when it completed. */
  result?: unknown;
  error?: string;
}

/** Names this process in lockedBy: the host and pid say which instance holds a job. */
export const workerName = (): string => `${hostname()}:${process.pid}:${randomToken(6)}`;

function errorText(error: unknown): string {
  const e = error as { message?: unknown; code?: unknown } | undefined;
  return String((e?.message || e?.code) ?? error).slice(0, 1000);
}

class Runner<E extends JobEnv> {
  private readonly byName: Map<string, Task<any, E>>;
  private readonly leases: Record<string, number>;

  constructor(
    private readonly env: E,
    tasks: readonly Task<any, E>[],
    readonly worker: string,
  ) {
    this.byName = new Map(tasks.map((t) => [t.name, t]));
    this.leases = Object.fromEntries(tasks.map((t) => [t.name, leaseOf(t, env)]));
  }

  claim(limit: number): Promise<ClaimedJob[]> {
    return claimJobs(this.env.db, this.worker, this.leases, limit);
  }

  /** Runs one claimed job to completion, retry or failure. Never throws. */
  async execute(job: ClaimedJob): Promise<Outcome> {
    const task = this.byName.get(job.task)!;
    const log = this.env.log.child({ job: job.id, task: task.name, key: job.dedupeKey ?? undefined, attempt: job.attempts });
    const env: E = { ...this.env, log };
    const policy = retryPolicyOf(task, env);
    const outcome = (status: Outcome['status'], more: Partial<Outcome> = {}): Outcome => ({ job: job.id, task: task.name, status, ...more });

    const fail = async (payload: unknown, error: string): Promise<Outcome> => {
      const { onFailed } = task.options;
      const failure = { error, job: { id: job.id, task: task.name, attempts: job.attempts } };
      const recorded = await failJob(env.db, job, error, onFailed && ((tx) => onFailed(env, payload, { tx, ...failure })));
      log.error({ error }, recorded ? 'job failed for good' : 'job failed after its lease was lost');
      return outcome(recorded ? 'failed' : 'lost', { error });
    };

    try {
      // Taken over after the last attempt's worker died: that was the last attempt.
      if (job.attempts > policy.maxAttempts) return await fail(job.payload, job.lastError ?? 'no attempts left');
      const parsed = task.schema.safeParse(job.payload);
      if (!parsed.success) return await fail(job.payload, `the payload does not match the task: ${parsed.error.message}`.slice(0, 1000));

      let retryAt: Date | null | undefined;
      const lease = this.holdLease(job, log);
      const run: JobRun = {
        id: job.id,
        task: task.name,
        attempt: job.attempts,
        maxAttempts: policy.maxAttempts,
        signal: lease.signal,
        retryAt: () => {
          if (retryAt === undefined) retryAt = job.attempts < policy.maxAttempts ? new Date(Date.now() + backoffMs(policy, job.attempts)) : null;
          return retryAt;
        },
      };
      let result: unknown;
      try {
        result = await task.handler(env, parsed.data, run);
      } catch (error) {
        const message = errorText(error);
        const at = error instanceof PermanentJobError ? null : run.retryAt();
        if (at === null) return await fail(parsed.data, message);
        const kept = await retryJob(env.db, job, at, message);
        log.warn({ error: message, retryAt: at }, kept ? 'job failed; it will be retried' : 'job failed after its lease was lost');
        return outcome(kept ? 'retrying' : 'lost', { error: message });
      } finally {
        lease.release();
      }
      if (await completeJob(env.db, job)) return outcome('completed', { result });
      log.warn('job finished after its lease was lost; another worker runs it again');
      return outcome('lost', { result });
    } catch (err) {
      // The queue itself failed (the database is away): the lease runs out and the job is retried.
      log.error({ err }, 'recording a job outcome failed');
      return outcome('lost', { error: errorText(err) });
    }
  }

  /**
   * Renews the job's lease while its handler runs, at a third of its length (two renewals may
   * fail, on a slow database, before it runs out); the signal aborts when the lease was lost.
   */
  private holdLease(job: ClaimedJob, log: JobEnv['log']): { signal: AbortSignal; release(): void } {
    const lost = new AbortController();
    const leaseMs = this.leases[job.task]!;
    const timer = setInterval(() => {
      renewLease(this.env.db, job, leaseMs).then(
        (held) => held || lost.abort(new Error('lease lost')),
        (err: unknown) => log.warn({ err }, 'renewing a job lease failed'),
      );
    }, leaseMs / 3);
    timer.unref();
    return { signal: lost.signal, release: () => clearInterval(timer) };
  }
}

/**
 * Claims the jobs of `tasks` that are due now (up to `limit`) and runs them concurrently;
 * answers what became of each. For tests, scripts and anything that wants the queue worked
 * through once; the service runs startWorker.
 */
export async function runDue<E extends JobEnv>(env: E, tasks: readonly Task<any, E>[], options: { limit?: number; worker?: string } = {}): Promise<Outcome[]> {
  const runner = new Runner(env, tasks, options.worker ?? workerName());
  const jobs = await runner.claim(options.limit ?? 20);
  return Promise.all(jobs.map((job) => runner.execute(job)));
}

export interface Worker {
  readonly name: string;
  /** True from the start until stop() is called (readiness reports it). */
  readonly running: boolean;
  /** Stops claiming; resolves when the jobs in hand have finished. */
  stop(): Promise<void>;
}

/**
 * Works the queue until stopped: up to `concurrency` jobs at once, claiming again as soon as one
 * finishes, and looking again every `intervalMs` when nothing was due.
 */
export function startWorker<E extends JobEnv>(
  env: E,
  tasks: readonly Task<any, E>[],
  options: { intervalMs: number; concurrency?: number; name?: string; onOutcome?(outcome: Outcome): void },
): Worker {
  const runner = new Runner(env, tasks, options.name ?? workerName());
  const concurrency = options.concurrency ?? 10;
  const running = new Set<Promise<Outcome>>();
  let stopped = false;
  let nudged = false;
  let wake = () => void (nudged = true);

  async function fill(): Promise<boolean> {
    const free = concurrency - running.size;
    if (free <= 0) return false;
    const jobs = await runner.claim(free);
    for (const job of jobs) {
      const run: Promise<Outcome> = runner.execute(job).then((outcome) => {
        running.delete(run);
        options.onOutcome?.(outcome);
        wake();
        return outcome;
      });
      running.add(run);
    }
    // A full claim suggests more are due.
    return jobs.length === free;
  }

  const loop = (async () => {
    while (!stopped) {
      let more = false;
      try {
        more = await fill();
      } catch (err) {
        env.log.error({ err }, 'claiming jobs failed');
      }
      if (more || stopped) continue;
      if (nudged) {
        nudged = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.intervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = () => void (nudged = true);
      nudged = false;
    }
  })();

  return {
    name: runner.worker,
    get running() {
      return !stopped;
    },
    async stop() {
      stopped = true;
      wake();
      await loop;
      await Promise.all(running);
    },
  };
}
