import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { Notifier } from '../../src/services/notifications/notifications.service.ts';
import { startWorkers } from '../../src/jobs/workers.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { NotificationsDocument } from '../../schema/operations/generated.ts';
import { ISO, expectCode, ok, refused } from '../graphql/client.ts';

interface Mail {
  from: string;
  to: string[];
  data: string;
}

/**
 * A tiny SMTP server (RFC 5321's minimum: EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT) that
 * records what it accepts; `rejectRecipients` answers RCPT with a permanent 550.
 */
async function startSmtp() {
  const mails: Mail[] = [];
  const state = { rejectRecipients: false };
  const server: Server = createServer((socket) => {
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let mail: Mail = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 smtp.test ESMTP ready');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          mails.push({ ...mail, data: buffer.slice(0, end) });
          buffer = buffer.slice(end + 5);
          inData = false;
          mail = { from: '', to: [], data: '' };
          reply('250 2.0.0 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.split(' ')[0]!.toUpperCase();
        const address = /<([^>]*)>/.exec(line)?.[1] ?? '';
        if (verb === 'EHLO') socket.write('250-smtp.test\r\n250 8BITMIME\r\n');
        else if (verb === 'HELO') reply('250 smtp.test');
        else if (verb === 'MAIL') {
          mail.from = address;
          reply('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          if (state.rejectRecipients) reply('550 5.1.1 mailbox unavailable');
          else {
            mail.to.push(address);
            reply('250 2.1.5 ok');
          }
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 ok'); // RSET, NOOP
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    mails,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Learning Platform <noreply@platform.test>' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const newUser = async (username: string) => {
  const r = await t.rpc('POST', 'user', { username, first_name: 'Mail', last_name: 'Reader', email: `${username}@example.com`, notify: 'true' });
  expect(r.status).toBe(200);
  return r.body.user as string;
};
const outbox = (userId: string) => t.db.prisma.notification.findMany({ where: { userId } });

describe('SMTP transport (SMTP_URL set)', () => {
  it('sends outbox email through the SMTP server with MAIL_FROM as sender', async () => {
    const user = await newUser('smtp-reader');
    const [queued] = await outbox(user);
    expect(queued).toMatchObject({ status: 'pending', attempts: 0 });

    expect(await t.platform.notifier.deliverPending()).toBe(1);
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.from).toBe('noreply@platform.test');
    expect(mail.to).toEqual(['smtp-reader@example.com']);
    expect(mail.data).toMatch(/^From: Learning Platform <noreply@platform\.test>$/m);
    expect(mail.data).toMatch(/^To: smtp-reader@example\.com$/m);
    expect(mail.data).toContain(`Subject: ${queued!.subject}`);
    expect(mail.data).toContain('/login/');
    const [sent] = await outbox(user);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, lastError: null, sentAt: expect.any(Date) });
    // Sent once.
    expect(await t.platform.notifier.deliverPending()).toBe(0);
    expect(smtp.mails).toHaveLength(1);
  });

  it('records SMS, which has no transport, without touching SMTP', async () => {
    const user = await newUser('sms-reader');
    await t.db.prisma.notification.deleteMany({ where: { userId: user } });
    await t.platform.notifier.enqueue(t.db.prisma, { channel: 'sms', recipient: '+1 5550100', subject: '', body: 'Your code is 1234', userId: user });
    const mailsBefore = smtp.mails.length;
    expect(await t.platform.notifier.deliverPending()).toBe(1);
    expect(smtp.mails).toHaveLength(mailsBefore);
    expect((await outbox(user))[0]).toMatchObject({ channel: 'sms', status: 'recorded', attempts: 1, sentAt: expect.any(Date) });
  });

  it('keeps a refused message pending with the error and backs off', async () => {
    smtp.state.rejectRecipients = true;
    try {
      const user = await newUser('refused-reader');
      const started = Date.now();
      expect(await t.platform.notifier.deliverPending()).toBe(0);
      const [row] = await outbox(user);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, sentAt: null });
      expect(row!.lastError).toMatch(/550/);
      expect(row!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(started + 2000 - 50);
    } finally {
      smtp.state.rejectRecipients = false;
    }
  });

  it('the worker delivers the outbox on its own', async () => {
    const user = await newUser('worker-reader');
    const workers = startWorkers(t.platform, 50);
    try {
      const deadline = Date.now() + 5000;
      while ((await outbox(user))[0]!.status !== 'sent') {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await workers.stop();
    }
    expect(smtp.mails.at(-1)!.to).toEqual(['worker-reader@example.com']);
  });
});

describe('the outbox on the job kit', () => {
  // By payload: a failed job gives its key up.
  const jobOf = (id: string) => t.db.prisma.job.findFirst({ where: { task: 'notifications.deliver', payload: { equals: { notification: id } } } });

  it('a message and its delivery job are written with the change that causes them, or not at all', async () => {
    const message = { channel: 'sms' as const, recipient: '+1 5550102', subject: '', body: 'atomic' };
    await expect(
      t.db.prisma.$transaction(async (tx) => {
        await t.platform.notifier.enqueue(tx, message);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await t.db.prisma.notification.count({ where: { body: 'atomic' } })).toBe(0);

    await t.db.prisma.$transaction((tx) => t.platform.notifier.enqueue(tx, message));
    const row = await t.db.prisma.notification.findFirstOrThrow({ where: { body: 'atomic' } });
    expect(await jobOf(row.id)).toMatchObject({ status: 'pending', payload: { notification: row.id } });
    await t.platform.notifier.deliverPending();
    expect(await t.db.prisma.notification.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: 'recorded' });
    expect(await jobOf(row.id)).toBeNull();
  });

  it('retries a refused message with doubling waits and fails it for good after 8 attempts', async () => {
    smtp.state.rejectRecipients = true;
    try {
      const user = await newUser('hopeless-reader');
      const { id } = (await outbox(user))[0]!;
      const waits: number[] = [];
      for (let attempt = 1; attempt <= 8; attempt++) {
        await t.db.prisma.job.updateMany({ where: { dedupeKey: id }, data: { runAt: new Date() } });
        const before = Date.now();
        expect(await t.platform.notifier.deliverPending()).toBe(0);
        const row = (await outbox(user))[0]!;
        expect(row).toMatchObject({ attempts: attempt, status: attempt < 8 ? 'pending' : 'failed', sentAt: null });
        expect(row.lastError).toMatch(/550/);
        if (attempt < 8) waits.push(Math.round((row.nextAttemptAt.getTime() - before) / 1000));
      }
      expect(waits).toEqual([2, 4, 8, 16, 32, 64, 128]);
      expect(await jobOf(id)).toMatchObject({ status: 'failed', attempts: 8, lastError: expect.stringMatching(/550/) });
    } finally {
      smtp.state.rejectRecipients = false;
    }
  });
});

describe('recording transport (no SMTP_URL)', () => {
  it('records email as delivered by the outbox alone', async () => {
    const recording = new Notifier(t.db.prisma);
    const user = await newUser('recorded-reader');
    const mailsBefore = smtp.mails.length;
    await recording.deliverPending();
    expect((await outbox(user))[0]).toMatchObject({ status: 'recorded', attempts: 1 });
    expect(smtp.mails).toHaveLength(mailsBefore);
  });
});

describe('GraphQL notifications', () => {
  it('lists recorded messages newest first for administrators, with paging and a user filter', async () => {
    const user = await newUser('listed-reader');
    await t.platform.notifier.enqueue(t.db.prisma, { channel: 'sms', recipient: '+1 5550101', subject: '', body: 'second', userId: user });
    await t.platform.notifier.deliverPending();

    const first = await ok(t, NotificationsDocument, { first: 1, user });
    expect(first.notifications.edges).toHaveLength(1);
    expect(first.notifications.pageInfo.hasNextPage).toBe(true);
    const newest = first.notifications.edges[0]!.node;
    expect(newest).toEqual({
      id: expect.stringMatching(/^ntf_/),
      channel: 'sms',
      recipient: '+1 5550101',
      subject: '',
      body: 'second',
      userId: user,
      status: 'recorded',
      attempts: 1,
      lastError: null,
      sentAt: expect.stringMatching(ISO),
      createdAt: expect.stringMatching(ISO),
    });
    const rest = await ok(t, NotificationsDocument, { first: 5, after: first.notifications.pageInfo.endCursor, user });
    expect(rest.notifications.edges.map((e) => e.node)).toEqual([expect.objectContaining({ channel: 'email', status: 'sent', recipient: 'listed-reader@example.com' })]);
    expect(rest.notifications.pageInfo.hasNextPage).toBe(false);

    const all = await ok(t, NotificationsDocument, { first: 100 });
    expect(all.notifications.edges.length).toBeGreaterThan(2);

    const plain = await t.newCaller('not-an-admin');
    expectCode(await refused(t, NotificationsDocument, { first: 5 }, { as: plain }), 'PERMISSION_DENIED');
  });
});

describe('configuration of delivery', () => {
  it('has documented defaults and refuses bad values, listing each', () => {
    const c = loadConfig({ BASE_URL: 'https://learn.example.com' });
    expect(c.webhooks).toEqual({ allowPrivate: false, timeoutMs: 10_000, maxAttempts: 8, retryBaseMs: 5000 });
    expect(c.WORKER_INTERVAL_MS).toBe(1000);
    expect(c.WORKER_CONCURRENCY).toBe(10);
    expect(c.SMTP_URL).toBeUndefined();
    expect(c.mailFrom).toBe('no-reply@learn.example.com');
    expect(loadConfig({ MAIL_FROM: 'LP <lp@example.com>', WEBHOOK_ALLOW_PRIVATE: 'yes' })).toMatchObject({ mailFrom: 'LP <lp@example.com>', webhooks: { allowPrivate: true } });
    try {
      loadConfig({ SMTP_URL: 'http://mail', WEBHOOK_MAX_ATTEMPTS: '0', WEBHOOK_TIMEOUT_MS: 'soon', WEBHOOK_ALLOW_PRIVATE: 'maybe' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual(['SMTP_URL', 'WEBHOOK_ALLOW_PRIVATE', 'WEBHOOK_MAX_ATTEMPTS', 'WEBHOOK_TIMEOUT_MS']);
    }
    for (const bad of ['0', '101', 'many']) expect(() => loadConfig({ WORKER_CONCURRENCY: bad })).toThrow(/WORKER_CONCURRENCY: must be a whole number from 1 to 100/);
  });
});
