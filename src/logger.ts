import { pino, type Logger, type LoggerOptions } from 'pino';

/**
 * Structured JSON logs, one line per event, with the request id. Lines are written
 * asynchronously in 4 KiB batches (a synchronous write per call costs more than the call itself)
 * and flushed every quarter second, after start-up and on exit. Secrets never reach the log: the code does not pass them,
 * and these top-level fields are redacted should one slip in.
 */
export function createLogger(level: string, dest: number | string = 1): Logger {
  const destination = pino.destination({ dest, sync: false, minLength: 4096 });
  const flush = setInterval(() => destination.flush(), 250);
  flush.unref();
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      /* not open yet: nothing was written */
    }
  });
  return pino(loggerOptions(level), destination);
}

/** The service logger's options (the access line is held equal to what pino writes with them). */
export const loggerOptions = (level: string): LoggerOptions => ({
  level,
  base: undefined,
  redact: { paths: ['secret', 'password', 'token', 'authorization'], censor: '[redacted]' },
});
