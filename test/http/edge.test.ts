import { connect, type Socket } from 'node:net';
import { request as httpRequest } from 'node:http';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { serve } from './serve.ts';

/**
 * The edge over real sockets: silent and slow clients, overload, bodies over the limit sent by a
 * client that does not wait, text that is not well-formed Unicode, and the error headers of
 * refusals outside the REST face.
 */
const bearer = (caller: Caller) => `Bearer ${caller.app}:${caller.secret}`;

/** A raw socket to the server; resolves with what it sent back once it closed. */
function socketTo(url: string): { socket: Socket; closed: Promise<{ text: string; at: number }> } {
  const { port, hostname } = new URL(url);
  const socket = connect(Number(port), hostname);
  let text = '';
  socket.on('data', (d) => (text += d.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<{ text: string; at: number }>((resolve) => socket.on('close', () => resolve({ text, at: performance.now() })));
  return { socket, closed };
}

const connected = (socket: Socket) => new Promise<void>((resolve) => (socket.connecting ? socket.once('connect', () => resolve()) : resolve()));

describe('silent and slow clients', () => {
  let t: TestApp;
  let http: Awaited<ReturnType<typeof serve>>;
  let user: Caller;
  beforeAll(async () => {
    t = await createTestApp({ HTTP_CONNECTION_TIMEOUT_MS: '2000', HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_MIN_BODY_BYTES_PER_SECOND: '1000' });
    http = await serve(t);
    user = await t.newCaller('edge-user');
  });
  afterAll(async () => {
    await http?.close();
    await t?.close();
  });

  it('500 silent and 50 slow sockets are all closed within the limits while an ordinary call answers in under 100 ms', async () => {
    const ordinaryCall = async () => {
      const started = performance.now();
      const answer = await fetch(`${http.url}/api/test:app`, { headers: { authorization: bearer(user) } });
      await answer.text();
      return { status: answer.status, ms: performance.now() - started };
    };
    // Warmed up first (the first call of a process loads code and opens the database's first statements).
    expect((await ordinaryCall()).status).toBe(200);
    const silent = Array.from({ length: 500 }, () => socketTo(http.url));
    await Promise.all(silent.map((s) => connected(s.socket)));
    const slow = Array.from({ length: 50 }, (_, i) => socketTo(http.url));
    await Promise.all(slow.map((s) => connected(s.socket)));
    const opened = performance.now();
    // Half send a head one line a second (never complete), half a body of 100 KB at 20 bytes a second.
    const trickles = slow.map(({ socket }, i) => {
      if (i % 2 === 0) socket.write('GET /api/test:app HTTP/1.1\r\n');
      else socket.write(`POST /api/user:name HTTP/1.1\r\nhost: x\r\nauthorization: ${bearer(user)}\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: 100000\r\n\r\n`);
      return setInterval(() => !socket.destroyed && socket.write(i % 2 === 0 ? 'x-a: 1\r\n' : 'a'.repeat(20)), 1000);
    });
    try {
      // Ordinary calls meanwhile, on a connection of their own; the best of three, as the machine
      // running the tests is shared and one call may wait for a core.
      await new Promise((r) => setTimeout(r, 500));
      const calls = [await ordinaryCall(), await ordinaryCall(), await ordinaryCall()];
      expect(calls.map((c) => c.status)).toEqual([200, 200, 200]);
      expect(Math.min(...calls.map((c) => c.ms))).toBeLessThan(100);

      const silentEnds = await Promise.all(silent.map((s) => s.closed));
      const slowEnds = await Promise.all(slow.map((s) => s.closed));
      // 2 s without a byte (connection timeout), checked at most a second late; the slow heads within 2 s of their first byte.
      for (const end of [...silentEnds, ...slowEnds]) expect(end.at - opened).toBeLessThan(5000);
      // The slow ones are told why: 408 with the error headers.
      for (const [i, end] of slowEnds.entries()) {
        expect(end.text, `slow socket ${i}`).toMatch(/^HTTP\/1\.1 408 /);
        expect(end.text.toLowerCase()).toContain('service-api-error-code: request_timeout');
      }
    } finally {
      for (const timer of trickles) clearInterval(timer);
    }
  }, 30_000);

  it('answers a request that takes longer than HTTP_CONNECTION_TIMEOUT_MS to serve (the timeout is for idle connections)', async () => {
    // The user's row is held by another transaction for longer than the 2 s connection timeout,
    // as a start held in an exam-day storm waits for the database: the call waits, then answers.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.db.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${user.user.id} FOR UPDATE`;
      locked();
      await held;
    }, { timeout: 30_000 });
    await isLocked;
    const started = performance.now();
    const call = fetch(`${http.url}/api/user:name`, {
      method: 'POST',
      headers: { authorization: bearer(user), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ user: 'me', first_name: 'Waited', last_name: 'Long' }),
    });
    setTimeout(release, 3500);
    const answer = await call;
    expect([answer.status, await answer.json()]).toMatchObject([200, { success: true, changed: true }]);
    expect(performance.now() - started).toBeGreaterThan(3000);
    await holder;
    const name = await (await fetch(`${http.url}/api/user:name?user=me`, { headers: { authorization: bearer(user) } })).json();
    expect(name).toMatchObject({ first_name: 'Waited', last_name: 'Long' });
  }, 30_000);
});

describe('a synchronized start', () => {
  let t: TestApp;
  let http: Awaited<ReturnType<typeof serve>>;
  afterEach(async () => {
    await http?.close();
    await t?.close();
  });

  it('listens with a backlog of HTTP_LISTEN_BACKLOG connections, 4096 by default, not Node\'s 511', async () => {
    // A connection the kernel's queue has no room for is dropped and retried by its client after a
    // second, then 3, 7 s...: an exam's synchronized start would wait for TCP instead of the service.
    expect(loadConfig({ BASE_URL: 'http://localhost' }).http.listenBacklog).toBe(4096);
    t = await createTestApp({ HTTP_LISTEN_BACKLOG: '3000' });
    http = await serve(t);
    // For a listening socket, ss's Send-Q is the backlog the kernel holds (at most net.core.somaxconn).
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    const listening = execFileSync('ss', ['-Hltn', `sport = :${new URL(http.url).port}`], { encoding: 'utf8' }).trim().split(/\s+/);
    expect(Number(listening[2])).toBe(Math.min(3000, somaxconn));
  });
});

describe('overload', () => {
  let t: TestApp;
  let http: Awaited<ReturnType<typeof serve>>;
  let user: Caller;
  beforeAll(async () => {
    t = await createTestApp({ OVERLOAD_MAX_IN_FLIGHT: '3', OVERLOAD_RETRY_AFTER_SECONDS: '7' });
    http = await serve(t);
    user = await t.newCaller('overload-user');
  });
  afterAll(async () => {
    await http?.close();
    await t?.close();
  });

  it('refuses new requests with 503, Retry-After and the error headers while too many are in progress; /health/live answers', async () => {
    // Three requests held in progress: their bodies are on their way.
    const held = Array.from({ length: 3 }, () => socketTo(http.url));
    for (const { socket } of held) {
      await connected(socket);
      socket.write(`POST /api/user:name HTTP/1.1\r\nhost: x\r\nauthorization: ${bearer(user)}\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: 20\r\n\r\nname=`);
    }
    await new Promise((r) => setTimeout(r, 200));
    const refused = await fetch(`${http.url}/api/test:app`, { headers: { authorization: bearer(user) } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('7');
    expect(refused.headers.get('service-api-error-code')).toBe('OVERLOADED');
    expect(refused.headers.get('service-api-error')).toBe('The service is overloaded; try again later');
    expect(await refused.json()).toEqual({ error: { status: 503, code: 'OVERLOADED', message: 'The service is overloaded; try again later' } });
    const graphql = await fetch(`${http.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: bearer(user) }, body: '{"query":"{ me { id } }"}' });
    expect(graphql.status).toBe(503);
    const live = await fetch(`${http.url}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });

    // Once they are answered, calls are served again.
    for (const { socket } of held) socket.end('aaaaaaaaaaaaaaa');
    await Promise.all(held.map((h) => h.closed));
    const served = await fetch(`${http.url}/api/test:app`, { headers: { authorization: bearer(user) } });
    expect(served.status).toBe(200);
  });
});

describe('refusals at the edge', () => {
  let t: TestApp;
  let http: Awaited<ReturnType<typeof serve>>;
  let user: Caller;
  beforeAll(async () => {
    t = await createTestApp({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '20' });
    http = await serve(t);
    user = await t.newCaller('refusal-user');
  });
  afterAll(async () => {
    await http?.close();
    await t?.close();
  });

  it('a body declared over 25 MiB gets its 413 with the error headers although the client sends it without waiting', async () => {
    const body = Buffer.alloc(26 * 1024 * 1024, 0x61);
    const answer = await new Promise<{ status?: number; code?: string; error?: string }>((resolve) => {
      const url = new URL(`${http.url}/api/user:name`);
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: bearer(user), 'content-type': 'application/x-www-form-urlencoded', 'content-length': body.length } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode, code: res.headers['service-api-error-code'] as string }));
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code }));
      req.end(body);
    });
    expect(answer).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  }, 30_000);

  it('refuses text that is not well-formed Unicode like NUL: JSON and form bodies with 403 naming the argument, GraphQL variables as BAD_USER_INPUT', async () => {
    const post = (type: string, body: string | Uint8Array<ArrayBuffer>) =>
      fetch(`${http.url}/api/user:name`, { method: 'POST', headers: { authorization: bearer(user), 'content-type': type }, body });
    // Bytes that are not UTF-8 sent as they are: a lone continuation byte, an overlong "/", an encoded surrogate, a truncated sequence.
    const raw = (before: string, bytes: number[], after: string) => Uint8Array.from(Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]));
    for (const [i, answer] of [
      await post('application/json', '{"user":"me","first_name":"a\\ud800b","last_name":"B"}'),
      await post('application/json', '{"user":"me","first_name":"a\\udc00","last_name":"B"}'),
      await post('application/x-www-form-urlencoded', 'user=me&first_name=a%ED%A0%80b&last_name=B'),
      await post('application/json', raw('{"user":"me","first_name":"a', [0x80], 'b","last_name":"B"}')),
      await post('application/json', raw('{"user":"me","first_name":"a', [0xc0, 0xaf], '","last_name":"B"}')),
      await post('application/x-www-form-urlencoded', raw('user=me&first_name=a', [0xed, 0xa0, 0x80], '&last_name=B')),
      await post('text/plain', raw('user=me&last_name=B&first_name=a', [0xe2, 0x82], '')),
    ].entries()) {
      expect(answer.status, `body ${i}`).toBe(403);
      expect(answer.headers.get('service-api-error-code')).toBe('INVALID_ARGUMENT');
      expect(((await answer.json()) as { error: { argument: string } }).error.argument).toBe('first_name');
    }
    const gql = await fetch(`${http.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: bearer(user) },
      body: '{"query":"query ($s: String) { users(search: $s) { edges { node { id } } } }","variables":{"s":"a\\ud800"}}',
    });
    const result = (await gql.json()) as { data?: unknown; errors: { extensions: { code: string; argument: string } }[] };
    expect(result.data).toBeUndefined();
    expect(result.errors[0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'search' });
    // The same with the byte itself, on the fast path and on yoga's (a subscription document is yoga's to run).
    for (const query of ['query ($s: String) { users(search: $s) { edges { node { id } } } }', 'subscription ($s: ID!) { examResultFinished(exam: $s) { id } }']) {
      const rawGql = await fetch(`${http.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: bearer(user) },
        body: raw(`{"query":${JSON.stringify(query)},"variables":{"s":"a`, [0xff], '"}}'),
      });
      const answered = (await rawGql.json()) as { data?: unknown; errors?: { extensions: { code: string } }[]; error?: { code: string } };
      expect(answered.data ?? null, query).toBeNull();
      expect(answered.errors?.[0]?.extensions.code ?? answered.error?.code, query).toMatch(/^(BAD_USER_INPUT|BAD_REQUEST)$/);
    }
    // Nothing was stored altered.
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: user.user.id } })).firstName).toBe('refusal-user');
  });

  it('answers every 404 outside the API and a 415 at /graphql with the error headers and a JSON body', async () => {
    for (const path of ['/no/such/page', '/files/nosuchfile', '/exports/nosuchtokenxxxxxxxxxxxx', '/login/x', '/results/x']) {
      const answer = await fetch(`${http.url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('service-api-error-code'), path).toBe('NOT_FOUND');
      expect(answer.headers.get('content-type'), path).toMatch(/^(application\/json|text\/html)/);
    }
    const plain = await fetch(`${http.url}/no/such/page`);
    expect(await plain.json()).toEqual({ error: { status: 404, code: 'NOT_FOUND', message: 'Not found' } });
    const text = await fetch(`${http.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain', authorization: bearer(user), 'x-graphql-yoga-csrf': '1' }, body: '{ me { id } }' });
    expect(text.status).toBe(415);
    expect(text.headers.get('service-api-error-code')).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(((await text.json()) as { error: { code: string } }).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('closes connections from one address over HTTP_MAX_CONNECTIONS_PER_ADDRESS at once', async () => {
    const held = Array.from({ length: 20 }, () => socketTo(http.url));
    await Promise.all(held.map((h) => connected(h.socket)));
    await new Promise((r) => setTimeout(r, 100));
    const extra = socketTo(http.url);
    const started = performance.now();
    const closed = await extra.closed;
    expect(closed.at - started).toBeLessThan(1000);
    expect(closed.text).toBe('');
    for (const h of held) h.socket.destroy();
    await Promise.all(held.map((h) => h.closed));
    await new Promise((r) => setTimeout(r, 100));
    expect((await fetch(`${http.url}/health/live`)).status).toBe(200);
  });
});
