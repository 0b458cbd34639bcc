// Migration CLI (replaces `prisma migrate …`, whose native schema engine cannot be downloaded here).
//
//   tsx src/scripts/migrate.ts deploy        apply pending migrations to DATABASE_URL (postgres://…)
//                                       or else to the PGlite data directory ${DATA_DIR:-./data}/db
//   tsx src/scripts/migrate.ts dev [name]    create prisma/migrations/<timestamp>_<name> from the schema
//                                       diff (an in-memory PGlite is the database: no server needed)
//   tsx src/scripts/migrate.ts status        compare the migrations folder with the database
//   tsx src/scripts/migrate.ts diff          print SQL the migrations lack versus schema.prisma; exit 1 if any
import { existsSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../db/client.ts';
import { MIGRATIONS_DIR, migrate, type MigrateTarget } from '../db/migrate.ts';
import { migrationNames, postgresMigrationState } from '../db/migration-state.ts';
import {
  createMigration,
  freshPGlite,
  migrationStatus,
  pgliteMigrationFactory,
  postgresMigrationFactory,
  schemaDrift,
} from '../db/schema-engine.ts';

const SCHEMA_PATH = path.resolve(MIGRATIONS_DIR, '../schema.prisma');

/** DATABASE_URL when it is a PostgreSQL URL, otherwise the embedded database on disk. */
async function openTarget(): Promise<{ target: MigrateTarget; label: string; close(): Promise<void> }> {
  const url = process.env.DATABASE_URL ?? '';
  if (/^postgres(ql)?:\/\//.test(url)) {
    return { target: { kind: 'postgres', url }, label: redact(url), close: async () => {} };
  }
  // openDatabase takes the data directory's lock file: PGlite is single-process, so migrating
  // while the service has ${DATA_DIR}/db open would lose writes. It opens ${DATA_DIR}/db.
  const dataDir = path.resolve(process.env.DATA_DIR || './data');
  const database = await openDatabase({ kind: 'pglite', dataDir });
  return {
    target: { kind: 'pglite', pglite: database.pglite! },
    label: `PGlite ${path.join(dataDir, 'db')}`,
    close: () => database.close(),
  };
}

/**
 * A description of the configured database when it does not exist yet (an embedded data directory
 * never initialised, a PostgreSQL schema without `_prisma_migrations`); undefined when it does.
 */
async function absentDatabase(): Promise<string | undefined> {
  const url = process.env.DATABASE_URL ?? '';
  if (/^postgres(ql)?:\/\//.test(url)) {
    return (await postgresMigrationState(url)).initialised ? undefined : `${redact(url)} (no _prisma_migrations table)`;
  }
  const dir = path.join(path.resolve(process.env.DATA_DIR || './data'), 'db');
  return existsSync(path.join(dir, 'PG_VERSION')) ? undefined : `PGlite ${dir} (does not exist)`;
}

function redact(url: string) {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

async function main(command: string | undefined, args: string[]): Promise<number> {
  switch (command) {
    case 'deploy': {
      const db = await openTarget();
      try {
        const applied = await migrate(db.target);
        console.log(
          applied.length
            ? `Applied ${applied.length} migration(s) to ${db.label}:\n${applied.map((n) => `  ${n}`).join('\n')}`
            : `No pending migrations (${db.label}).`,
        );
        return 0;
      } finally {
        await db.close();
      }
    }
    case 'dev': {
      const name = (args[0] ?? 'migration').replace(/[^A-Za-z0-9_]+/g, '_');
      const pglite = await freshPGlite();
      try {
        const folder = await createMigration({
          adapterFactory: pgliteMigrationFactory(pglite),
          schemaPath: SCHEMA_PATH,
          migrationsDir: MIGRATIONS_DIR,
          name,
        });
        console.log(
          folder
            ? `Created ${path.relative(process.cwd(), path.join(MIGRATIONS_DIR, folder, 'migration.sql'))}`
            : 'The schema matches the migrations: no migration created.',
        );
        return 0;
      } finally {
        await pglite.close();
      }
    }
    case 'status': {
      const absent = await absentDatabase();
      if (absent) {
        // Reported without creating anything: status only reads.
        const names = await migrationNames(MIGRATIONS_DIR);
        console.log(`Database: ${absent}`);
        for (const n of names) console.log(`  pending:  ${n}`);
        console.log(`No migration applied yet (${names.length} pending); the service applies them at start, or run \`npm run migrate\`.`);
        return 1;
      }
      const db = await openTarget();
      try {
        const adapterFactory =
          db.target.kind === 'pglite' ? pgliteMigrationFactory(db.target.pglite) : postgresMigrationFactory(db.target.url);
        const s = await migrationStatus({ adapterFactory, migrationsDir: MIGRATIONS_DIR });
        console.log(`Database: ${db.label}`);
        for (const n of s.failedMigrationNames) console.log(`  failed:   ${n}`);
        for (const n of s.editedMigrationNames) console.log(`  edited after it was applied: ${n}`);
        const h = s.history;
        if (h?.diagnostic === 'databaseIsBehind' || h?.diagnostic === 'historiesDiverge') {
          for (const n of h.unappliedMigrationNames) console.log(`  pending:  ${n}`);
        }
        if (h?.diagnostic === 'migrationsDirectoryIsBehind' || h?.diagnostic === 'historiesDiverge') {
          for (const n of h.unpersistedMigrationNames) console.log(`  applied but missing from the folder: ${n}`);
        }
        const clean = !h && !s.failedMigrationNames.length && !s.editedMigrationNames.length;
        console.log(clean ? 'Database schema is up to date.' : 'Database is not in sync with prisma/migrations.');
        return clean ? 0 : 1;
      } finally {
        await db.close();
      }
    }
    case 'diff': {
      const sql = await schemaDrift({ migrationsDir: MIGRATIONS_DIR, schemaPath: SCHEMA_PATH });
      if (!sql) {
        console.log('No drift: the migrations produce schema.prisma.');
        return 0;
      }
      console.log(sql);
      console.error('\nschema.prisma differs from the migrations; run `npm run migrate:dev -- <name>`.');
      return 1;
    }
    default:
      console.error('usage: tsx src/scripts/migrate.ts deploy | dev [name] | status | diff');
      return 2;
  }
}

main(process.argv[2], process.argv.slice(3)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
