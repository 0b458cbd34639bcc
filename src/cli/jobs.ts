import { z } from 'zod';
import { JOB_STATUSES, listJobs, retryFailedJob } from '../jobs/queue.ts';
import { text } from '../services/validation.ts';
import { commandHelp, parse, RefusedError, validate, withPlatform, type Command } from './command-line.ts';

const listInput = z.object({
  status: z.enum(JOB_STATUSES, { message: `must be one of ${JOB_STATUSES.join(', ')}` }).optional(),
  task: text(1, 100).optional(),
  limit: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(1, 'must be 1 to 1000').max(1000, 'must be 1 to 1000').default(50),
});
const retryInput = z.object({ job: text(1, 64) });

const COLUMNS = ['id', 'task', 'status', 'attempts', 'run at', 'failed at', 'last error'] as const;

/** Rows as columns padded to their widest cell, the last one as it is. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]! + 2))).join('').trimEnd() + '\n').join('');
}

/** The first line of an error, cut to fit a row. */
const brief = (error: string | null) => {
  const line = (error ?? '').split('\n')[0]!;
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
};

export const listJobsCommand: Command = {
  synopsis: 'jobs [--status pending|running|failed] [--task T] [--limit N]',
  summary:
    '    Lists the durable jobs (webhook deliveries, notifications, timers, clean-ups) that are waiting,\n' +
    '    running or failed, the first due first (at most --limit, default 50). Done jobs are not kept.',
  async run(argv, io) {
    const values = parse(argv, { status: { type: 'string' }, task: { type: 'string' }, limit: { type: 'string' } });
    if (values.help) return commandHelp(this);
    const filter = validate(listInput, { status: values.status, task: values.task, limit: values.limit }, []);
    const jobs = await withPlatform(io, (platform) => listJobs(platform.db, filter));
    if (jobs.length === 0) return 'No jobs.\n';
    const rows = jobs.map((j) => [j.id, j.task, j.status, String(j.attempts), j.runAt.toISOString(), j.failedAt?.toISOString() ?? '-', brief(j.lastError)]);
    const more = jobs.length === filter.limit ? `(the first ${filter.limit}; --limit shows more)\n` : '';
    return table([[...COLUMNS], ...rows]) + more;
  },
};

export const retryJobCommand: Command = {
  synopsis: 'retry-job --job <job_ id>',
  summary: '    Puts a failed job back in the queue, due now, with its attempts counted afresh.',
  async run(argv, io) {
    const values = parse(argv, { job: { type: 'string' } });
    if (values.help) return commandHelp(this);
    const { job } = validate(retryInput, { job: values.job }, ['job']);
    const outcome = await withPlatform(io, (platform) => retryFailedJob(platform.db, job));
    if (outcome === 'unknown') throw new RefusedError(`no job '${job}' (a job that is done is not kept)`);
    if (outcome === 'not failed') throw new RefusedError(`job '${job}' has not failed: only a failed job is retried`);
    return `job ${job}: pending, due now\n`;
  },
};
