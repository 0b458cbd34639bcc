import { createHash, timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Platform } from '../context.ts';
import { queueStats } from '../jobs/queue.ts';
import type { Outcome } from '../jobs/run.ts';
import { serviceTasks } from '../jobs/workers.ts';
import { deliverWebhook } from '../services/webhooks/delivery.ts';
import { BoundedLabel, LatencyHistogram } from './metric-series.ts';
import type { SimpleResponse } from './pages.ts';

/** What a connection pool tells (pg.Pool on PostgreSQL); the embedded database has one connection and no pool. */
export interface PoolStats {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { max?: number };
}

const METRICS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The Prometheus metrics of one service instance, served at GET /metrics. Request series are
 * recorded on the request path without allocating (LatencyHistogram); everything read from the
 * database (the job queue) is read when Prometheus scrapes, not per request.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly rest = new LatencyHistogram(
    'rest_request_duration_seconds',
    'REST contract calls by method, endpoint (_unknown for none of the contract) and HTTP status',
    ['method', 'endpoint', 'status'],
  );
  private readonly graphql = new LatencyHistogram(
    'graphql_request_duration_seconds',
    'GraphQL requests by operation name (_anonymous, _other past 100 names), operation type and HTTP status',
    ['operation', 'type', 'status'],
  );
  private readonly operationNames = new BoundedLabel(100);
  private readonly graphqlErrors: Counter<'code'>;
  private readonly jobRuns: Counter<'task' | 'outcome'>;
  private readonly webhookDeliveries: Counter<'outcome'>;
  private readonly queue: Record<'pending' | 'due' | 'running' | 'failed' | 'oldest', Gauge<'task'>>;
  private readonly token?: Buffer;

  constructor(
    private readonly platform: Platform,
    options: { pool?: PoolStats } = {},
  ) {
    const registers = [this.registry];
    if (platform.config.METRICS_TOKEN) this.token = digest(platform.config.METRICS_TOKEN);
    // Process CPU and memory, heap, GC, handles and event loop lag (nodejs_eventloop_lag_*).
    collectDefaultMetrics({ register: this.registry });
    this.registry.registerMetric(this.rest as never);
    this.registry.registerMetric(this.graphql as never);
    this.graphqlErrors = new Counter({ name: 'graphql_errors_total', help: 'Errors in GraphQL responses by error code', labelNames: ['code'], registers });
    this.jobRuns = new Counter({
      name: 'job_runs_total',
      help: 'Jobs this instance ran, by task and outcome (completed, retrying, failed, lost)',
      labelNames: ['task', 'outcome'],
      registers,
    });
    this.webhookDeliveries = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome (delivered, skipped, retrying, failed, lost)',
      labelNames: ['outcome'],
      registers,
    });
    const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames: ['task'], registers });
    this.queue = {
      pending: gauge('jobs_pending', 'Jobs waiting, due or not, by task (the whole queue, every instance)'),
      due: gauge('jobs_due', 'Jobs due now and not running, by task'),
      running: gauge('jobs_running', 'Jobs running, by task'),
      failed: gauge('jobs_failed', 'Jobs failed for good and kept for inspection, by task'),
      oldest: gauge('jobs_oldest_due_seconds', 'How long the longest-waiting due job has waited, by task (0: none due)'),
    };
    const pool = options.pool;
    if (pool) {
      new Gauge({
        name: 'db_pool_connections',
        help: 'Connections of the PostgreSQL pool by state (total, idle, waiting: requests queued for a connection)',
        labelNames: ['state'],
        registers,
        collect() {
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'waiting' }, pool.waitingCount);
        },
      });
      new Gauge({ name: 'db_pool_max', help: 'Size limit of the PostgreSQL pool', registers }).set(pool.options.max ?? 10);
    }
  }

  /** One REST call; `endpoint` is '' when the path named no operation of the contract. */
  recordRest(method: string, endpoint: string, status: number, ms: number): void {
    this.rest.observe(ms / 1000, method, endpoint || '_unknown', status);
  }

  /** One GraphQL request; `errorCodes` only when the response carried errors. */
  recordGraphQL(operation: string | undefined, type: string, status: number, ms: number, errorCodes?: readonly string[]): void {
    this.graphql.observe(ms / 1000, operation ? this.operationNames.of(operation) : '_anonymous', type, status);
    if (errorCodes) for (const code of errorCodes) this.graphqlErrors.inc({ code });
  }

  /** What became of a job a worker of this instance ran. */
  recordJob(outcome: Outcome): void {
    this.jobRuns.inc({ task: outcome.task, outcome: outcome.status });
    if (outcome.task === deliverWebhook.name) {
      this.webhookDeliveries.inc({ outcome: outcome.status === 'completed' ? String(outcome.result) : outcome.status });
    }
  }

  /** `GET /metrics`, behind METRICS_TOKEN when it is set. */
  async page(authorization: string | undefined): Promise<SimpleResponse> {
    if (this.token && !this.authorized(authorization)) {
      return {
        status: 401,
        headers: { 'content-type': 'application/json; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"' },
        body: JSON.stringify({ error: { code: 'UNAUTHORIZED', message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>' } }),
      };
    }
    await this.readQueue();
    return { status: 200, headers: { 'content-type': METRICS_TYPE, 'cache-control': 'no-store' }, body: await this.registry.metrics() };
  }

  private authorized(header: string | undefined): boolean {
    const m = header && /^Bearer\s+(\S+)\s*$/i.exec(header);
    return !!m && timingSafeEqual(digest(m[1]!), this.token!);
  }

  /** The queue as the database has it now; a database that does not answer leaves the last values. */
  private async readQueue(): Promise<void> {
    let stats: Awaited<ReturnType<typeof queueStats>>;
    try {
      stats = await queueStats(this.platform.db);
    } catch (err) {
      this.platform.log.warn({ err }, 'metrics: reading the job queue failed');
      return;
    }
    for (const gauge of Object.values(this.queue)) {
      gauge.reset();
      // Every task the service runs has its series, at 0 when it has no jobs.
      for (const task of serviceTasks) gauge.set({ task: task.name }, 0);
    }
    for (const [task, s] of Object.entries(stats.tasks)) {
      this.queue.pending.set({ task }, s.pending);
      this.queue.due.set({ task }, s.due);
      this.queue.running.set({ task }, s.running);
      this.queue.failed.set({ task }, s.failed);
      this.queue.oldest.set({ task }, (s.oldestDueMs ?? 0) / 1000);
    }
  }
}
