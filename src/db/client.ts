import { mkdirSync, openSync, closeSync, writeSync, readFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';

export type Db = PrismaClient;

export type DatabaseTarget =
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'pglite-instance'; pglite: PGlite }
  | { kind: 'postgres'; url: string };

export interface Database {
  prisma: Db;
  /** The embedded engine, when this is one (migrations run on it directly). */
  pglite?: PGlite;
  /** The connection pool on PostgreSQL (its counts go to /metrics); the embedded database has none. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

/** The embedded database's directory is held by another living process (a running service). */
export class DatabaseInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`The database in ${dir} is in use by process ${pid}; stop it first or choose another DATA_DIR`);
  }
}

/** Directories this process holds: a lock file with our own pid is stale only if we do not. */
const lockedHere = new Set<string>();

/**
 * PGlite is one process with one connection: a second process opening the same directory would
 * silently lose writes. A lock file holding our pid makes the second one refuse instead.
 */
function lockDataDir(dir: string): () => void {
  // Our own pid in a lock file we did not write is a leftover of an earlier run that had the
  // same pid (pid 1 in a container); a second open in this process is refused like another's.
  if (lockedHere.has(dir)) throw new Error(`The database in ${dir} is already open in this process`);
  const lockPath = path.join(dir, 'service.lock');
  try {
    const fd = openSync(lockPath, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const pid = Number(readFileSync(lockPath, 'utf8'));
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new DatabaseInUseError(dir, pid);
    }
    // A stale lock from a process that died: take it over.
    unlinkSync(lockPath);
    return lockDataDir(dir);
  }
  lockedHere.add(dir);
  return () => {
    lockedHere.delete(dir);
    try {
      unlinkSync(lockPath);
    } catch {
      /* already gone */
    }
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PostgreSQL's default 128 MB of shared buffers lives in PGlite's WebAssembly memory and is
 * touched as pages are read, so the process grows by up to that much; one connection in one
 * process needs far less (measured: 16 MB takes ~140 MB off the resident size of the service).
 */
const EMBEDDED_SETTINGS = ['-c', 'shared_buffers=16MB'];

/**
 * A transaction waits up to `maxWait` for a connection (Prisma's default, 2 s, refuses much of a
 * burst such as an exam's synchronized start while the pool is busy) and may run for `timeout`
 * (a loaded machine slows every statement). Past either the caller is told SERVICE_BUSY with
 * Retry-After (errors.ts knownError) and nothing was changed.
 */
const TRANSACTIONS = { maxWait: 10_000, timeout: 20_000 };

/** Splits `?schema=name` off a PostgreSQL URL: pg does not know the parameter, Prisma's adapter takes it apart. */
export function parsePostgresUrl(url: string): { connectionString: string; schema?: string } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') ?? undefined;
  parsed.searchParams.delete('schema');
  return { connectionString: parsed.toString(), schema };
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') {
    const { connectionString, schema } = parsePostgresUrl(target.url);
    // The pool is made here, not by the adapter, so its counts can be read; the adapter still ends it.
    const pool = new pg.Pool({ connectionString, max: 10, ...(schema ? { options: `-c search_path="${schema}"` } : {}) });
    const adapter = new PrismaPg(pool, { ...(schema ? { schema } : {}), disposeExternalPool: true });
    const prisma = new PrismaClient({ adapter, transactionOptions: TRANSACTIONS });
    return {
      prisma,
      pool,
      async close() {
        await prisma.$disconnect();
        if (!pool.ended) await pool.end();
      },
    };
  }
  let pglite: PGlite;
  let unlock = () => {};
  if (target.kind === 'pglite') {
    const dir = path.resolve(target.dataDir);
    mkdirSync(dir, { recursive: true });
    unlock = lockDataDir(dir);
    try {
      pglite = await PGlite.create({ dataDir: path.join(dir, 'db'), startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS] });
    } catch (error) {
      unlock();
      throw error;
    }
  } else {
    pglite = target.pglite;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite), transactionOptions: TRANSACTIONS });
  return {
    prisma,
    pglite,
    async close() {
      await prisma.$disconnect();
      if (target.kind === 'pglite') await pglite.close();
      unlock();
    },
  };
}
