// What `_prisma_migrations` says, read with one plain query: enough to tell "nothing to do" at
// start (the common case) without loading Prisma's schema engine, whose WebAssembly module costs
// tens of megabytes and a few hundred milliseconds. Anything else (pending, failed or rolled-back
// rows) goes to the engine, which owns the semantics.
import { readdir } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** Folder names under prisma/migrations, in the order they apply (an absent folder: none). */
export async function migrationNames(migrationsDir: string): Promise<string[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
}

export interface MigrationState {
  /** Whether `_prisma_migrations` exists at all (no: nothing was ever applied here). */
  initialised: boolean;
  /** Finished and not rolled back. */
  applied: Set<string>;
  /** Started but neither finished nor rolled back: the engine refuses to go on until resolved. */
  failed: string[];
}

export type Query = (sql: string) => Promise<Record<string, unknown>[]>;

const EXISTS = `SELECT to_regclass('_prisma_migrations') IS NOT NULL AS "present"`;
const ROWS = `SELECT "migration_name" AS "name", "finished_at" IS NOT NULL AS "finished", "rolled_back_at" IS NOT NULL AS "rolledBack" FROM "_prisma_migrations"`;

/** The state, through any way of running a query (the service's own Prisma client, for readiness). */
export async function readState(query: Query): Promise<MigrationState> {
  const [exists] = await query(EXISTS);
  if (!exists?.present) return { initialised: false, applied: new Set(), failed: [] };
  const rows = (await query(ROWS)) as { name: string; finished: boolean; rolledBack: boolean }[];
  return {
    initialised: true,
    applied: new Set(rows.filter((r) => r.finished && !r.rolledBack).map((r) => r.name)),
    failed: rows.filter((r) => !r.finished && !r.rolledBack).map((r) => r.name),
  };
}

/** The state of an embedded database. */
export function pgliteMigrationState(pglite: PGlite): Promise<MigrationState> {
  return readState(async (sql) => (await pglite.query<Record<string, unknown>>(sql)).rows);
}

/**
 * The state of a PostgreSQL database (`?schema=name` selects the schema, as everywhere). A schema
 * that does not exist reads as "nothing applied"; nothing is created.
 */
export async function postgresMigrationState(url: string): Promise<MigrationState> {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  const client = new pg.Client({
    connectionString: parsed.toString(),
    ...(schema ? { options: `-c search_path="${schema.replaceAll('"', '""')}"` } : {}),
  });
  await client.connect();
  try {
    return await readState(async (sql) => (await client.query(sql)).rows);
  } finally {
    await client.end();
  }
}

/** The folder's migrations not applied yet; empty with no failed row means there is nothing to do. */
export function pendingOf(names: readonly string[], state: MigrationState): string[] {
  return names.filter((name) => !state.applied.has(name));
}
