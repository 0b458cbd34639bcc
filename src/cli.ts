/**
 * Administration from the command line, on the configured database (the same variables as the
 * service: DATA_DIR or DATABASE_URL, SECRET_KEY): `npm run cli -- help` lists the commands,
 * `npm run cli -- <command> --help` explains one. The commands go through the services and the
 * job kit, so their rules are the service's.
 *
 * Exit codes: 0 done, 1 refused (configuration, database in use, name taken, unknown owner,
 * integration or job; a database not up to date), 2 bad usage (unknown command or option,
 * missing or invalid value).
 */
import { ConfigError } from './config.ts';
import { knownError } from './errors.ts';
import { RefusedError, UsageError, type Command } from './cli/command-line.ts';
import { createIntegrationCommand, createUserCommand, rotateSecretCommand } from './cli/accounts.ts';
import { listJobsCommand, retryJobCommand } from './cli/jobs.ts';
import { migrateStatusCommand, NotInSyncError } from './cli/migrations.ts';

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

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined) throw new UsageError('a command is required');
    if (name === 'help' || name === '--help' || name === '-h') {
      process.stdout.write(USAGE);
      return 0;
    }
    const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
    if (!command) throw new UsageError(`unknown command '${name}'`);
    process.stdout.write(await command.run(rest));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      const help = name !== undefined && Object.hasOwn(commands, name) ? `npm run cli -- ${name} --help` : 'npm run cli -- help';
      process.stderr.write(`${error.message}\nRun '${help}' for usage.\n`);
      return 2;
    }
    if (error instanceof NotInSyncError) {
      process.stdout.write(error.report);
      return 1;
    }
    // A service's refusal (an unknown integration) is the command's refusal.
    const refusal = error instanceof ConfigError || error instanceof RefusedError ? error : knownError(error);
    if (refusal) {
      process.stderr.write(`${refusal.message}\n`);
      return 1;
    }
    throw error;
  }
}

const code = await main(process.argv.slice(2));
// Exit explicitly once the output is flushed: the migration engine leaves a 10 s timer behind
// that would otherwise keep a finished command waiting.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
