/**
 * Administration from the command line, on the configured database (the same variables as the
 * service: DATA_DIR or DATABASE_URL, SECRET_KEY):
 *
 *   npm run cli -- create-user --username U --email E --first-name F --last-name L [--admin] [--password P]
 *   npm run cli -- create-integration --owner <username or usr_ id> --title T
 *   npm run cli -- help
 *
 * Exit codes: 0 done, 1 refused (configuration, database in use, name taken, unknown owner),
 * 2 bad usage (unknown command or option, missing or invalid value).
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { z } from 'zod';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { loadSecretKey } from './auth/secret-key.ts';
import { createPlatform } from './platform.ts';
import type { Platform } from './context.ts';
import { createAccount, createApiIntegration } from './services/bootstrap/bootstrap.service.ts';
import { createUser as createUserSchema } from './services/users/users.schemas.ts';
import { createIntegration as createIntegrationSchema } from './services/integrations/integrations.schemas.ts';
import { randomToken } from './ids.ts';
import { text } from './services/validation.ts';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  create-user --username U --email E --first-name F --last-name L [--admin] [--password P]
      Creates a user. Without --password, one is generated and printed once.
      --admin makes the user an instance administrator.
  create-integration --owner <username or usr_ id> --title T
      Creates an API integration owned by that user and prints its app and secret once.
  help
      Shows this text.

The database is the service's: DATA_DIR (embedded, default ./data) or DATABASE_URL, with SECRET_KEY
or the key file in DATA_DIR. The embedded database cannot be opened while the service runs on it.
Exit codes: 0 done, 1 refused, 2 bad usage.
`;

/** Bad usage: the message, a pointer to help, exit code 2. */
class UsageError extends Error {}
/** A well-formed request the data refuses (taken name, unknown owner): exit code 1. */
class RefusedError extends Error {}

/** The same rules as the REST contract's `POST user` and `POST integration`, defined once in the schemas. */
const userInput = createUserSchema.pick({ username: true, email: true, firstName: true, lastName: true, password: true });
const integrationInput = createIntegrationSchema.pick({ title: true }).extend({ owner: text(1, 64) });

const optionName = (key: PropertyKey | undefined) => `--${String(key).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Every problem at once, each naming its option, so one correction fixes the command line. */
function validate<S extends z.ZodType>(schema: S, values: Record<string, unknown>, required: string[]): z.output<S> {
  const missing = required.filter((key) => values[key] === undefined).map((key) => `${optionName(key)} is required`);
  const result = schema.safeParse(values);
  const issues = result.success ? [] : result.error.issues;
  const invalid = issues.filter((i) => values[String(i.path[0])] !== undefined).map((i) => `${optionName(i.path[0])} ${i.message}`);
  const problems = missing.length + invalid.length > 0 ? [...missing, ...invalid] : issues.map((i) => i.message);
  if (!result.success) throw new UsageError(problems.join('\n'));
  return result.data;
}

function parse(argv: string[], options: Record<string, { type: 'string' | 'boolean' }>) {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean' } }, strict: true, allowPositionals: true });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    return values as Record<string, string | boolean | undefined>;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // parseArgs names the unknown option or the option missing its value; its first sentence says it.
    throw new UsageError((error as Error).message.split(/\.\s/)[0]!);
  }
}

/** Opens the configured database (migrated, like the service at start) for one command. */
async function withPlatform<T>(run: (platform: Platform) => Promise<T>): Promise<T> {
  const config = loadConfig();
  let database: Database;
  try {
    database = await openDatabase(config.database);
  } catch (error) {
    throw new RefusedError((error as Error).message);
  }
  try {
    await migrate(database.pglite ? { kind: 'pglite', pglite: database.pglite } : { kind: 'postgres', url: config.DATABASE_URL! });
    // Logs go to stderr so stdout carries only the result.
    const log = pino({ level: config.LOG_LEVEL, base: undefined }, pino.destination(2));
    const secretKey = loadSecretKey(config);
    if (secretKey.source !== 'env' && config.database.kind === 'postgres') {
      log.warn(`SECRET_KEY is not set: secrets are sealed with the key file in ${config.DATA_DIR}, which the service must share`);
    }
    return await run(createPlatform({ config, db: database.prisma, log, secretKey: secretKey.key }));
  } finally {
    await database.close();
  }
}

async function createUserCommand(argv: string[]): Promise<string> {
  const values = parse(argv, {
    username: { type: 'string' },
    email: { type: 'string' },
    'first-name': { type: 'string' },
    'last-name': { type: 'string' },
    password: { type: 'string' },
    admin: { type: 'boolean' },
  });
  if (values.help) return USAGE;
  const input = validate(
    userInput,
    { username: values.username, email: values.email, firstName: values['first-name'], lastName: values['last-name'], password: values.password },
    ['username', 'email', 'firstName', 'lastName'],
  );
  const password = input.password ?? randomToken(16);
  const user = await withPlatform(async (platform) => {
    if (await platform.db.user.findUnique({ where: { username: input.username }, select: { id: true } })) {
      throw new RefusedError(`username '${input.username}' is already taken`);
    }
    return createAccount(platform, { ...input, password, admin: values.admin === true }).catch((error: unknown) => {
      // Another process took the name between the check and the insert.
      if ((error as { code?: string }).code === 'P2002') throw new RefusedError(`username '${input.username}' is already taken`);
      throw error;
    });
  });
  return (
    `user:     ${user.id}\nusername: ${user.username}\nadmin:    ${user.admin}\n` +
    (input.password === undefined ? `password: ${password}\n(generated: store it now, it is not shown again)\n` : '')
  );
}

async function createIntegrationCommand(argv: string[]): Promise<string> {
  const values = parse(argv, { owner: { type: 'string' }, title: { type: 'string' } });
  if (values.help) return USAGE;
  const { owner: ownerRef, title } = validate(integrationInput, { owner: values.owner, title: values.title }, ['owner', 'title']);
  const created = await withPlatform(async (platform) => {
    // An identification string first: a username may look like one, an id is never a username.
    const owner =
      (await platform.db.user.findUnique({ where: { id: ownerRef } })) ?? (await platform.db.user.findUnique({ where: { username: ownerRef } }));
    if (!owner) throw new RefusedError(`no user with username or identification string '${ownerRef}'`);
    if (!owner.enabled) process.stderr.write(`warning: ${owner.username} is disabled; the credentials work once the user is enabled\n`);
    return createApiIntegration(platform, owner, title);
  });
  return (
    `integration: ${created.integration.id}\nowner:       ${created.integration.ownerId}\n` +
    `app:         ${created.app}\nsecret:      ${created.secret}\n(store the secret now; an administrator or the owner can read it again with GET integration:keys)\n`
  );
}

const commands: Record<string, (argv: string[]) => Promise<string>> = {
  'create-user': createUserCommand,
  'create-integration': createIntegrationCommand,
  help: async () => USAGE,
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined) throw new UsageError('a command is required');
    const command = name === '--help' || name === '-h' ? commands.help : commands[name];
    if (!command) throw new UsageError(`unknown command '${name}'`);
    process.stdout.write(await command(rest));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\nRun 'npm run cli -- help' for usage.\n`);
      return 2;
    }
    if (error instanceof ConfigError || error instanceof RefusedError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

const code = await main(process.argv.slice(2));
// Exit explicitly once the output is flushed: the migration engine leaves a 10 s timer behind
// that would otherwise keep a finished command waiting.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
