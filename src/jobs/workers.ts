import type { Platform } from '../context.ts';
import { deliverNotification } from '../services/notifications/notifications.service.ts';
import { expireQuestionExport } from '../services/questions/export.ts';
import { deliverWebhook } from '../services/webhooks/delivery.ts';
import { finishOverduePlay } from '../services/plays/plays.service.ts';
import { removeResultsExport } from '../services/plays/results-export.ts';
import { expireCertificateLink } from '../services/certificates/certificates.service.ts';
import { journeyTimers } from '../services/journeys/runtime.ts';
import { startWorker, type Outcome, type Worker } from './run.ts';
import { asSystem, type SystemContext } from './system.ts';
import type { Task } from './task.ts';

/** Every task the service runs. A task missing here is never claimed: its jobs wait. */
export const serviceTasks: readonly Task<any, SystemContext>[] = [deliverNotification, deliverWebhook, expireQuestionExport, finishOverduePlay, removeResultsExport, expireCertificateLink, journeyTimers];

/**
 * The service's background work, as the system. The queue lives in the database, so work
 * enqueued before a crash is picked up after the restart by whichever instance gets there first.
 */
export function startWorkers(
  platform: Platform,
  intervalMs = platform.config.WORKER_INTERVAL_MS,
  /** Told what became of each job (metrics). */
  onOutcome?: (outcome: Outcome) => void,
): Worker {
  const concurrency = platform.config.WORKER_CONCURRENCY;
  const worker = startWorker(asSystem(platform), serviceTasks, { intervalMs, concurrency, onOutcome });
  platform.log.info({ worker: worker.name, tasks: serviceTasks.map((t) => t.name), intervalMs, concurrency }, 'worker started');
  return worker;
}
