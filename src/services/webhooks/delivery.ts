import http from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import type { Platform } from '../../context.ts';
import type { Webhook } from '../../generated/prisma/client.ts';
import { runDue } from '../../jobs/run.ts';
import { asSystem, type SystemContext } from '../../jobs/system.ts';
import { defineTask, PermanentJobError, type JobRun } from '../../jobs/task.ts';
import { pinnedLookup, resolveEndpoint } from './address-guard.ts';
import { sign } from './signature.ts';

/** The longest wait between two attempts. */
const MAX_BACKOFF_MS = 60 * 60 * 1000;

/**
 * What the WebhookDelivery.payload column holds: the payload as JSON text (jsonb would reorder
 * its keys; the text keeps the documented order and the same bytes on every attempt), without
 * the key, which is added at send time; and the user the event is about, which has no column of
 * its own and never reaches the receiver.
 */
export interface StoredPayload {
  body: string;
  userId?: string;
}

export interface OutgoingRequest {
  url: URL;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string;
}

/**
 * The HTTP request of one attempt. POST carries the payload as a JSON body; GET carries each
 * top-level field as a query parameter (objects and arrays as JSON text, like the contract's
 * string[json] arguments). The signed content is the body, or for GET the query string exactly
 * as sent. The key goes in its header, as a Bearer token, or in its data field.
 */
export function buildRequest(
  webhook: Pick<Webhook, 'endpoint' | 'method' | 'authenticationSend' | 'authHeader' | 'authDataField'>,
  deliveryId: string,
  /** The payload as JSON text. */
  body: string,
  secrets: { signingSecret: string; key?: string },
  now = Date.now(),
): OutgoingRequest {
  const { key } = secrets;
  const keyInData = key !== undefined && webhook.authenticationSend === 'data';
  const parsed = JSON.parse(body) as Record<string, unknown>;
  const data = keyInData ? { ...parsed, [webhook.authDataField!]: key } : parsed;
  const timestamp = Math.floor(now / 1000);
  const headers: Record<string, string> = {
    'user-agent': 'learning-platform-webhooks/1',
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
  };
  if (key !== undefined && webhook.authenticationSend === 'header') headers[webhook.authHeader!.toLowerCase()] = key;
  if (key !== undefined && webhook.authenticationSend === 'bearer') headers.authorization = `Bearer ${key}`;
  const url = new URL(webhook.endpoint);
  let content: string;
  let text: string | undefined;
  if (webhook.method === 'GET') {
    for (const [name, value] of Object.entries(data)) url.searchParams.append(name, typeof value === 'string' ? value : JSON.stringify(value));
    content = url.search.slice(1);
  } else {
    text = keyInData ? JSON.stringify(data) : body;
    content = text;
    headers['content-type'] = 'application/json';
  }
  headers['webhook-signature'] = sign(secrets.signingSecret, deliveryId, timestamp, content);
  return { url, method: webhook.method === 'GET' ? 'GET' : 'POST', headers, body: text };
}

/**
 * Sends one request and answers its status. Redirects are not followed (a 3xx is a failure like
 * any other non-2xx), the whole exchange is bounded by the timeout, and the connection goes to
 * the address the guard checked.
 */
async function send(request: OutgoingRequest, options: { allowPrivate: boolean; timeoutMs: number }): Promise<number> {
  const addresses = await resolveEndpoint(request.url, options.allowPrivate);
  const transport = request.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      request.url,
      {
        method: request.method,
        headers: request.headers,
        lookup: pinnedLookup(addresses),
        // A fresh connection per attempt: a pooled one could outlive the address check.
        agent: false,
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (res) => {
        // Only the status matters; the answer's body is read and dropped (a late error with it too).
        res.on('error', () => {});
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

function errorText(error: unknown): string {
  const e = error as { name?: string; message?: string; code?: string };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timed out';
  return String(e?.message || e?.code || error).slice(0, 1000);
}

/** The key of this delivery: the stored one, or the custom field of the user the event is about. */
async function keyOf(ctx: SystemContext, webhook: Webhook, payload: StoredPayload): Promise<string | undefined> {
  if (webhook.authentication !== 'key') return undefined;
  if (webhook.keyCipher) return ctx.secrets.open(webhook.keyCipher);
  const field = webhook.keyCustomField!;
  if (!payload.userId) throw new PermanentJobError(`no key: the event is about no user, so custom field '${field}' has no value`);
  const user = await ctx.db.user.findUnique({ where: { id: payload.userId }, select: { customFields: true } });
  const value = (user?.customFields as Record<string, unknown> | undefined)?.[field];
  if (typeof value !== 'string' || value === '') throw new PermanentJobError(`no key: custom field '${field}' of user ${payload.userId} is empty`);
  return value;
}

/**
 * One attempt of a delivery, recorded on its row (what GraphQL `Webhook.deliveries` shows). A
 * failure the webhook's settings do not retry (retry=none, no key, inactive) fails the job at
 * once; any other is retried by the kit with the webhook policy, and the row shows when.
 */
async function attempt(ctx: SystemContext, deliveryId: string, job: JobRun): Promise<'delivered' | 'skipped'> {
  const delivery = await ctx.db.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { webhook: true } });
  // Deleted with its webhook, or already delivered by a run that stopped before finishing its job.
  if (!delivery || delivery.status !== 'pending') return 'skipped';
  const { webhook } = delivery;
  let status: number | undefined;
  let error: string | undefined;
  let permanent = false;
  try {
    if (!webhook.active) throw new PermanentJobError('the webhook is inactive');
    const payload = delivery.payload as unknown as StoredPayload;
    const request = buildRequest(webhook, delivery.id, payload.body, {
      signingSecret: ctx.secrets.open(webhook.signingSecretCipher),
      key: await keyOf(ctx, webhook, payload),
    });
    status = await send(request, ctx.config.webhooks);
    if (status < 200 || status > 299) error = `HTTP ${status}`;
  } catch (e) {
    error = errorText(e);
    permanent = e instanceof PermanentJobError;
  }
  if (error === undefined) {
    await ctx.db.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: 'delivered', attempts: job.attempt, deliveredAt: new Date(), lastStatus: status, lastError: null },
    });
    return 'delivered';
  }
  const retryAt = permanent || webhook.retry === 'none' ? null : job.retryAt();
  await ctx.db.webhookDelivery.update({
    where: { id: delivery.id },
    data: { attempts: job.attempt, lastStatus: status ?? null, lastError: error, nextAttemptAt: retryAt ?? new Date() },
  });
  throw retryAt ? new Error(error) : new PermanentJobError(error);
}

export const deliverWebhook = defineTask('webhooks.deliver', z.object({ delivery: z.string() }), (ctx: SystemContext, { delivery }, job) => attempt(ctx, delivery, job), {
  retry: (ctx) => ({ maxAttempts: ctx.config.webhooks.maxAttempts, baseMs: ctx.config.webhooks.retryBaseMs, capMs: MAX_BACKOFF_MS }),
  onFailed: (_ctx, { delivery }, { tx, error }) =>
    tx.webhookDelivery.updateMany({ where: { id: delivery, status: 'pending' }, data: { status: 'failed', lastError: error } }),
});

/**
 * Sends the deliveries that are due now, concurrently (a slow receiver delays only its own), and
 * answers how many arrived. The workers do this continuously; safe to run on several instances at once.
 */
export async function deliverDueWebhooks(platform: Platform, limit = 20): Promise<number> {
  const outcomes = await runDue(asSystem(platform), [deliverWebhook], { limit });
  return outcomes.filter((o) => o.result === 'delivered').length;
}
