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
import { runCli } from './cli/run.ts';

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
// Exit explicitly once the output is flushed: the migration engine leaves a 10 s timer behind
// that would otherwise keep a finished command waiting.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
