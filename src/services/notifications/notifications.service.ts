import { pino, type Logger } from 'pino';
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import { newId } from '../../ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import { runDue } from '../../jobs/run.ts';
import { defineTask, type JobEnv, type JobRun } from '../../jobs/task.ts';

export interface Message {
  channel: 'email' | 'sms';
  recipient: string;
  subject: string;
  body: string;
  userId?: string;
}

/** How to reach a user: email when it has an address, SMS when it only has a phone, else not at all. */
export function contactOf(user: { email: string | null; phone: string | null }): Pick<Message, 'channel' | 'recipient'> | null {
  if (user.email) return { channel: 'email', recipient: user.email };
  return user.phone ? { channel: 'sms', recipient: user.phone } : null;
}

/**
 * Where messages finally go. `sent` means a real transport (SMTP) accepted the message;
 * `recorded` means none carries this channel and the outbox row is the whole delivery (readable
 * through GraphQL `notifications`). SMS has no transport, so SMS is always recorded.
 */
export interface Transport {
  name: string;
  send(message: Message): Promise<'sent' | 'recorded'>;
}

export const recordingTransport: Transport = { name: 'record', send: async () => 'recorded' };

type Tx = Prisma.TransactionClient | Db;
const isClient = (tx: Tx): tx is Db => '$connect' in tx;

/** Waits of 2, 4 … 128 seconds: a mail server away for a few minutes loses nothing. */
const retry = { maxAttempts: 8, baseMs: 2000, capMs: 60 * 60 * 1000 };

/**
 * Notifications go through a durable outbox: `enqueue` writes the message and its delivery job in
 * the caller's transaction, so both exist exactly when the change that caused them does; the
 * job kit runs `deliver`, retrying with backoff (2, 4, 8 … seconds, 8 attempts).
 */
export class Notifier {
  constructor(
    private readonly db: Db,
    private readonly transport: Transport = recordingTransport,
    private readonly log: Logger = pino({ level: 'silent' }),
  ) {}

  async enqueue(tx: Tx, message: Message): Promise<void> {
    // Outside a transaction, one is opened: a message without its job would never be sent.
    if (isClient(tx)) return tx.$transaction((inner) => this.enqueue(inner, message));
    await enqueueMessage(tx, message);
  }

  /** Sends what is due now, with this notifier's transport; answers how many were sent or recorded. */
  async deliverPending(limit = 50): Promise<number> {
    const outcomes = await runDue({ db: this.db, log: this.log, notifier: this }, [deliverNotification], { limit });
    return outcomes.filter((o) => o.result === 'delivered').length;
  }

  /** One attempt at one message, recorded on its outbox row. */
  async deliver(id: string, job: JobRun): Promise<'delivered' | 'skipped'> {
    const n = await this.db.notification.findUnique({ where: { id } });
    // Deleted, or already sent by a run that stopped before it could finish its job.
    if (!n || n.status !== 'pending') return 'skipped';
    try {
      const outcome = await this.transport.send({ channel: n.channel as Message['channel'], recipient: n.recipient, subject: n.subject, body: n.body });
      await this.db.notification.update({ where: { id }, data: { status: outcome, attempts: job.attempt, sentAt: new Date(), lastError: null } });
      return 'delivered';
    } catch (error) {
      const lastError = String((error as Error).message ?? error).slice(0, 1000);
      await this.db.notification.update({ where: { id }, data: { attempts: job.attempt, lastError, nextAttemptAt: job.retryAt() ?? new Date() } });
      throw error;
    }
  }
}

/** Writes a message and its delivery job in the caller's transaction (work done by the system). */
export async function enqueueMessage(tx: Prisma.TransactionClient, message: Message): Promise<void> {
  const id = newId('Notification');
  await tx.notification.create({ data: { id, ...message } });
  await enqueue(tx, deliverNotification, { notification: id }, { dedupeKey: id });
}

export const deliverNotification = defineTask(
  'notifications.deliver',
  z.object({ notification: z.string() }),
  (env: JobEnv & { notifier: Notifier }, { notification }, job) => env.notifier.deliver(notification, job),
  {
    retry,
    onFailed: (_env, { notification }, { tx, error }) =>
      tx.notification.updateMany({ where: { id: notification, status: 'pending' }, data: { status: 'failed', lastError: error } }),
  },
);
