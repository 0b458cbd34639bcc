import { connect, type Socket } from 'node:net';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { serve } from './serve.ts';

/**
 * The node:http server (src/http/server.ts) over real sockets: bodies over the limit, heads over
 * Node's limit, slow clients, and one rate-limit budget shared by REST and GraphQL.
 */
let t: TestApp;
let http: Awaited<ReturnType<typeof serve>>;
let user: Caller;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '12', HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_MIN_BODY_BYTES_PER_SECOND: '1000' });
  http = await serve(t);
  user = await t.newCaller('server-user');
});
afterAll(async () => {
  await http?.close();
  await t?.close();
});

const bearer = (caller: Caller) => `Bearer ${caller.app}:${caller.secret}`;

/** Writes `chunks` to a raw socket and resolves with everything the server sent back until it closed. */
function raw(chunks: (string | Buffer)[], options: { pauseMs?: number; endAfterMs?: number } = {}): Promise<{ text: string; error?: string }> {
  return new Promise((resolve) => {
    const url = new URL(http.url);
    const socket: Socket = connect(Number(url.port), url.hostname);
    let text = '';
    let error: string | undefined;
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code));
    socket.on('close', () => resolve({ text, error }));
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) break;
        socket.write(chunk);
        if (options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs));
      }
      if (options.endAfterMs) setTimeout(() => socket.destroy(), options.endAfterMs);
    });
  });
}

const head = (text: string) => text.split('\r\n\r\n')[0]!.toLowerCase();

describe('request bodies', () => {
  it('a declared Content-Length over the limit is refused with 413 and the error headers before the body is read', async () => {
    const declared = 26 * 1024 * 1024;
    const started = performance.now();
    const answer = await raw([`POST /api/user:name HTTP/1.1\r\nhost: x\r\nauthorization: ${bearer(user)}\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: ${declared}\r\n\r\nname=a`]);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(head(answer.text)).toContain('service-api-error-code: payload_too_large');
    expect(head(answer.text)).toContain('connection: close');
    expect(JSON.parse(answer.text.split('\r\n\r\n')[1]!)).toEqual({
      error: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The request body exceeds 26214400 bytes' },
    });
  });

  it('a chunked body that grows over the limit gets its 413 with the error headers, not a connection reset', async () => {
    const body = new Uint8Array(26 * 1024 * 1024 + 10).fill(0x61);
    let response: { status: number; code: string | null; text: string } | undefined;
    let failure: unknown;
    await new Promise<void>((resolve) => {
      const url = new URL(`${http.url}/api/user:name`);
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: bearer(user), 'transfer-encoding': 'chunked', 'content-type': 'application/x-www-form-urlencoded' } },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => {
            response = { status: res.statusCode!, code: res.headers['service-api-error-code'] as string, text };
            resolve();
          });
        },
      );
      req.on('error', (e) => {
        failure = e;
        resolve();
      });
      // One chunk after another, as a client streaming an upload does.
      let offset = 0;
      const pump = () => {
        while (offset < body.length) {
          const chunk = body.subarray(offset, offset + 1024 * 1024);
          offset += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(failure).toBeUndefined();
    expect(response?.status).toBe(413);
    expect(response?.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a body that comes with its head, one that comes in parts after it, and none at all are read alike', async () => {
    const body = JSON.stringify({ query: '{ me { id name } }' });
    const request = (length: number) =>
      `POST /graphql HTTP/1.1\r\nhost: x\r\nconnection: close\r\nauthorization: ${bearer(user)}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;
    const expected = { data: { me: { id: user.user.id, name: user.user.fullName } } };
    const together = await raw([request(body.length) + body]);
    expect(JSON.parse(together.text.split('\r\n\r\n')[1]!)).toEqual(expected);
    const parts = await raw([request(body.length), body.slice(0, 5), body.slice(5, 12), body.slice(12)], { pauseMs: 50 });
    expect(JSON.parse(parts.text.split('\r\n\r\n')[1]!)).toEqual(expected);
    const empty = await raw([request(0)]);
    expect(empty.text).toMatch(/^HTTP\/1\.1 400 /);
    const emptyRest = await raw([`POST /api/user:name HTTP/1.1\r\nhost: x\r\nconnection: close\r\nauthorization: ${bearer(user)}\r\ncontent-length: 0\r\n\r\n`]);
    expect(emptyRest.text).toMatch(/^HTTP\/1\.1 403 /);
    expect(head(emptyRest.text)).toContain('service-api-error-code: missing_argument');
  });

  it('a body slower than the minimum rate is cut off with 408 and the error headers', async () => {
    // 1000 bytes a second after a grace of 1 s (the test's HTTP_HEADERS_TIMEOUT_MS): 10 bytes every 300 ms is too slow.
    const chunks = [`POST /api/user:name HTTP/1.1\r\nhost: x\r\nauthorization: ${bearer(user)}\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: 100000\r\n\r\n`];
    for (let i = 0; i < 30; i++) chunks.push('a'.repeat(10));
    const started = performance.now();
    const answer = await raw(chunks, { pauseMs: 300 });
    expect(performance.now() - started).toBeLessThan(8000);
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(head(answer.text)).toContain('service-api-error-code: request_timeout');
  });
});

describe('request heads', () => {
  it('headers over 16 KiB are answered 431 with the error headers', async () => {
    const answer = await raw([`GET /api/test:app HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`]);
    expect(answer.text).toMatch(/^HTTP\/1\.1 431 /);
    expect(head(answer.text)).toContain('service-api-error-code: headers_too_large');
    expect(head(answer.text)).toContain('service-api-error: the request line and headers exceed 16384 bytes');
  });

  it('headers not complete within the headers timeout are answered 408 and the connection closed', async () => {
    const started = performance.now();
    const answer = await raw(['GET /api/test:app HTTP/1.1\r\n', 'host: x\r\n', 'x-a: 1\r\n', 'x-b: 2\r\n', 'x-c: 3\r\n', 'x-d: 4\r\n', 'x-e: 5\r\n', 'x-f: 6\r\n'], { pauseMs: 500 });
    // 1 s timeout, checked every second: well before Node's default of a minute.
    expect(performance.now() - started).toBeLessThan(4500);
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(head(answer.text)).toContain('service-api-error-code: request_timeout');
  });

  it('a client that goes away mid-body is not logged as an error', async () => {
    const errorLog = vi.spyOn(t.platform.log, 'error');
    await raw([`POST /api/user:name HTTP/1.1\r\nhost: x\r\nauthorization: ${bearer(user)}\r\ncontent-length: 1000\r\n\r\nname=`], { endAfterMs: 100 });
    await new Promise((r) => setTimeout(r, 200));
    expect(errorLog).not.toHaveBeenCalled();
    errorLog.mockRestore();
  });
});

describe('one rate-limit budget for REST and GraphQL', () => {
  it('REST calls spend a point each and GraphQL operations their cost, with RateLimit headers on both, then 429 on both', async () => {
    const caller = await t.newCaller('budget-user');
    const rest = () => fetch(`${http.url}/api/test:app`, { headers: { authorization: bearer(caller) } });
    const gql = (query: string) =>
      fetch(`${http.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: bearer(caller) }, body: JSON.stringify({ query }) });

    const first = await rest();
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('12');
    expect(first.headers.get('ratelimit-remaining')).toBe('11');
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect(Number(first.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60);
    expect(first.headers.get('ratelimit-policy')).toBe('12;w=60');

    // A cheap operation: one point. A page of 100 users: 1 + 100 × 2 = 201, three points.
    const cheap = await gql('{ me { id } }');
    expect(cheap.headers.get('ratelimit-remaining')).toBe('10');
    const page = await gql('{ users(first: 100) { edges { node { id } } } }');
    expect(page.status).toBe(200);
    expect(page.headers.get('ratelimit-remaining')).toBe('7');

    // A refusal by a service still spends its point and reports it.
    const refused = await fetch(`${http.url}/api/user:name`, { headers: { authorization: bearer(caller) } });
    expect(refused.headers.get('ratelimit-remaining')).toBe('6');

    for (let i = 0; i < 6; i++) expect((await rest()).status).toBe(200);
    const limitedRest = await rest();
    expect(limitedRest.status).toBe(429);
    expect(limitedRest.headers.get('service-api-error-code')).toBe('RATE_LIMITED');
    expect(Number(limitedRest.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limitedRest.headers.get('ratelimit-remaining')).toBe('0');

    const limitedGql = await gql('{ me { id } }');
    expect(limitedGql.status).toBe(429);
    expect(Number(limitedGql.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limitedGql.headers.get('ratelimit-remaining')).toBe('0');
    const body = (await limitedGql.json()) as { data?: unknown; errors: { extensions: { code: string } }[] };
    expect(body.data).toBeUndefined();
    expect(body.errors[0]!.extensions.code).toBe('RATE_LIMITED');
  });
});
