import { loadConfig } from '../config.ts';
import { DatabaseInUseError } from '../db/client.ts';
import { labelOf, migrationReport } from '../db/migration-report.ts';
import { commandHelp, parse, RefusedError, type Command } from './command-line.ts';

/** Exit code 1 with the report on stdout: the database is behind, ahead or failed. */
export class NotInSyncError extends RefusedError {
  constructor(readonly report: string) {
    super('');
  }
}

const HEALTH_TIMEOUT_MS = 2_000;

/**
 * What the service holding the embedded database says of its migrations (its /health/ready
 * `migrations` field: ok, pending, failed), or undefined when it does not answer.
 */
async function serviceMigrations(url: string): Promise<string | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    const body = (await response.json()) as { migrations?: unknown };
    return typeof body.migrations === 'string' ? body.migrations : undefined;
  } catch {
    return undefined;
  }
}

export const migrateStatusCommand: Command = {
  synopsis: 'migrate-status',
  summary:
    '    Compares the database with prisma/migrations, changing nothing; exit code 1 when it is not up to date.\n' +
    '    While a running service holds the embedded database, asks that service (BASE_URL /health/ready).',
  async run(argv, io) {
    const values = parse(argv, {});
    if (values.help) return commandHelp(this);
    const config = loadConfig(io.env);
    try {
      const report = await migrationReport(config.database);
      const text = report.lines.map((l) => `${l}\n`).join('');
      if (!report.upToDate) throw new NotInSyncError(text);
      return text;
    } catch (error) {
      if (!(error instanceof DatabaseInUseError)) throw error;
      // PGlite admits one process: the holder is the only one that can read the database now.
      const url = `${config.baseUrl}/health/ready`;
      const migrations = await serviceMigrations(url);
      if (migrations === undefined) {
        throw new RefusedError(
          `The embedded database in ${error.dir} is in use by process ${error.pid}, and only one process can open it.\n` +
            `That process did not answer at ${url}, so the migrations cannot be read now.\n` +
            `A running service applied every migration when it started; stop it and run migrate-status again for the full report.`,
        );
      }
      const text = `Database: ${labelOf(config.database)} (in use by process ${error.pid}; its service at ${url} reports the migrations: ${migrations})\n`;
      if (migrations !== 'ok') throw new NotInSyncError(`${text}Database is not in sync with prisma/migrations.\n`);
      return `${text}Database schema is up to date.\n`;
    }
  },
};
