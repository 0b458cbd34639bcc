import { ConfigError } from '../config.ts';
import { knownError } from '../errors.ts';
import { RefusedError, UsageError, type Command, type CommandIo } from './command-line.ts';
import { createIntegrationCommand, createUserCommand, rotateSecretCommand } from './accounts.ts';
import { listJobsCommand, retryJobCommand } from './jobs.ts';
import { migrateStatusCommand, NotInSyncError } from './migrations.ts';

const commands: Record<string, Command> = {
  'create-user': createUserCommand,
  'create-integration': createIntegrationCommand,
  'rotate-secret': rotateSecretCommand,
  jobs: listJobsCommand,
  'retry-job': retryJobCommand,
  'migrate-status': migrateStatusCommand,
};

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
${Object.values(commands)
  .map((c) => `  ${c.synopsis}\n${c.summary.replace(/^ {4}/gm, '      ')}\n`)
  .join('')}  help
      Shows this text. <command> --help shows the help of one command.

The database is the service's: DATA_DIR (embedded, default ./data) or DATABASE_URL, with SECRET_KEY
or the key file in DATA_DIR. The embedded database cannot be opened while the service runs on it.
Exit codes: 0 done, 1 refused, 2 bad usage.
`;

/**
 * One command line (the arguments after `npm run cli --`), its output written to io: answers the
 * exit code instead of exiting, so that the process around it decides when to end. An error that
 * is neither bad usage nor a refusal is thrown.
 */
export async function runCli(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined) throw new UsageError('a command is required');
    if (name === 'help' || name === '--help' || name === '-h') {
      io.stdout(USAGE);
      return 0;
    }
    const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
    if (!command) throw new UsageError(`unknown command '${name}'`);
    io.stdout(await command.run(rest, io));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      const help = name !== undefined && Object.hasOwn(commands, name) ? `npm run cli -- ${name} --help` : 'npm run cli -- help';
      io.stderr(`${error.message}\nRun '${help}' for usage.\n`);
      return 2;
    }
    if (error instanceof NotInSyncError) {
      io.stdout(error.report);
      return 1;
    }
    // A service's refusal (an unknown integration) is the command's refusal.
    const refusal = error instanceof ConfigError || error instanceof RefusedError ? error : knownError(error);
    if (refusal) {
      io.stderr(`${refusal.message}\n`);
      return 1;
    }
    throw error;
  }
}
