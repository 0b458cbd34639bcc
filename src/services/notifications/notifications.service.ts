import type { Notification, Prisma } from '../../generated/prisma/client.ts';
import type { Page } from '../query.ts';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { PermissionError } from '../../errors.ts';
import { newId } from '../../ids.ts';

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

const MAX_ATTEMPTS = 8;
/** Beyond the slowest SMTP exchange: a claim older than this is retried by any worker. */
const LEASE_MS = 5 * 60 * 1000;

/**
 * Notifications go through a durable outbox: `enqueue` writes the message in the caller's
 * transaction, so it exists exactly when the change that caused it does, and `deliverPending`
 * (run by the worker) sends it, retrying with backoff (2, 4, 8 … seconds, 8 attempts).
 */
export class Notifier {
  constructor(
    private readonly db: Db,
    private readonly transport: Transport = recordingTransport,
  ) {}

  async enqueue(tx: Tx, message: Message): Promise<void> {
    await tx.notification.create({ data: { id: newId('Notification'), ...message } });
  }

  /**
   * Sends what is due; returns how many were sent or recorded. Each message is claimed first by a
   * compare-and-set on its attempt counter, so several instances never send the same one twice.
   */
  async deliverPending(limit = 50): Promise<number> {
    const now = new Date();
    const due = await this.db.notification.findMany({
      where: { status: 'pending', nextAttemptAt: { lte: now } },
      orderBy: { createdAt: 'asc' },
      take: limit,
    });
    let done = 0;
    for (const n of due) {
      const attempts = n.attempts + 1;
      const claim = await this.db.notification.updateMany({
        where: { id: n.id, status: 'pending', attempts: n.attempts },
        data: { attempts, nextAttemptAt: new Date(now.getTime() + LEASE_MS) },
      });
      if (claim.count !== 1) continue;
      try {
        const outcome = await this.transport.send({ channel: n.channel as Message['channel'], recipient: n.recipient, subject: n.subject, body: n.body });
        await this.db.notification.update({ where: { id: n.id }, data: { status: outcome, sentAt: new Date(), lastError: null } });
        done++;
      } catch (error) {
        await this.db.notification.update({
          where: { id: n.id },
          data: {
            lastError: String((error as Error).message ?? error).slice(0, 1000),
            status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
            nextAttemptAt: new Date(Date.now() + 2 ** attempts * 1000),
          },
        });
      }
    }
    return done;
  }
}

/**
 * Messages of the outbox, newest first, for instance administrators only; `user` narrows to one
 * recipient user. `page` is a cursor connection's (GraphQL).
 */
export async function outbox(ctx: Context, raw: { user?: string | null }, page: Page<Prisma.NotificationFindManyArgs>): Promise<Notification[]> {
  if (!ctx.viewer.user.admin) throw new PermissionError('Only instance administrators may read notifications');
  return ctx.db.notification.findMany({ ...page, where: raw.user ? { userId: raw.user } : {}, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}
