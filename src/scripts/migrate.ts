// Migration CLI (replaces `prisma migrate …`, whose native schema engine cannot be downloaded here).
//
//   tsx src/scripts/migrate.ts deploy        apply pending migrations to DATABASE_URL (postgres://…)
//                                       or else to the PGlite data directory ${DATA_DIR:-./data}/db
//   tsx src/scripts/migrate.ts dev [name]    create prisma/migrations/<timestamp>_<name> from the schema
//                                       diff (an in-memory PGlite is the database: no server needed)
//   tsx src/scripts/migrate.ts status        compare the migrations folder with the database
//   tsx src/scripts/migrate.ts diff          print SQL the migrations lack versus schema.prisma; exit 1 if any
import path from 'node:path';
import { openDatabase } from '../db/client.ts';
import { MIGRATIONS_DIR, migrate, type MigrateTarget } from '../db/migrate.ts';
import { labelOf, migrationReport, type StatusTarget } from '../db/migration-report.ts';
import { createMigration, freshPGlite, pgliteMigrationFactory, schemaDrift } from '../db/schema-engine.ts';

const SCHEMA_PATH = path.resolve(MIGRATIONS_DIR, '../schema.prisma');

/** The configured database: DATABASE_URL when it is a PostgreSQL URL, otherwise the embedded one on disk. */
function configuredTarget(): StatusTarget {
  const url = process.env.DATABASE_URL ?? '';
  return /^postgres(ql)?:\/\//.test(url) ? { kind: 'postgres', url } : { kind: 'pglite', dataDir: path.resolve(process.env.DATA_DIR || './data') };
}

async function openTarget(): Promise<{ target: MigrateTarget; label: string; close(): Promise<void> }> {
  const target = configuredTarget();
  if (target.kind === 'postgres') return { target, label: labelOf(target), close: async () => {} };
  // openDatabase takes the data directory's lock file: PGlite is single-process, so migrating
  // while the service has ${DATA_DIR}/db open would lose writes. It opens ${DATA_DIR}/db.
  const database = await openDatabase(target);
  return { target: { kind: 'pglite', pglite: database.pglite! }, label: labelOf(target), close: () => database.close() };
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
      const report = await migrationReport(configuredTarget());
      for (const line of report.lines) console.log(line);
      return report.upToDate ? 0 : 1;
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
