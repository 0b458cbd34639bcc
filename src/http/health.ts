import type { Platform } from '../context.ts';
import { MIGRATIONS_DIR } from '../db/migrate.ts';
import { migrationNames, pendingOf, readState } from '../db/migration-state.ts';
import type { SimpleResponse } from './pages.ts';

const json = (status: number, value: unknown): SimpleResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  body: JSON.stringify(value),
});

type Phase = 'starting' | 'ready' | 'stopping';

/**
 * The health endpoints. `/health/live` says the process answers (restart it when it does not);
 * `/health/ready` says it should get traffic: started, not stopping, the database answers, every
 * migration in prisma/migrations is applied (another instance may have migrated further, or a
 * migration may have failed since) and the job workers run. `/health` keeps its earlier answer
 * (pages.ts).
 */
export class Health {
  private phase: Phase;
  /** The folder does not change while the process runs: read once. */
  private names?: Promise<string[]>;

  constructor(
    private readonly platform: Platform,
    ready: boolean,
    private readonly workers?: { readonly running: boolean },
  ) {
    this.phase = ready ? 'ready' : 'starting';
  }

  markReady(): void {
    if (this.phase === 'starting') this.phase = 'ready';
  }

  markStopping(): void {
    this.phase = 'stopping';
  }

  /** Past start-up (stopping included): what `/health` has always reported on. */
  get started(): boolean {
    return this.phase !== 'starting';
  }

  live(): SimpleResponse {
    return json(200, { status: 'ok' });
  }

  async ready(): Promise<SimpleResponse> {
    if (this.phase !== 'ready') return json(503, { status: this.phase });
    const workers = this.workers?.running ? 'running' : 'stopped';
    let database = 'ok';
    let migrations = 'ok';
    try {
      this.names ??= migrationNames(MIGRATIONS_DIR);
      const state = await readState((sql) => this.platform.db.$queryRawUnsafe<Record<string, unknown>[]>(sql));
      if (state.failed.length > 0) migrations = 'failed';
      else if (pendingOf(await this.names, state).length > 0) migrations = 'pending';
    } catch {
      database = 'unreachable';
      migrations = 'unknown';
    }
    const ok = database === 'ok' && migrations === 'ok' && workers === 'running';
    return json(ok ? 200 : 503, { status: ok ? 'ready' : 'not ready', database, migrations, workers });
  }
}
