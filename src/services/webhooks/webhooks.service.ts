import type { Context } from '../../context.ts';
import type { Organization, Prisma, Webhook, WebhookDelivery } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { cancel } from '../../jobs/queue.ts';
import { assertMay, may } from '../../auth/policy.ts';
import { audit } from '../audit/audit.service.ts';
import { organizationFor } from '../organizations/organizations.service.ts';
import { loaders } from '../loaders.ts';
import type { Selection } from '../selection.ts';
import { parseInput } from '../validation.ts';
import * as s from './webhooks.schemas.ts';
import { checkEndpointHost, EndpointRefusedError } from './address-guard.ts';
import { enqueueEvent } from './events.ts';
import { deliverWebhook } from './delivery.ts';
import { newSigningSecret } from './signature.ts';

type WebhookSelection = Selection<'Webhook'>;

/** Webhooks are read by the organization's managers only. */
async function managesWebhooksOf(ctx: Context, organization: Organization): Promise<boolean> {
  return may(ctx.viewer.user, 'organization:webhooks:update', await loaders(ctx).organizationAccess.load(organization));
}

async function assertManager(ctx: Context, organization: Organization): Promise<void> {
  assertMay(ctx.viewer.user, 'organization:webhooks:update', await loaders(ctx).organizationAccess.load(organization));
}

async function managedOrganization(ctx: Context, id: string): Promise<Organization> {
  const access = await organizationFor(ctx, id);
  assertMay(ctx.viewer.user, 'organization:webhooks:update', access);
  return access.organization;
}

async function managedWebhook(ctx: Context, ref: { organization: string; webhook: string }, query: WebhookSelection = {}): Promise<{ organization: Organization; webhook: Webhook }> {
  const organization = await managedOrganization(ctx, ref.organization);
  const webhook = await ctx.db.webhook.findFirst({ ...query, where: { id: ref.webhook, organizationId: organization.id } });
  if (!webhook) throw new ArgumentError('webhook', `no webhook with identification string '${ref.webhook}' in this organization`, 'NOT_FOUND');
  return { organization, webhook };
}

/** A webhook by identification string when the viewer manages its organization, else null (a node lookup). */
export async function findManagedWebhook(ctx: Context, id: string, query: WebhookSelection = {}): Promise<Webhook | null> {
  const webhook = await ctx.db.webhook.findUnique({ ...query, where: { id } });
  const organization = webhook && (await loaders(ctx).organization.load(webhook.organizationId));
  return organization && (await managesWebhooksOf(ctx, organization)) ? webhook : null;
}

const conflict = (name: string, rule: string) => new ArgumentError(name, rule, 'ARGUMENT_CONFLICT');
const missing = (name: string, rule: string) => new ArgumentError(name, rule, 'MISSING_ARGUMENT');

type AuthSettings = Pick<Webhook, 'authentication' | 'authenticationSend' | 'authHeader' | 'authDataField' | 'keyCipher' | 'keyCustomField'>;

/**
 * The conditional rules of key authentication. A field that does not apply to the chosen mode is
 * refused (ARGUMENT_CONFLICT) rather than ignored, so a configuration never silently differs from
 * what the caller believes it sent.
 */
async function authSettings(ctx: Context, input: s.CreateWebhook): Promise<AuthSettings> {
  const keyOnly = ['authenticationSend', 'authenticationSendHeader', 'authenticationSendData', 'authenticationKey', 'authenticationKeyCustom'] as const;
  if (input.authentication === 'none') {
    const given = keyOnly.find((name) => input[name] !== undefined);
    if (given) throw conflict(given, 'applies only when authentication is key');
    return { authentication: 'none', authenticationSend: 'data', authHeader: null, authDataField: null, keyCipher: null, keyCustomField: null };
  }
  const send = input.authenticationSend ?? 'data';
  const { authenticationKey: key, authenticationSendHeader: header, authenticationSendData: field } = input;
  if (key !== undefined && input.authenticationKeyCustom !== undefined) {
    throw conflict('authenticationKeyCustom', 'names a custom field as the key, which excludes giving the key itself');
  }
  if (key === undefined && input.authenticationKeyCustom === undefined) {
    throw missing('authenticationKey', 'is required when authentication is key (unless a custom field is named as the key)');
  }
  if (send === 'header' && header === undefined) throw missing('authenticationSendHeader', 'is required when the key is sent in a header');
  if (send !== 'header' && header !== undefined) throw conflict('authenticationSendHeader', 'applies only when the key is sent in a header');
  if (send === 'data' && field === undefined) throw missing('authenticationSendData', 'is required when the key is sent in a data field');
  if (send !== 'data' && field !== undefined) throw conflict('authenticationSendData', 'applies only when the key is sent in a data field');
  if (header !== undefined && s.reservedHeaders.includes(header.toLowerCase())) {
    throw new ArgumentError('authenticationSendHeader', `must not be one of ${s.reservedHeaders.join(', ')}`);
  }
  if (field !== undefined && (s.reservedPayloadKeys as readonly string[]).includes(field)) {
    throw conflict('authenticationSendData', `must not be one of the payload fields ${s.reservedPayloadKeys.join(', ')}`);
  }
  if (field !== undefined && input.extraData && field in input.extraData) throw conflict('authenticationSendData', 'is also a key of extra_data');
  let keyCustomField: string | null = null;
  if (input.authenticationKeyCustom !== undefined) {
    const name = input.authenticationKeyCustom.replace(/^custom_/, '');
    const configured = await ctx.db.customField.findUnique({ where: { entity_key: { entity: 'user', key: name } } });
    if (!configured) throw new ArgumentError('authenticationKeyCustom', `no user custom field '${name}' is configured`, 'UNKNOWN_FIELD');
    keyCustomField = name;
  }
  return {
    authentication: 'key',
    authenticationSend: send,
    authHeader: header ?? null,
    authDataField: field ?? null,
    keyCipher: key === undefined ? null : ctx.secrets.seal(key),
    keyCustomField,
  };
}

/**
 * Refuses endpoints that are non-public IP addresses or obviously local names. Names are not
 * resolved here: DNS may be unavailable where the service runs, and its answer may change; each
 * delivery resolves and checks the addresses (see address-guard.ts).
 */
function checkEndpoint(ctx: Context, endpoint: string): void {
  try {
    checkEndpointHost(new URL(endpoint), ctx.config.webhooks.allowPrivate);
  } catch (error) {
    if (!(error instanceof EndpointRefusedError)) throw error;
    throw new ArgumentError('endpoint', error.message, error.reason === 'NON_PUBLIC' ? 'ENDPOINT_NOT_ALLOWED' : 'ENDPOINT_UNRESOLVABLE');
  }
}

export async function createWebhook(ctx: Context, raw: Record<string, unknown>, query: WebhookSelection = {}): Promise<Webhook> {
  const input = parseInput(s.createWebhook, raw);
  const organization = await managedOrganization(ctx, input.organization);
  const auth = await authSettings(ctx, input);
  checkEndpoint(ctx, input.endpoint);
  return ctx.db.$transaction(async (tx) => {
    const webhook = await tx.webhook.create({
      ...query,
      data: {
        id: newId('Webhook'),
        organizationId: organization.id,
        title: input.title,
        triggerEvent: input.triggerEvent,
        endpoint: input.endpoint,
        method: input.method,
        ...auth,
        ...(input.extraData ? { extraData: input.extraData as Prisma.InputJsonObject } : {}),
        retry: input.retry,
        signingSecretCipher: ctx.secrets.seal(newSigningSecret()),
        createdById: ctx.viewer.user.id,
      },
    });
    await audit(ctx, tx, 'webhook.create', webhook.id);
    return webhook;
  });
}

export async function getWebhook(ctx: Context, raw: Record<string, unknown>): Promise<Webhook> {
  return (await managedWebhook(ctx, parseInput(s.webhookRef, raw))).webhook;
}

/** Only `active` changes; a call without it changes nothing. */
export async function updateWebhook(ctx: Context, raw: Record<string, unknown>, query: WebhookSelection = {}): Promise<Webhook> {
  const input = parseInput(s.updateWebhook, raw);
  const { webhook } = await managedWebhook(ctx, input, query);
  if (input.active === undefined || input.active === webhook.active) return webhook;
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.webhook.update({ ...query, where: { id: webhook.id }, data: { active: input.active } });
    await audit(ctx, tx, 'webhook.update', webhook.id);
    return updated;
  });
}

/** Deleting a webhook also drops its deliveries, pending ones included, and their jobs. */
export async function deleteWebhook(ctx: Context, raw: Record<string, unknown>): Promise<Webhook> {
  const { webhook } = await managedWebhook(ctx, parseInput(s.webhookRef, raw));
  await ctx.db.$transaction(async (tx) => {
    const pending = await tx.webhookDelivery.findMany({ where: { webhookId: webhook.id, status: 'pending' }, select: { id: true } });
    await cancel(tx, deliverWebhook, pending.map((d) => d.id));
    await tx.webhook.delete({ where: { id: webhook.id } });
    await audit(ctx, tx, 'webhook.delete', webhook.id);
  });
  return webhook;
}

/**
 * organization:webhook:trigger: sends `data` to the named webhook, which must be an active webhook
 * of the organization with the api trigger. The event is about the calling user (the owner of a
 * custom-field key). Returns the delivery; its id is what the receiver sees as `webhook-id`.
 */
export async function triggerWebhook(ctx: Context, raw: Record<string, unknown>): Promise<{ webhook: Webhook; delivery: WebhookDelivery }> {
  const input = parseInput(s.triggerWebhook, raw);
  const { organization, webhook } = await managedWebhook(ctx, input);
  if (webhook.triggerEvent !== 'api') {
    throw new ArgumentError('webhook', `has the trigger event '${webhook.triggerEvent}'; only api webhooks can be triggered`, 'NOT_API_WEBHOOK');
  }
  if (!webhook.active) throw new ArgumentError('webhook', 'is inactive', 'WEBHOOK_INACTIVE');
  const delivery = await ctx.db.$transaction(async (tx) => {
    const [id] = await enqueueEvent(tx, { organizationId: organization.id, event: 'api', data: input.data ?? null, userId: ctx.viewer.user.id, webhookId: webhook.id });
    await audit(ctx, tx, 'webhook.trigger', webhook.id);
    return tx.webhookDelivery.findUniqueOrThrow({ where: { id: id! } });
  });
  return { webhook, delivery };
}

/** The Standard Webhooks signing secret (`whsec_…`), for the organization's managers; to anyone else the webhook is unknown. */
export async function getWebhookSigningSecret(ctx: Context, raw: Record<string, unknown>): Promise<string> {
  const { webhook: id } = parseInput(s.webhookById, raw);
  const webhook = await findManagedWebhook(ctx, id);
  if (!webhook) throw new ArgumentError('webhook', `no webhook with identification string '${id}'`, 'NOT_FOUND');
  return ctx.secrets.open(webhook.signingSecretCipher);
}

/** An organization's webhooks, newest first, as a relation loaded with the organizations of a list (GraphQL). */
export const webhooksQuery = { orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] } satisfies Prisma.WebhookFindManyArgs;

/**
 * The webhooks of an organization (loaded with `webhooksQuery`) for its managers; others are
 * refused. The check is batched for the organizations of a list.
 */
export async function managedWebhooks<T>(ctx: Context, organization: Organization, webhooks: T[]): Promise<T[]> {
  await assertManager(ctx, organization);
  return webhooks;
}

/** A webhook's most recent deliveries, newest first: 1-100 (default 20). */
export const recentDeliveriesQuery = (first: number | null | undefined) =>
  ({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: Math.min(Math.max(first ?? 20, 1), 100) }) satisfies Prisma.WebhookDeliveryFindManyArgs;
