import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import { newId } from '../../ids.ts';

export interface Message {
  channel: 'email' | 'sms';
  recipient: string;
  subject: string;
  body: string;
  userId?: string;
}

/** Where messages finally go. The default transport only records them (readable through GraphQL). */
export interface Transport {
  name: string;
  send(message: Message): Promise<void>;
}

export const recordingTransport: Transport = { name: 'record', send: async () => {} };

type Tx = Prisma.TransactionClient | Db;

const MAX_ATTEMPTS = 8;

/**
 * Notifications go through a durable outbox: `enqueue` writes the message in the caller's
 * transaction, so it exists exactly when the change that caused it does, and `deliverPending`
 * (run by the worker) sends it, retrying with backoff.
 */
export class Notifier {
  constructor(
    private readonly db: Db,
    private readonly transport: Transport = recordingTransport,
  ) {}

  async enqueue(tx: Tx, message: Message): Promise<void> {
    await tx.notification.create({ data: { id: newId('Notification'), ...message } });
  }

  /** Sends what is due; returns how many were sent. */
  async deliverPending(limit = 50): Promise<number> {
    const due = await this.db.notification.findMany({
      where: { status: 'pending', nextAttemptAt: { lte: new Date() } },
      orderBy: { createdAt: 'asc' },
      take: limit,
    });
    let sent = 0;
    for (const n of due) {
      try {
        await this.transport.send({ channel: n.channel as Message['channel'], recipient: n.recipient, subject: n.subject, body: n.body });
        await this.db.notification.update({
          where: { id: n.id },
          data: { status: 'sent', sentAt: new Date(), attempts: { increment: 1 }, lastError: null },
        });
        sent++;
      } catch (error) {
        const attempts = n.attempts + 1;
        await this.db.notification.update({
          where: { id: n.id },
          data: {
            attempts,
            lastError: String((error as Error).message ?? error).slice(0, 1000),
            status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
            nextAttemptAt: new Date(Date.now() + 2 ** attempts * 1000),
          },
        });
      }
    }
    return sent;
  }
}
