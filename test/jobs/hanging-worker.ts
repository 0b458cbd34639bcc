// A worker that claims one job of the task `kit.takeover` and then hangs while holding it (its
// lease renewed, as a live worker's is), until it is killed. Run by kit-instances.test.ts:
//   node --import tsx test/jobs/hanging-worker.ts   (DATABASE_URL names the test's schema)
import { pino } from 'pino';
import { z } from 'zod';
import { openDatabase } from '../../src/db/client.ts';
import { runDue } from '../../src/jobs/run.ts';
import { defineTask, type JobEnv } from '../../src/jobs/task.ts';

const database = await openDatabase({ kind: 'postgres', url: process.env.DATABASE_URL! });
const takeover = defineTask(
  'kit.takeover',
  z.object({}),
  async (env: JobEnv, _payload, job) => {
    // kit-instances.test.ts's own KitLog table, in SQL.
    await env.db.$executeRaw`INSERT INTO "KitLog" ("job", "note") VALUES (${job.id}, ${`started attempt ${job.attempt}`})`;
    await new Promise(() => {});
  },
  { leaseMs: Number(process.env.LEASE_MS) },
);
// Keeps the process alive whatever the connection pool does with idle connections.
setInterval(() => {}, 1000);
await runDue({ db: database.prisma, log: pino({ level: 'silent' }) }, [takeover], { worker: 'hanging-worker', limit: 1 });
