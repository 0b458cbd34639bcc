import type { Platform } from '../context.ts';

export interface Workers {
  stop(): Promise<void>;
}

/**
 * Durable background work. Each loop reads its queue from the database, so work enqueued before a
 * crash is picked up after the restart, by whichever instance gets there first.
 */
export function startWorkers(platform: Platform, intervalMs = 1000): Workers {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    running = platform.notifier
      .deliverPending()
      .catch((err: unknown) => platform.log.error({ err }, 'notification delivery failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  let timer = setTimeout(tick, intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
