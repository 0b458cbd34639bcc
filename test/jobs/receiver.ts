import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';

/** One request a receiver got. */
export interface Received {
  method: string;
  /** Path and query string, exactly as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  port: number;
  /** http://127.0.0.1:<port><path> */
  url(path?: string): string;
  requests: Received[];
  /** What the next requests are answered with (default 200, no delay). */
  answer(status: number, options?: { delayMs?: number; location?: string }): void;
  /** Resolves once `count` requests arrived; fails after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A port nobody listens on right now (the OS's pick, released again). */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A real HTTP server on 127.0.0.1 that records every request (random port unless given). */
export async function startReceiver(port = 0): Promise<Receiver> {
  const requests: Received[] = [];
  let reply = { status: 200, delayMs: 0, location: undefined as string | undefined };
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      waiters.splice(0).forEach((w) => w());
      const { status, delayMs, location } = reply;
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'text/plain', ...(location ? { location } : {}) });
        res.end('ok');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as { port: number }).port;
  return {
    port: actual,
    url: (path = '/hook') => `http://127.0.0.1:${actual}${path}`,
    requests,
    answer(status, options = {}) {
      reply = { status, delayMs: options.delayMs ?? 0, location: options.location };
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${requests.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
