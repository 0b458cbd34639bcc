import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { loggerOptions } from '../logger.ts';
import { RequestLog } from './request-log.ts';

/** The service logger's options, its lines kept in memory. */
function memoryLogger(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino(loggerOptions(level), stream), lines };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('RequestLog', () => {
  it('makes no child logger for a request that logs nothing, or only below the level', () => {
    const { log } = memoryLogger('info');
    const child = vi.spyOn(log, 'child');
    const requestLog = new RequestLog(log, { reqId: 'r-1' }, {});
    requestLog.debug('not written');
    requestLog.trace({ a: 1 }, 'not written');
    expect(requestLog.isLevelEnabled('debug')).toBe(false);
    expect(requestLog.isLevelEnabled('warn')).toBe(true);
    expect(child).not.toHaveBeenCalled();
  });

  it('writes through a child bound to the request, as pino child() would', async () => {
    const { log, lines } = memoryLogger('info');
    const requestLog = new RequestLog(log, { reqId: 'r-2' }, {});
    requestLog.warn({ code: 'X', secret: 'hidden' }, 'refused');
    requestLog.error(new Error('boom'));
    requestLog.info('plain %s', 'text');
    await settle();
    expect(lines.map(({ level, reqId, msg, code, secret }) => ({ level, reqId, msg, code, secret }))).toEqual([
      { level: 40, reqId: 'r-2', msg: 'refused', code: 'X', secret: '[redacted]' },
      { level: 50, reqId: 'r-2', msg: 'boom', code: undefined, secret: undefined },
      { level: 30, reqId: 'r-2', msg: 'plain text', code: undefined, secret: undefined },
    ]);
    expect(lines[1]!.err).toMatchObject({ type: 'Error', message: 'boom' });
  });

  it("honours a level of the request's own", async () => {
    const { log, lines } = memoryLogger('info');
    const requestLog = new RequestLog(log, { reqId: 'r-3' }, { level: 'debug' });
    requestLog.debug('written at debug');
    await settle();
    expect(lines).toMatchObject([{ level: 20, reqId: 'r-3', msg: 'written at debug' }]);
    expect(requestLog.level).toBe('debug');
  });
});
