import { pino, type Logger } from 'pino';

/** Structured JSON logs. Secrets never reach them: credentials and tokens are redacted by path too. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: { paths: ['secret', '*.secret', 'password', '*.password', 'token', '*.token', 'headers.authorization'], censor: '[redacted]' },
  });
}
