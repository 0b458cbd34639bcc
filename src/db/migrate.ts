// Applies pending migrations at service start.
//
// Why the schema engine itself, not a hand-written applier: loading the wasm engine costs
// 20–50 ms (instantiation compiles lazily), and applying the whole history in a cold process takes
// 50–100 ms on a fresh in-memory PGlite and 40–80 ms on PostgreSQL (measured; up to ~0.25 s on a
// loaded machine). That is well under the ~1 s budget, and the
// engine gives exactly `prisma migrate deploy` semantics for free: the `_prisma_migrations`
// bookkeeping (checksums, failed-migration rows with logs, refusal to continue after a failure,
// edited-migration detection) and, on PostgreSQL, the same advisory lock, so two instances starting
// together do not apply a migration twice.
import { projectRoot } from '../project-root.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { migrationNames, pendingOf, pgliteMigrationState, postgresMigrationState } from './migration-state.ts';

export type MigrateTarget = { kind: 'pglite'; pglite: PGlite } | { kind: 'postgres'; url: string };

/** prisma/migrations of the project this code belongs to (found as projectRoot says). */
export const MIGRATIONS_DIR = path.join(projectRoot(path.dirname(fileURLToPath(import.meta.url))), 'prisma', 'migrations');

export interface MigrateOptions {
  /** Called before each migration is applied (1-based `index` of `total` pending). */
  onApply?(migration: { name: string; index: number; total: number }): void;
}

/**
 * Applies the migrations not yet recorded in `_prisma_migrations` and returns their names.
 * Throws (with the database error) when one fails; the failed migration is recorded as failed,
 * not applied, and later starts keep failing until it is resolved. When one query shows nothing
 * pending and nothing failed, the schema engine is not even loaded (see migration-state.ts).
 */
export async function migrate(target: MigrateTarget, migrationsDir = MIGRATIONS_DIR, options: MigrateOptions = {}): Promise<string[]> {
  const names = await migrationNames(migrationsDir);
  const state = target.kind === 'pglite' ? await pgliteMigrationState(target.pglite) : await postgresMigrationState(target.url);
  if (state.failed.length === 0 && pendingOf(names, state).length === 0) return [];
  const { applyMigrations, pgliteMigrationFactory, postgresMigrationFactory } = await import('./schema-engine.ts');
  const adapterFactory =
    target.kind === 'pglite' ? pgliteMigrationFactory(target.pglite) : postgresMigrationFactory(target.url);
  return applyMigrations({ adapterFactory, migrationsDir, onApply: options.onApply });
}
