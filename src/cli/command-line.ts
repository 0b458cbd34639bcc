import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { z } from 'zod';
import { loadConfig } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { loadSecretKey } from '../auth/secret-key.ts';
import { createPlatform } from '../platform.ts';
import type { Platform } from '../context.ts';

/**
 * Where a command line runs: the variables its configuration is read from and where its output
 * goes. The process's own environment and streams from `npm run cli`; a caller's in the tests,
 * which run the commands in their own process.
 */
export interface CommandIo {
  /** The configuration's variables; absent, the process's environment. */
  env?: Record<string, string | undefined>;
  stdout(text: string): void;
  /** Messages beside the result: warnings, logs, refusals. */
  stderr(text: string): void;
}

/** What every command of the command line is: its synopsis, what it does, and the run. */
export interface Command {
  /** The command and its options, e.g. `retry-job --job <job_ id>`. */
  synopsis: string;
  /** What it does, in a few lines (indented under the synopsis in the help). */
  summary: string;
  /** Answers the text for stdout; throws UsageError (exit 2) or RefusedError (exit 1). */
  run(argv: string[], io: CommandIo): Promise<string>;
}

/** Bad usage: the message, a pointer to help, exit code 2. */
export class UsageError extends Error {}
/** A well-formed request the data refuses (taken name, unknown owner, database in use): exit code 1. */
export class RefusedError extends Error {}

/** The help of one command. */
export function commandHelp(command: Command): string {
  return `Usage: npm run cli -- ${command.synopsis}\n\n${command.summary}\n`;
}

const optionName = (key: PropertyKey | undefined) => `--${String(key).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Every problem at once, each naming its option, so one correction fixes the command line. */
export function validate<S extends z.ZodType>(schema: S, values: Record<string, unknown>, required: string[]): z.output<S> {
  const missing = required.filter((key) => values[key] === undefined).map((key) => `${optionName(key)} is required`);
  const result = schema.safeParse(values);
  const issues = result.success ? [] : result.error.issues;
  const invalid = issues.filter((i) => values[String(i.path[0])] !== undefined).map((i) => `${optionName(i.path[0])} ${i.message}`);
  const problems = missing.length + invalid.length > 0 ? [...missing, ...invalid] : issues.map((i) => i.message);
  if (!result.success) throw new UsageError(problems.join('\n'));
  return result.data;
}

/** The options of a command line (every command also takes --help); no positional arguments. */
export function parse(argv: string[], options: Record<string, { type: 'string' | 'boolean' }>) {
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
export async function withPlatform<T>(io: CommandIo, run: (platform: Platform) => Promise<T>): Promise<T> {
  const config = loadConfig(io.env);
  let database: Database;
  try {
    database = await openDatabase(config.database);
  } catch (error) {
    throw new RefusedError((error as Error).message);
  }
  try {
    await migrate(database.pglite ? { kind: 'pglite', pglite: database.pglite } : { kind: 'postgres', url: config.DATABASE_URL! });
    // Logs go to stderr so stdout carries only the result.
    const log = pino({ level: config.LOG_LEVEL, base: undefined }, { write: (line: string) => io.stderr(line) });
    const secretKey = loadSecretKey(config);
    if (secretKey.source !== 'env' && config.database.kind === 'postgres') {
      log.warn(`SECRET_KEY is not set: secrets are sealed with the key file in ${config.DATA_DIR}, which the service must share`);
    }
    return await run(createPlatform({ config, db: database.prisma, log, secretKey: secretKey.key }));
  } finally {
    await database.close();
  }
}

/** `key: value` lines, the values aligned. */
export function fieldLines(fields: Record<string, string | number | boolean>): string {
  const width = Math.max(...Object.keys(fields).map((k) => k.length)) + 2;
  return Object.entries(fields)
    .map(([key, value]) => `${`${key}:`.padEnd(width)}${value}\n`)
    .join('');
}
