import type { Server } from 'node:http';
import type { Logger } from 'pino';

export interface ShutdownPlan {
  /** The listening server, and its close (fastify's: stops listening, waits for requests in progress, then releases the app's own). */
  server: Server;
  close(): Promise<void>;
  log: Logger;
  /** The most a stop waits for requests in progress and running jobs (SHUTDOWN_TIMEOUT_MS). */
  timeoutMs: number;
  /** Called first: from here on readiness answers 503. */
  onStopping(): void;
  /** Background work: stops taking new jobs and finishes the ones it holds. */
  workers: { stop(): Promise<void> };
  /** Released in this order once requests and jobs are done or the time is up (the database). */
  release: (() => Promise<void>)[];
}

/**
 * The same signal again within this time is the same stop delivered twice, not a second one: a
 * terminal's Ctrl-C reaches the service directly (its process group) and again through a parent
 * that passes signals on (npm does, for `npm start`).
 */
export const REPEATED_SIGNAL_MS = 1000;

/**
 * Stops the server the way an orchestrator expects on SIGTERM (and Ctrl-C): no new connections,
 * requests already being received or answered go on to their end (an upload in progress included),
 * idle keep-alive connections are closed as soon as they are idle, workers finish the job in hand,
 * then the database is closed and the process exits. Whatever still runs after `timeoutMs` is cut
 * (a job cut this way is taken up again by a worker once its lease runs out). A second signal
 * exits at once, unless it repeats the first within REPEATED_SIGNAL_MS.
 */
export function stopOnSignals(plan: ShutdownPlan, signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT']): void {
  let first: { signal: NodeJS.Signals; at: number } | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (first) {
      if (signal === first.signal && Date.now() - first.at < REPEATED_SIGNAL_MS) {
        plan.log.info({ signal }, 'signal repeated: already shutting down');
        return;
      }
      plan.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    first = { signal, at: Date.now() };
    void stop(plan, signal).then(
      () => process.exit(0),
      (err: unknown) => {
        plan.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, onSignal);
}

async function stop(plan: ShutdownPlan, signal: string): Promise<void> {
  const started = Date.now();
  plan.log.info({ signal, timeoutMs: plan.timeoutMs }, 'shutting down');
  plan.onStopping();
  const deadline = started + plan.timeoutMs;
  const [drained, jobsDone] = await Promise.all([drain(plan, deadline), within(plan.workers.stop(), deadline)]);
  if (!drained) plan.log.warn('shutdown timeout: connections still open were closed');
  if (!jobsDone) plan.log.warn('shutdown timeout: jobs still running are left to their lease and retried elsewhere');
  for (const release of plan.release) await release();
  plan.log.info({ ms: Date.now() - started }, 'stopped');
}

/**
 * fastify's close: no new connections, idle keep-alive connections closed at once, requests in
 * progress run to their end (a request arriving on a busy keep-alive connection meanwhile gets 503).
 * True when every connection ended by itself before the deadline; after it, the rest are cut.
 */
async function drain({ server, close }: Pick<ShutdownPlan, 'server' | 'close'>, deadline: number): Promise<boolean> {
  // A keep-alive connection becomes idle when its response is done; close it then rather than
  // wait for its keep-alive timeout.
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  let cut = false;
  const timer = setTimeout(() => {
    cut = true;
    server.closeAllConnections();
  }, Math.max(0, deadline - Date.now()));
  try {
    await close();
  } finally {
    clearInterval(idle);
    clearTimeout(timer);
  }
  return !cut;
}

/** Whether `work` settled before the deadline (it goes on regardless). */
function within(work: Promise<unknown>, deadline: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
    work.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });
}
