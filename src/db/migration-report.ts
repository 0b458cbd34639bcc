// What `migrate status` reports, for the migration script and the operators' command line alike:
// the configured database against prisma/migrations, read without changing anything.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from './client.ts';
import { MIGRATIONS_DIR } from './migrate.ts';
import { migrationNames, postgresMigrationState } from './migration-state.ts';

export type StatusTarget = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };

export interface MigrationReport {
  /** `Database: …`, then one line per migration that is not simply applied, then the verdict. */
  lines: string[];
  upToDate: boolean;
}

/**
 * The report. A database that does not exist yet (an embedded directory never initialised, a
 * PostgreSQL schema without `_prisma_migrations`) is reported as such and not created. The
 * embedded database is opened with its lock: while another process holds it, openDatabase
 * throws DatabaseInUseError.
 */
export async function migrationReport(target: StatusTarget, migrationsDir = MIGRATIONS_DIR): Promise<MigrationReport> {
  const absent = await absentDatabase(target);
  if (absent) {
    const names = await migrationNames(migrationsDir);
    return {
      lines: [
        `Database: ${absent}`,
        ...names.map((n) => `  pending:  ${n}`),
        `No migration applied yet (${names.length} pending); the service applies them at start, or run \`npm run migrate\`.`,
      ],
      upToDate: false,
    };
  }
  const { migrationStatus, pgliteMigrationFactory, postgresMigrationFactory } = await import('./schema-engine.ts');
  const database = target.kind === 'pglite' ? await openDatabase(target) : undefined;
  try {
    const adapterFactory = database ? pgliteMigrationFactory(database.pglite!) : postgresMigrationFactory((target as { url: string }).url);
    const s = await migrationStatus({ adapterFactory, migrationsDir });
    const lines = [`Database: ${labelOf(target)}`];
    for (const n of s.failedMigrationNames) lines.push(`  failed:   ${n}`);
    for (const n of s.editedMigrationNames) lines.push(`  edited after it was applied: ${n}`);
    const h = s.history;
    if (h?.diagnostic === 'databaseIsBehind' || h?.diagnostic === 'historiesDiverge') {
      for (const n of h.unappliedMigrationNames) lines.push(`  pending:  ${n}`);
    }
    if (h?.diagnostic === 'migrationsDirectoryIsBehind' || h?.diagnostic === 'historiesDiverge') {
      for (const n of h.unpersistedMigrationNames) lines.push(`  applied but missing from the folder: ${n}`);
    }
    const upToDate = !h && !s.failedMigrationNames.length && !s.editedMigrationNames.length;
    lines.push(upToDate ? 'Database schema is up to date.' : 'Database is not in sync with prisma/migrations.');
    return { lines, upToDate };
  } finally {
    await database?.close();
  }
}

export function labelOf(target: StatusTarget): string {
  return target.kind === 'postgres' ? redact(target.url) : `PGlite ${path.join(path.resolve(target.dataDir), 'db')}`;
}

async function absentDatabase(target: StatusTarget): Promise<string | undefined> {
  if (target.kind === 'postgres') {
    return (await postgresMigrationState(target.url)).initialised ? undefined : `${redact(target.url)} (no _prisma_migrations table)`;
  }
  return existsSync(path.join(path.resolve(target.dataDir), 'db', 'PG_VERSION')) ? undefined : `${labelOf(target)} (does not exist)`;
}

export function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
