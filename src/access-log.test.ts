import { Writable } from 'node:stream';
import { pino, type LoggerOptions } from 'pino';
import { describe, expect, it } from 'vitest';
import { logAccess, type AccessFields } from './access-log.ts';
import { loggerOptions } from './logger.ts';

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

describe('the access line', () => {
  // A REST call's fields and a GraphQL request's, with and without the optional ones.
  const calls: [string, AccessFields][] = [
    ['rest call', { reqId: 'req-1', method: 'GET', endpoint: 'user:me', status: 200, code: undefined, ms: 0.42 }],
    ['rest call', { reqId: '9b2f0c4e-3d1a-4c56-8e7f-0a1b2c3d4e5f', method: 'DELETE', endpoint: 'user:"me"\\\u0001\u00e9\ud800', status: 405, code: 'METHOD_NOT_ALLOWED', ms: 12.5 }],
    ['graphql request', { reqId: 'req-2', operation: undefined, type: 'query', status: 200, errors: undefined, ms: 1.25 }],
    ['graphql request', { reqId: 'req-3', operation: 'Start "it"', type: 'mutation', status: 200, errors: ['SERVICE_BUSY', 'NOT_FOUND'], ms: 3 }],
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
      for (const [message, fields] of calls) {
        logAccess(ours.log, message, fields);
        theirs.log.info(fields, message);
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(ours.lines).toHaveLength(calls.length);
      expect(ours.lines).toEqual(theirs.lines);
    });
  }

  it('is not written below the info level', async () => {
    const { log, lines } = capture({ level: 'warn' });
    logAccess(log, 'rest call', calls[0]![1]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([]);
  });
});
