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
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { applyMigrations, pgliteMigrationFactory, postgresMigrationFactory } from './schema-engine.ts';

export type MigrateTarget = { kind: 'pglite'; pglite: PGlite } | { kind: 'postgres'; url: string };

/** prisma/migrations, resolved from this file so the working directory does not matter. */
export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../prisma/migrations');

/**
 * Applies the migrations not yet recorded in `_prisma_migrations` and returns their names.
 * Throws (with the database error) when one fails; the failed migration is recorded as failed,
 * not applied, and later starts keep failing until it is resolved.
 */
export async function migrate(target: MigrateTarget, migrationsDir = MIGRATIONS_DIR): Promise<string[]> {
  const adapterFactory =
    target.kind === 'pglite' ? pgliteMigrationFactory(target.pglite) : postgresMigrationFactory(target.url);
  return applyMigrations({ adapterFactory, migrationsDir });
}
