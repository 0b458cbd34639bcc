import type { Prisma } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import { deliverWebhook, type StoredPayload } from './delivery.ts';
import type { WebhookEvent } from './webhooks.schemas.ts';

export interface WebhookEventInput {
  organizationId: string;
  event: WebhookEvent;
  /** The event's own data, sent as `data`. */
  data: unknown;
  /** The user the event is about: the owner of a custom-field key (authentication_key_custom). */
  userId?: string;
  /** Only this webhook (organization:webhook:trigger names one). */
  webhookId?: string;
}

/**
 * Enqueues one delivery per active webhook of the organization that listens to the event, in the
 * caller's transaction, each with its job: they exist exactly when the change that caused them
 * does, and a worker sends them after the commit (at least once). The payload is fixed here, so every
 * retry sends the same body. Returns the delivery ids.
 */
export async function enqueueEvent(tx: Prisma.TransactionClient, input: WebhookEventInput): Promise<string[]> {
  const webhooks = await tx.webhook.findMany({
    where: { organizationId: input.organizationId, triggerEvent: input.event, active: true, ...(input.webhookId ? { id: input.webhookId } : {}) },
    select: { id: true, title: true, extraData: true, organization: { select: { id: true, externalId: true, title: true } } },
  });
  if (webhooks.length === 0) return [];
  const time = new Date();
  const rows = webhooks.map((w) => {
    const id = newId('WebhookDelivery');
    const body = {
      id,
      event: input.event,
      time: time.toISOString(),
      organization: { organization: w.organization.id, id: w.organization.externalId, title: w.organization.title },
      webhook: { webhook: w.id, title: w.title },
      data: input.data ?? null,
      // Configuration refuses extra keys that clash with the ones above.
      ...((w.extraData ?? {}) as Record<string, unknown>),
    };
    const payload: StoredPayload = { body: JSON.stringify(body), ...(input.userId ? { userId: input.userId } : {}) };
    return { id, webhookId: w.id, event: input.event, payload: payload as unknown as Prisma.InputJsonValue, nextAttemptAt: time, createdAt: time };
  });
  await tx.webhookDelivery.createMany({ data: rows });
  for (const row of rows) await enqueue(tx, deliverWebhook, { delivery: row.id }, { runAt: time, dedupeKey: row.id });
  return rows.map((r) => r.id);
}
