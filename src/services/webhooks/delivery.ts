import http from 'node:http';
import https from 'node:https';
import type { Platform } from '../../context.ts';
import type { Webhook, WebhookDelivery } from '../../generated/prisma/client.ts';
import { pinnedLookup, resolveEndpoint } from './address-guard.ts';
import type { StoredPayload } from './events.ts';
import { sign } from './signature.ts';

/** The longest wait between two attempts. */
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** How long a claimed delivery stays out of other workers' reach beyond the request timeout. */
const LEASE_MARGIN_MS = 30_000;

/** Delay after the n-th failed attempt (n ≥ 1): base, 2×base, 4×base, … up to one hour. */
export function backoffMs(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);
}

/** A failure retrying cannot fix: the delivery fails at once. */
class PermanentFailure extends Error {}

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
async function keyOf(platform: Platform, webhook: Webhook, payload: StoredPayload): Promise<string | undefined> {
  if (webhook.authentication !== 'key') return undefined;
  if (webhook.keyCipher) return platform.secrets.open(webhook.keyCipher);
  const field = webhook.keyCustomField!;
  if (!payload.userId) throw new PermanentFailure(`no key: the event is about no user, so custom field '${field}' has no value`);
  const user = await platform.db.user.findUnique({ where: { id: payload.userId }, select: { customFields: true } });
  const value = (user?.customFields as Record<string, unknown> | undefined)?.[field];
  if (typeof value !== 'string' || value === '') throw new PermanentFailure(`no key: custom field '${field}' of user ${payload.userId} is empty`);
  return value;
}

type Claimed = WebhookDelivery & { webhook: Webhook };

/**
 * Takes up to `limit` due deliveries for this worker. Each is claimed by a compare-and-set on its
 * attempt counter, which also pushes its next attempt past the request timeout: of several
 * instances reading the same row only one update matches, and a worker that dies mid-request
 * leaves the delivery to be retried once the lease runs out (at least once, never lost).
 */
async function claimDue(platform: Platform, limit: number): Promise<Claimed[]> {
  const now = new Date();
  const due = await platform.db.webhookDelivery.findMany({
    where: { status: 'pending', nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: 'asc' },
    take: limit,
    select: { id: true, attempts: true },
  });
  const lease = new Date(now.getTime() + platform.config.webhooks.timeoutMs + LEASE_MARGIN_MS);
  const claimed: string[] = [];
  for (const d of due) {
    const { count } = await platform.db.webhookDelivery.updateMany({
      where: { id: d.id, status: 'pending', attempts: d.attempts },
      data: { attempts: d.attempts + 1, nextAttemptAt: lease },
    });
    if (count === 1) claimed.push(d.id);
  }
  if (claimed.length === 0) return [];
  return platform.db.webhookDelivery.findMany({ where: { id: { in: claimed } }, include: { webhook: true } });
}

/** One attempt of a claimed delivery, and its outcome recorded. */
async function attempt(platform: Platform, delivery: Claimed): Promise<boolean> {
  const { webhook } = delivery;
  const options = platform.config.webhooks;
  let status: number | undefined;
  let error: string | undefined;
  let permanent = false;
  try {
    if (!webhook.active) throw new PermanentFailure('the webhook is inactive');
    const payload = delivery.payload as unknown as StoredPayload;
    const request = buildRequest(webhook, delivery.id, payload.body, {
      signingSecret: platform.secrets.open(webhook.signingSecretCipher),
      key: await keyOf(platform, webhook, payload),
    });
    status = await send(request, options);
    if (status < 200 || status > 299) error = `HTTP ${status}`;
  } catch (e) {
    error = errorText(e);
    permanent = e instanceof PermanentFailure;
  }
  const now = new Date();
  if (error === undefined) {
    await platform.db.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: 'delivered', deliveredAt: now, lastStatus: status, lastError: null },
    });
    return true;
  }
  const retry = !permanent && webhook.retry === 'error' && delivery.attempts < options.maxAttempts;
  await platform.db.webhookDelivery.update({
    where: { id: delivery.id },
    data: {
      status: retry ? 'pending' : 'failed',
      lastStatus: status ?? null,
      lastError: error,
      nextAttemptAt: retry ? new Date(now.getTime() + backoffMs(delivery.attempts, options.retryBaseMs)) : now,
    },
  });
  platform.log.warn({ delivery: delivery.id, webhook: webhook.id, attempt: delivery.attempts, error, retry }, 'webhook delivery failed');
  return false;
}

/**
 * Sends the deliveries that are due, concurrently (a slow receiver delays only its own), and
 * answers how many arrived. Run by the worker; safe to run on several instances at once.
 */
export async function deliverDueWebhooks(platform: Platform, limit = 20): Promise<number> {
  const claimed = await claimDue(platform, limit);
  const results = await Promise.all(claimed.map((d) => attempt(platform, d)));
  return results.filter(Boolean).length;
}
