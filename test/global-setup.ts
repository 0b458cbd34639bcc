import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { migrate } from '../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty embedded database, dumped once for the whole run; every test file loads a copy. */
    pgliteTemplate: string;
  }
}

/** Migrating a new embedded database takes seconds; loading a migrated dump takes a fraction. */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lp-test-'));
  const file = path.join(dir, 'template.tar');
  if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) {
    const pglite = new PGlite();
    await pglite.waitReady;
    await migrate({ kind: 'pglite', pglite });
    writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    await pglite.close();
  }
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
