import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, inject, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../src/db/client.ts';
import { verify } from '../../src/services/webhooks/signature.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { post } from '../helpers/service-process.ts';
import { freePort, startReceiver, type Receiver } from './receiver.ts';

/**
 * At-least-once across a crash: the real service (`npx tsx src/main.ts`) queues a delivery to a
 * receiver that is down, is killed with SIGKILL while the delivery waits for its retry, and after
 * a restart on the same data the delivery arrives, signed, with exactly the payload triggered.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const APP = 'restart-test-app';
const SECRET = 'restart-test-secret-0123456789';
const auth = { authorization: `Bearer ${APP}:${SECRET}` };
const rest = (port: number, endpoint: string, args: Record<string, string>) => post(port, endpoint, args, { APP, SECRET });

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-restart-'));
let pg: TestDatabase | undefined;
let receiver: Receiver | undefined;
const children = new Set<ChildProcess>();
let output = '';

afterAll(async () => {
  for (const child of children) await stop(child, 'SIGKILL');
  await receiver?.close();
  await pg?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The database both lives of the service open: a schema of its own, or the embedded one in DATA_DIR/db. */
async function prepareDatabase(): Promise<string | undefined> {
  if (onPostgres) {
    pg = await createTestDatabase();
    return pg.url;
  }
  // The migrated template of the test run, written to DATA_DIR/db where the service looks for it.
  const pglite = await PGlite.create({ dataDir: path.join(dataDir, 'db'), loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) });
  await (await openDatabase({ kind: 'pglite-instance', pglite })).close();
  await pglite.close();
  return undefined;
}

function start(port: number, databaseUrl?: string): ChildProcess {
  const child = spawn('npx', ['tsx', 'src/main.ts'], {
    cwd: ROOT,
    // Its own process group: npx starts tsx, which starts node; a kill must reach all of them.
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    // A clean environment: the test runner's own variables (BASE_URL=/, NODE_ENV…) are not the service's.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      BOOTSTRAP_APP: APP,
      BOOTSTRAP_SECRET: SECRET,
      SECRET_KEY: 'a'.repeat(64),
      LOG_LEVEL: 'error',
      RATE_LIMIT_PER_SECOND: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_MS: '1000',
      WEBHOOK_MAX_ATTEMPTS: '20',
      WORKER_INTERVAL_MS: '100',
    },
  });
  children.add(child);
  // Kept for the failure message: a service that does not come up says why on stderr.
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return child;
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return void children.delete(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, signal);
  await exited;
  children.delete(child);
}

/** Polls until `probe` answers; fails early when the service process has died. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, child?: ChildProcess, timeoutMs = 25_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (child && child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}) while waiting for ${what}:\n${output.slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the service said:\n${output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const healthy = (port: number, child: ChildProcess) =>
  until('the service to answer /health', async () => ((await fetch(`http://127.0.0.1:${port}/health`)).ok ? true : undefined), child);

async function gql(port: number, query: string, variables: Record<string, unknown>) {
  const r = await fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return ((await r.json()) as { data: any }).data;
}

const DELIVERIES = 'query($id: ID!) { node(id: $id) { ... on Webhook { deliveries { id status attempts lastStatus lastError } } } }';

it('a delivery pending when the service is killed arrives after the restart, signed and unchanged', { timeout: 90_000 }, async () => {
  const databaseUrl = await prepareDatabase();
  const port = await freePort();
  const hookPort = await freePort();

  // First life: the receiver is down, so the delivery fails and waits for its retry.
  const first = start(port, databaseUrl);
  await healthy(port, first);
  const { organization } = await rest(port, 'organization', { title: 'Restart Org' });
  const { webhook } = await rest(port, 'organization:webhook', {
    organization,
    title: 'Survives restarts',
    trigger_event: 'api',
    endpoint: `http://127.0.0.1:${hookPort}/hook`,
    authentication: 'key',
    authentication_send: 'bearer',
    authentication_key: 'restart-key',
  });
  const secret = (await gql(port, 'query($w: ID!) { webhookSigningSecret(webhook: $w) }', { w: webhook })).webhookSigningSecret as string;
  const data = { result: { score: 87.5, passed: true }, tags: ['restart', 'ünïcödé'], note: null };
  const { delivery } = await rest(port, 'organization:webhook:trigger', { organization, webhook, data: JSON.stringify(data) });
  const failed = await until('a failed first attempt', async () => {
    const d = (await gql(port, DELIVERIES, { id: webhook })).node.deliveries[0];
    return d?.lastError ? d : undefined;
  });
  expect(failed).toMatchObject({ id: delivery, status: 'pending', lastStatus: null, lastError: expect.stringContaining('ECONNREFUSED') });

  await stop(first, 'SIGKILL');
  receiver = await startReceiver(hookPort);
  // The killed service sends nothing any more, even once the retry is due.
  await new Promise((r) => setTimeout(r, 1500));
  expect(receiver.requests).toHaveLength(0);

  // Second life on the same data: the pending delivery goes out.
  const second = start(port, databaseUrl);
  const [request] = await receiver.waitFor(1, 30_000);
  expect(request!.method).toBe('POST');
  expect(request!.headers['webhook-id']).toBe(delivery);
  expect(request!.headers.authorization).toBe('Bearer restart-key');
  expect(
    verify(secret, { id: delivery, timestamp: String(request!.headers['webhook-timestamp']), signature: String(request!.headers['webhook-signature']) }, request!.body),
  ).toBe(true);
  const payload = JSON.parse(request!.body);
  expect(payload).toEqual({
    id: delivery,
    event: 'api',
    time: expect.stringMatching(/Z$/),
    organization: { organization, id: null, title: 'Restart Org' },
    webhook: { webhook, title: 'Survives restarts' },
    data,
  });

  await healthy(port, second);
  const delivered = await until('the delivery to be recorded', async () => {
    const d = (await gql(port, DELIVERIES, { id: webhook })).node.deliveries[0];
    return d?.status === 'delivered' ? d : undefined;
  });
  expect(delivered.attempts).toBeGreaterThanOrEqual(2);
  expect(delivered).toMatchObject({ lastStatus: 200, lastError: null });
  // Exactly once more: nothing else arrives.
  await new Promise((r) => setTimeout(r, 500));
  expect(receiver.requests).toHaveLength(1);
  await stop(second, 'SIGTERM');
});
