import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import pg from 'pg';
import { MIGRATIONS_DIR, migrate } from '../../src/db/migrate.ts';
import { freshPGlite, migrationStatus, pgliteMigrationFactory, schemaDrift } from '../../src/db/schema-engine.ts';

const SCHEMA_PATH = path.resolve(MIGRATIONS_DIR, '../schema.prisma');
const DATABASE_URL = process.env.DATABASE_URL ?? '';
const TIMEOUT = 120_000; // each shadow database is a fresh PGlite

async function migrationFolders(dir = MIGRATIONS_DIR): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
}

/** What Prisma stores in `_prisma_migrations.checksum`: sha256 of the migration.sql bytes. */
async function checksum(folder: string, dir = MIGRATIONS_DIR): Promise<string> {
  return createHash('sha256').update(await readFile(path.join(dir, folder, 'migration.sql'))).digest('hex');
}

type MigrationRow = {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
  logs: string | null;
};
const ROWS_SQL = `SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count, logs
                  FROM _prisma_migrations ORDER BY migration_name`;

async function expectAppliedOnce(rows: MigrationRow[]) {
  const folders = await migrationFolders();
  expect(rows.map((r) => r.migration_name)).toEqual(folders);
  for (const row of rows) {
    expect(row.finished_at).toBeInstanceOf(Date);
    expect(row.rolled_back_at).toBeNull();
    expect(row.applied_steps_count).toBe(1);
    expect(row.checksum).toBe(await checksum(row.migration_name));
  }
}

describe('migrations', () => {
  it('the checked-in migrations produce exactly schema.prisma (no drift)', { timeout: TIMEOUT }, async () => {
    expect(await migrationFolders()).not.toHaveLength(0);
    expect(await schemaDrift({ migrationsDir: MIGRATIONS_DIR, schemaPath: SCHEMA_PATH })).toBe('');

    // Control: a schema change the migrations lack is reported as the SQL that is missing.
    const dir = await mkdtemp(path.join(tmpdir(), 'drift-'));
    try {
      const changed = path.join(dir, 'schema.prisma');
      const schema = await readFile(SCHEMA_PATH, 'utf8');
      await writeFile(changed, schema.replace(/model Language \{/, 'model Language {\n  driftProbe String?'));
      const drift = await schemaDrift({ migrationsDir: MIGRATIONS_DIR, schemaPath: changed });
      expect(drift).toMatch(/ALTER TABLE "Language" ADD COLUMN\s+"driftProbe" TEXT/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('applies every migration once on a fresh PGlite, and nothing on a restart', { timeout: TIMEOUT }, async () => {
    const pglite = await freshPGlite();
    try {
      expect(await migrate({ kind: 'pglite', pglite })).toEqual(await migrationFolders());
      expect(await migrate({ kind: 'pglite', pglite })).toEqual([]);

      const { rows } = await pglite.query<MigrationRow>(ROWS_SQL);
      await expectAppliedOnce(rows);
      const { rows: tables } = await pglite.query<{ t: string | null }>(`SELECT to_regclass('"User"')::text AS t`);
      expect(tables[0]?.t).toBe('"User"');
      const status = await migrationStatus({ adapterFactory: pgliteMigrationFactory(pglite), migrationsDir: MIGRATIONS_DIR });
      expect(status).toMatchObject({ history: null, failedMigrationNames: [], editedMigrationNames: [] });
    } finally {
      await pglite.close();
    }
  });

  it('fails loudly on a broken migration and does not record it as applied', { timeout: TIMEOUT }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    const pglite = await freshPGlite();
    try {
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      const broken = '29990101000000_broken';
      await mkdir(path.join(dir, broken));
      // The first statement succeeds and must be rolled back with the failing second one.
      await writeFile(
        path.join(dir, broken, 'migration.sql'),
        'CREATE TABLE "ShouldNotExist" (id INTEGER);\nSELECT * FROM "no_such_table";\n',
      );

      await expect(migrate({ kind: 'pglite', pglite }, dir)).rejects.toThrow(/no_such_table/);

      const { rows } = await pglite.query<MigrationRow>(ROWS_SQL);
      const good = rows.filter((r) => r.migration_name !== broken);
      await expectAppliedOnce(good);
      const failed = rows.find((r) => r.migration_name === broken);
      expect(failed).toMatchObject({ finished_at: null, applied_steps_count: 0 });
      expect(failed?.logs).toMatch(/no_such_table/);
      const { rows: tables } = await pglite.query<{ t: string | null }>(`SELECT to_regclass('"ShouldNotExist"')::text AS t`);
      expect(tables[0]?.t).toBeNull();

      // A restart does not skip past the failure: it keeps failing until the migration is resolved.
      await expect(migrate({ kind: 'pglite', pglite }, dir)).rejects.toThrow(/failed/);
      const status = await migrationStatus({ adapterFactory: pgliteMigrationFactory(pglite), migrationsDir: dir });
      expect(status.failedMigrationNames).toEqual([broken]);
    } finally {
      await pglite.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.runIf(/^postgres(ql)?:\/\//.test(DATABASE_URL))(
    'applies every migration once on PostgreSQL, in a schema of its own',
    { timeout: TIMEOUT },
    async () => {
      const schema = `test_migrations_${randomBytes(6).toString('hex')}`;
      const url = new URL(DATABASE_URL);
      url.searchParams.set('schema', schema);
      const admin = new pg.Client({ connectionString: DATABASE_URL.replace(/\?.*$/, '') });
      await admin.connect();
      try {
        // Two instances starting together: the engine's advisory lock lets exactly one apply.
        const [a, b] = await Promise.all([
          migrate({ kind: 'postgres', url: url.toString() }),
          migrate({ kind: 'postgres', url: url.toString() }),
        ]);
        expect([...a, ...b]).toEqual(await migrationFolders());
        expect(await migrate({ kind: 'postgres', url: url.toString() })).toEqual([]);

        const { rows } = await admin.query<MigrationRow>(ROWS_SQL.replace('_prisma_migrations', `"${schema}"._prisma_migrations`));
        await expectAppliedOnce(rows);
        const { rows: tables } = await admin.query<{ t: string | null }>(`SELECT to_regclass('"${schema}"."User"')::text AS t`);
        expect(tables[0]?.t).toBe(`${schema}."User"`);
      } finally {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.end();
      }
    },
  );
});
