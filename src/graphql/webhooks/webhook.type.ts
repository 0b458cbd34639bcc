import { builder } from '../builder.ts';
import { serviceNode } from '../node.ts';
import * as webhooks from '../../services/webhooks/webhooks.service.ts';
import type { StoredPayload } from '../../services/webhooks/delivery.ts';
import { mirrorDescription } from '../operation-prose.ts';

export const WebhookDeliveryType = builder.prismaObject('WebhookDelivery', {
  description: 'One delivery of an event to a webhook: sent at least once, retried with backoff when the webhook retries on error.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The delivery id: the payload `id` and the `webhook-id` header the receiver sees.' }),
    event: t.exposeString('event', { description: 'The event: exam-play-result, quiz-play-result, journey-completed or api.' }),
    status: t.exposeString('status', { description: 'pending (waiting for its first or next attempt), delivered or failed (gave up).' }),
    attempts: t.exposeInt('attempts', { description: 'Attempts made so far.' }),
    lastStatus: t.exposeInt('lastStatus', {
      nullable: true,
      description: 'HTTP status of the last answer; null when there was none (network error, timeout, refused address).',
    }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'Why the last attempt failed; null after success.' }),
    nextAttemptAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the next attempt is due; null unless pending.',
      resolve: (d) => (d.status === 'pending' ? d.nextAttemptAt : null),
    }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true, description: 'When a 2xx answer arrived.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the event happened.' }),
    payload: t.field({
      type: 'JSONObject',
      description: 'The payload as sent, without the key (which is added at send time).',
      resolve: (d) => JSON.parse((d.payload as unknown as StoredPayload).body) as Record<string, unknown>,
    }),
  }),
});

/** A webhook of an organization, for the organization's managers. Keys are never readable. */
export const WebhookType = builder.prismaObject('Webhook', {
  description: 'An outgoing webhook of an organization. Readable by the managers of the organization.',
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Title.' }),
    triggerEvent: t.exposeString('triggerEvent', { description: 'exam-play-result, quiz-play-result, journey-completed or api.' }),
    endpoint: t.exposeString('endpoint', { description: 'The URL deliveries go to.' }),
    method: t.exposeString('method', { description: 'POST (JSON body) or GET (query parameters).' }),
    authentication: t.exposeString('authentication', { description: 'none, or key.' }),
    authenticationSend: t.string({
      nullable: true,
      description: 'Where the key goes: header, bearer or data; null without key authentication.',
      resolve: (w) => (w.authentication === 'key' ? w.authenticationSend : null),
    }),
    authenticationSendHeader: t.exposeString('authHeader', { nullable: true, description: 'The header carrying the key.' }),
    authenticationSendData: t.exposeString('authDataField', { nullable: true, description: 'The data field carrying the key.' }),
    authenticationKeyCustom: t.exposeString('keyCustomField', {
      nullable: true,
      description: 'The user custom field whose value (for the user the event is about) is the key.',
    }),
    extraData: t.field({
      type: 'JSONObject',
      nullable: true,
      description: 'Extra fields added to every payload.',
      resolve: (w) => (w.extraData ?? null) as Record<string, unknown> | null,
    }),
    retry: t.exposeString('retry', { description: 'none (one attempt) or error (retries with backoff).' }),
    active: t.exposeBoolean('active', { description: 'Events are delivered only while active.' }),
    organization: t.relation('organization', { description: 'The organization.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    deliveries: t.relation('deliveries', {
      description: 'The most recent deliveries, newest first.',
      args: { first: t.arg.int({ defaultValue: 20, description: 'How many, 1-100 (default 20).' }) },
      query: (args) => webhooks.recentDeliveriesQuery(args.first),
    }),
  }),
});

serviceNode(WebhookType, {
  description: 'The identification string, the same as in the REST contract.',
  load: webhooks.findManagedWebhook,
});

builder.prismaObjectFields('Organization', (t) => ({
  webhooks: t.field({
    type: [WebhookType],
    nullable: true,
    description: 'Outgoing webhooks, newest first; null (with PERMISSION_DENIED) for callers who do not manage the organization.',
    select: (_args, _ctx, nested) => ({ webhooks: nested(webhooks.webhooksQuery) }),
    resolve: (organization, _args, ctx) => webhooks.managedWebhooks(ctx, organization, organization.webhooks),
  }),
}));

const CreateWebhookInput = builder.inputType('CreateWebhookInput', {
  description: mirrorDescription('A new webhook; the same rules as POST organization:webhook.', 'POST organization:webhook'),
  fields: (t) => ({
    organization: t.id({ required: true, description: 'The organization.' }),
    title: t.string({ required: true, description: 'Title, 1-255 characters.' }),
    triggerEvent: t.string({ required: true, description: 'exam-play-result, quiz-play-result, journey-completed or api.' }),
    endpoint: t.string({ required: true, description: 'http:// or https:// URL; must resolve to public addresses.' }),
    method: t.string({ description: 'POST (default) or GET.' }),
    authentication: t.string({ description: 'none (default) or key.' }),
    authenticationSend: t.string({ description: 'With key: header, bearer or data (default).' }),
    authenticationSendHeader: t.string({ description: 'With key sent in a header: the header name.' }),
    authenticationSendData: t.string({ description: 'With key sent in data: the field name.' }),
    authenticationKey: t.string({ description: 'With key: the key (stored encrypted, never shown again).' }),
    authenticationKeyCustom: t.string({ description: 'With key, instead of the key: a user custom field holding it.' }),
    extraData: t.field({ type: 'JSONObject', description: 'Extra fields added to every payload.' }),
    retry: t.string({ description: 'error (default): retry with backoff; none: one attempt.' }),
  }),
});

builder.queryFields((t) => ({
  webhookSigningSecret: t.string({
    description: 'The signing secret (whsec_…) a receiver verifies signatures with; for the organization managers.',
    args: { webhook: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => webhooks.getWebhookSigningSecret(ctx, args),
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.prismaField({
    type: 'Webhook',
    description: 'Creates a webhook in an organization the caller manages.',
    args: { input: t.arg({ type: CreateWebhookInput, required: true }) },
    resolve: (query, _root, args, ctx) => webhooks.createWebhook(ctx, { ...args.input }, query),
  }),
  updateWebhook: t.prismaField({
    type: 'Webhook',
    description: 'Activates or deactivates a webhook.',
    args: { organization: t.arg.id({ required: true }), webhook: t.arg.id({ required: true }), active: t.arg.boolean() },
    resolve: (query, _root, args, ctx) => webhooks.updateWebhook(ctx, { ...args }, query),
  }),
  deleteWebhook: t.id({
    description: 'Deletes a webhook and its deliveries; returns its identification string.',
    args: { organization: t.arg.id({ required: true }), webhook: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await webhooks.deleteWebhook(ctx, args)).id,
  }),
  triggerWebhooks: t.field({
    type: WebhookDeliveryType,
    description: 'Sends data to an active api webhook (organization:webhook:trigger); returns the queued delivery.',
    args: {
      organization: t.arg.id({ required: true }),
      webhook: t.arg.id({ required: true }),
      data: t.arg({ type: 'JSONObject', description: 'Sent as the payload `data`; null when omitted.' }),
    },
    resolve: async (_root, args, ctx) => (await webhooks.triggerWebhook(ctx, { ...args })).delivery,
  }),
}));
