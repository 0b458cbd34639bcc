import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REPEATED_SIGNAL_MS, stopOnSignals } from './shutdown.ts';

/** Signals emitted by hand: no real signal is sent, and none of these stops the test runner. */
const SIGNALS: NodeJS.Signals[] = ['SIGUSR2', 'SIGWINCH'];

function setUp() {
  const messages: string[] = [];
  const note = (_: unknown, msg: string) => messages.push(msg);
  const log = { info: note, warn: note, error: note };
  let finishRequests = () => {};
  const requestsDone = new Promise<void>((resolve) => (finishRequests = resolve));
  const released: string[] = [];
  const exits: (number | string | null | undefined)[] = [];
  vi.spyOn(process, 'exit').mockImplementation((code) => {
    exits.push(code);
    return undefined as never;
  });
  let now = 1_000_000;
  vi.spyOn(Date, 'now').mockImplementation(() => now);
  stopOnSignals(
    {
      server: { closeIdleConnections() {}, closeAllConnections() {} } as unknown as Server,
      // A request in progress holds the stop open until the test lets it finish.
      close: () => requestsDone,
      log: log as unknown as Logger,
      timeoutMs: 60_000,
      onStopping() {},
      workers: { stop: async () => {} },
      release: [async () => void released.push('database')],
    },
    SIGNALS,
  );
  return { messages, released, exits, finishRequests, later: (ms: number) => (now += ms) };
}

afterEach(() => {
  for (const signal of SIGNALS) process.removeAllListeners(signal);
  vi.restoreAllMocks();
});

describe('stopping on a signal', () => {
  it('takes the same signal again within a second for the same stop (a Ctrl-C passed on by npm): the stop finishes and exits 0', async () => {
    const { messages, released, exits, finishRequests, later } = setUp();
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(messages).toEqual(['shutting down']);
    later(REPEATED_SIGNAL_MS - 1);
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(messages).toEqual(['shutting down', 'signal repeated: already shutting down']);
    expect(exits).toEqual([]);
    finishRequests();
    await vi.waitFor(() => expect(exits).toEqual([0]));
    expect(released).toEqual(['database']);
    expect(messages.at(-1)).toBe('stopped');
  });

  it('exits at once with 1 on the same signal a second or more after the first', () => {
    const { messages, released, exits, later } = setUp();
    process.emit('SIGUSR2', 'SIGUSR2');
    later(REPEATED_SIGNAL_MS);
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(exits).toEqual([1]);
    expect(messages).toContain('second signal: exiting now');
    expect(released).toEqual([]);
  });

  it('exits at once with 1 on another signal, however soon', () => {
    const { messages, exits } = setUp();
    process.emit('SIGUSR2', 'SIGUSR2');
    process.emit('SIGWINCH', 'SIGWINCH');
    expect(exits).toEqual([1]);
    expect(messages).toContain('second signal: exiting now');
  });
});
