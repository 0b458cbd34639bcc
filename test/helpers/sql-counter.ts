import pg from 'pg';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { TestApp } from './app.ts';

export interface StatementCount<T> {
  result: T;
  /** SQL statements sent to the database while `fn` ran (BEGIN and COMMIT included). */
  count: number;
  /** Their text, in order, to show what ran when a count is off. */
  statements: string[];
}

/**
 * Counts the SQL statements `fn` causes, at the driver, below Prisma: a nested GraphQL query that
 * Prisma answers with one statement per relation level counts that many, however many rows it
 * returns. On PGlite the instance's query/exec (and those of its transactions) are wrapped; on
 * PostgreSQL `pg.Client#query`, which every pooled connection of the Prisma adapter goes through.
 * Tests of one file run one at a time, so nothing else is counted by mistake. The instance
 * settings are re-read whenever their short cache lapses, which may fall inside any counted call:
 * those reads belong to no request and are left out.
 */
const SETTINGS_READ = /"(InstanceSetting|Language)"/;

export async function countStatements<T>(t: TestApp, fn: () => Promise<T>): Promise<StatementCount<T>> {
  const statements: string[] = [];
  const note = (sql: unknown) => {
    const text = typeof sql === 'string' ? sql : String((sql as { text?: unknown })?.text ?? sql);
    if (!SETTINGS_READ.test(text)) statements.push(text);
  };
  const restore = t.db.pglite ? watchPGlite(t.db.pglite, note) : watchPg(note);
  try {
    const result = await fn();
    return { result, count: statements.length, statements };
  } finally {
    restore();
  }
}

/** Told of each statement as it is sent; what it returns, if anything, is called once the statement is done. */
type Note = (sql: unknown) => void | (() => void);

/** Replaces `query` and `exec` of a PGlite instance or transaction by noting versions. */
function watchQueries(target: Pick<PGlite, 'query' | 'exec'>, note: Note): void {
  const noted =
    (original: (...a: unknown[]) => Promise<unknown>) =>
    (sql: string, ...rest: unknown[]) => {
      const done = note(sql);
      const result = original.call(target, sql, ...rest);
      return done ? result.finally(done) : result;
    };
  target.query = noted(target.query as never) as PGlite['query'];
  target.exec = noted(target.exec as never) as PGlite['exec'];
}

/**
 * Notes every statement of an embedded database until the returned function is called, those of
 * its transactions included (with the BEGIN and COMMIT or ROLLBACK PGlite sends itself).
 */
export function watchPGlite(db: PGlite, note: Note): () => void {
  const transaction = db.transaction;
  watchQueries(db, note);
  // PGlite sends BEGIN and COMMIT (or ROLLBACK) itself; the statements between go through `tx`.
  db.transaction = (<R>(callback: (tx: Transaction) => Promise<R>) =>
    transaction.call(db, (tx: Transaction) => {
      note('BEGIN')?.();
      watchQueries(tx, note);
      return callback(tx).then(
        (result) => {
          note(tx.closed ? 'ROLLBACK' : 'COMMIT')?.();
          return result;
        },
        (error: unknown) => {
          note('ROLLBACK')?.();
          throw error;
        },
      );
    })) as PGlite['transaction'];
  // The wrappers are own properties in front of the class's methods: removing them restores those.
  return () => {
    delete (db as Partial<PGlite>).query;
    delete (db as Partial<PGlite>).exec;
    delete (db as Partial<PGlite>).transaction;
  };
}

function watchPg(note: Note): () => void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    note(args[0]);
    return query.apply(this, args);
  };
  return () => {
    proto.query = query;
  };
}
