import type { Platform } from '../context.ts';
import { deliverDueWebhooks } from '../services/webhooks/delivery.ts';

export interface Workers {
  stop(): Promise<void>;
}

/**
 * Durable background work. Each loop reads its queue from the database, so work enqueued before a
 * crash is picked up after the restart, by whichever instance gets there first (both queues are
 * claimed row by row, so instances never take the same item).
 */
export function startWorkers(platform: Platform, intervalMs = platform.config.WORKER_INTERVAL_MS): Workers {
  const loops = [
    loop(platform, 'notification delivery', () => platform.notifier.deliverPending(), intervalMs),
    loop(platform, 'webhook delivery', () => deliverDueWebhooks(platform), intervalMs),
  ];
  return {
    async stop() {
      await Promise.all(loops.map((stop) => stop()));
    },
  };
}

/** Runs `job` every `intervalMs` after the previous run ends; returns a stop that waits for the run in progress. */
function loop(platform: Platform, name: string, job: () => Promise<unknown>, intervalMs: number): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    running = job()
      .catch((err: unknown) => platform.log.error({ err }, `${name} failed`))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  let timer = setTimeout(tick, intervalMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
