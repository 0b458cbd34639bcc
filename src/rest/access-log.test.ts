import { Writable } from 'node:stream';
import { pino, type LoggerOptions } from 'pino';
import { describe, expect, it } from 'vitest';
import { logRestCall } from './access-log.ts';
import { loggerOptions } from '../logger.ts';

/** What a logger with these options writes, line by line, with the time masked. */
function capture(options: LoggerOptions) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean).map((line) => line.replace(/"time":\d+/, '"time":0')));
      done();
    },
  });
  return { log: pino(options, stream), lines };
}

describe('the REST access line', () => {
  const calls: [string, string, string, number, string | undefined, number][] = [
    ['req-1', 'GET', 'user:me', 200, undefined, 0.42],
    ['9b2f0c4e-3d1a-4c56-8e7f-0a1b2c3d4e5f', 'DELETE', 'user:"me"\\\u0001\u00e9\ud800', 405, 'METHOD_NOT_ALLOWED', 12.5],
  ];

  const cases: [string, LoggerOptions][] = [
    ['the service logger', loggerOptions('info')],
    ['pid and hostname', { level: 'info' }],
    ['bindings', { level: 'info', base: { service: 'x' } }],
  ];
  for (const [name, options] of cases) {
    it(`is the line pino writes for the same fields (${name})`, async () => {
      const ours = capture(options);
      const theirs = capture(options);
      for (const [reqId, method, endpoint, status, code, ms] of calls) {
        logRestCall(ours.log, reqId, method, endpoint, status, code, ms);
        theirs.log.info({ reqId, method, endpoint, status, code, ms }, 'rest call');
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(ours.lines).toHaveLength(calls.length);
      expect(ours.lines).toEqual(theirs.lines);
    });
  }

  it('is not written below the info level', async () => {
    const { log, lines } = capture({ level: 'warn' });
    logRestCall(log, 'req-1', 'GET', 'user:me', 200, undefined, 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([]);
  });
});
