import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, LogFn, Logger } from 'pino';

/**
 * A request's logger (fastify's `request.log`) that becomes pino's child logger, bound to the
 * request id, only when something is logged through it. fastify makes that child for every
 * request (an object and its bindings serialised), and almost no request logs through it: the
 * access lines are written by access-log.ts. The child cost about 8,000 instructions a request
 * (bench/cpu-per-request.ts, BENCH_MEASURE=instructions).
 */
export class RequestLog {
  private made?: Logger;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get log(): Logger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): LevelWithSilentOrString {
    return this.log.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.log.level = level;
  }

  isLevelEnabled(level: LevelWithSilentOrString): boolean {
    return this.options.level === undefined && !this.made ? this.parent.isLevelEnabled(level) : this.log.isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.log.child(bindings, options);
  }

  // Methods on the prototype, not arrow fields: a closure each per request is what this avoids.
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  /** Below the logger's level nothing is made or written (a level of the request's own is the child's to judge). */
  private write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]): void {
    if (this.options.level === undefined && !this.made && !this.parent.isLevelEnabled(level)) return;
    Reflect.apply(this.log[level] as LogFn, this.log, args);
  }
}
