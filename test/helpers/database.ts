import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';

/** True when the suite runs against a PostgreSQL server (DATABASE_URL), false for embedded PGlite. */
export const onPostgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');

export interface TestDatabase extends Database {
  /** The URL of this test's own schema, on PostgreSQL. */
  url?: string;
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or on PostgreSQL a schema of
 * its own that is dropped again on close.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!onPostgres) {
    const pglite = new PGlite({ loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) });
    const database = await openDatabase({ kind: 'pglite-instance', pglite });
    return {
      ...database,
      async close() {
        await database.close();
        await pglite.close();
      },
    };
  }
  const base = process.env.DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  await migrate({ kind: 'postgres', url: url.toString() });
  const database = await openDatabase({ kind: 'postgres', url: url.toString() });
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP SCHEMA "${schema}" CASCADE`);
      await client.end();
    },
  };
}
