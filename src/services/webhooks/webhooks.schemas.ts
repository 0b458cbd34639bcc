import { z } from 'zod';
import { contract } from '../contract-meta.ts';
import { bool, code, json, oneOf, text, url } from '../validation.ts';

export const webhookEvents = ['exam-play-result', 'quiz-play-result', 'journey-completed', 'api'] as const;
export type WebhookEvent = (typeof webhookEvents)[number];

/** Keys of every payload; `extra_data` and the key's data field may not take them. */
export const reservedPayloadKeys = ['id', 'event', 'time', 'organization', 'webhook', 'data'] as const;

/** Headers the delivery sets itself; the key's header may not replace them. */
export const reservedHeaders = ['host', 'content-type', 'content-length', 'transfer-encoding', 'connection', 'user-agent', 'webhook-id', 'webhook-timestamp', 'webhook-signature'];

/** Forms often send every field; an empty optional field counts as not given. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const MAX_EXTRA_DATA = 64 * 1024;
const MAX_DATA = 256 * 1024;

export const webhookRef = z.object({ organization: code(), webhook: code() });
export const webhookById = z.object({ webhook: code() });

export const createWebhook = z.object({
  organization: code(),
  title: text(1, 255),
  triggerEvent: oneOf(webhookEvents),
  endpoint: contract(
    url().refine((v) => /^https?:\/\//i.test(v), 'must be an http:// or https:// URL'),
    { description: 'destination of notifications' },
  ),
  method: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), oneOf(['POST', 'GET'])).default('POST'),
  authentication: oneOf(['none', 'key']).default('none'),
  /** Applies only with key authentication, where it defaults to data (see the service). */
  authenticationSend: contract(optional(oneOf(['header', 'bearer', 'data'])), { default: 'data', description: 'how the key is sent, with key authentication' }),
  authenticationSendHeader: contract(optional(
    z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() : v),
      z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/, 'must be an HTTP header name'),
    ),
  ), { description: 'header name; required when authentication is key and authentication_send is header' }),
  authenticationSendData: contract(optional(text(1, 128)), { description: 'data field name; required when authentication is key and authentication_send is data' }),
  authenticationKey: contract(optional(text(1, 1024)), { description: 'secret; required when authentication is key' }),
  authenticationKeyCustom: contract(optional(text(1, 64)), {
    description: 'name of a custom field used as the key; required when authentication is key; mutually exclusive with authentication_key',
  }),
  extraData: contract(optional(
    json()
      .refine(isObject, 'must be JSON text of an object')
      .refine((v) => JSON.stringify(v).length <= MAX_EXTRA_DATA, `must be at most ${MAX_EXTRA_DATA} characters of JSON`)
      .refine((v) => !isObject(v) || !reservedPayloadKeys.some((k) => k in v), `must not use the keys ${reservedPayloadKeys.join(', ')}`),
  ), { description: 'extra data sent with each notification' }),
  retry: oneOf(['none', 'error']).default('error'),
});
export type CreateWebhook = z.output<typeof createWebhook>;

export const updateWebhook = webhookRef.extend({ active: optional(bool()) });

export const triggerWebhook = webhookRef.extend({
  data: contract(optional(json().refine((v) => JSON.stringify(v).length <= MAX_DATA, `must be at most ${MAX_DATA} characters of JSON`)), { description: 'custom payload; triggers only webhooks whose trigger_event is api' }),
});
