import type { Context } from '../../context.ts';
import type { SystemContext } from '../../jobs/system.ts';
import type { Integration, Prisma } from '../../generated/prisma/client.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { allowedWhere, assertCan, may } from '../../auth/policy.ts';
import type { ActionOn } from '../../auth/actions.ts';
import { audit } from '../audit/audit.service.ts';
import { forgetContent } from '../content/records.ts';
import { parseInput } from '../validation.ts';
import { movedOrganization, resolveOrganization } from '../organizations/content-organization.ts';
import { pageWindow, paging, searchOnly } from '../paging.ts';
import type { Selection, Window } from '../selection.ts';
import * as s from './integrations.schemas.ts';
import { generateKeys, keyKindOf, keysRecord, replacementKeys, type KeysRecord } from './keys.ts';
import { unknownContent } from '../content/records.ts';

type IntegrationSelection = Selection<'Integration'>;

/**
 * Integrations are content under the one permission policy: reading one needs view, activating
 * or deactivating it modify, deleting it admin. Its keys are another matter: they let whoever
 * holds them act as the owner, so only the owner and instance administrators read or rotate them,
 * and only they move it to another organization (content-organization.ts).
 */
async function findIntegration(ctx: Context, code: string, action: ActionOn<'integration'>, query: IntegrationSelection = {}): Promise<Integration> {
  const integration = await ctx.db.integration.findUnique({ ...query, where: { id: code } });
  const unknown = unknownContent('integration', code);
  if (!integration) throw unknown;
  await assertCan(ctx, action, integration, unknown);
  return integration;
}

/** Integrations the viewer may view (administrators: all); `search` matches the title. */
export async function visibleIntegrationsWhere(ctx: Context, search?: string): Promise<Prisma.IntegrationWhereInput> {
  const viewable = (await allowedWhere(ctx, 'integration:read')) as Prisma.IntegrationWhereInput;
  return search ? { AND: [viewable, { title: { contains: search, mode: 'insensitive' } }] } : viewable;
}

/** The integrations a user owns, as a relation loaded with the user: the viewer's own (administrators: any user's). */
export const ownIntegrationsQuery = (ctx: Context) => ({
  ...(may(ctx.viewer.user, 'instance:records:read-all') ? {} : { where: { ownerId: ctx.viewer.user.id } }),
  orderBy: [{ createdAt: 'asc' as const }, { id: 'asc' as const }],
});

/** GET integrations: those the viewer may view, by title, a page of the contract. */
export async function listIntegrations(ctx: Context, raw: Record<string, unknown>): Promise<Integration[]> {
  const { search, limit, page } = parseInput(paging, raw);
  return ctx.db.integration.findMany({
    where: await visibleIntegrationsWhere(ctx, search),
    orderBy: [{ title: 'asc' }, { id: 'asc' }],
    ...pageWindow({ search, limit, page }),
  });
}

/**
 * The same integrations for a cursor connection (`page` from GraphQL), oldest first: the order the
 * dashboard's integrations connection has always had, which its tests pin.
 */
export async function integrationsConnection(ctx: Context, raw: Record<string, unknown>, page: Window<'Integration'>): Promise<Integration[]> {
  const { search } = parseInput(searchOnly, raw);
  return ctx.db.integration.findMany({ ...page, where: await visibleIntegrationsWhere(ctx, search), orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export async function getIntegration(ctx: Context, raw: Record<string, unknown>): Promise<Integration> {
  return findIntegration(ctx, parseInput(s.integrationRef, raw).integration, 'integration:read');
}

/** An integration by identification string when the viewer may view it, else null (a node lookup). */
export async function findVisibleIntegration(ctx: Context, id: string, query: IntegrationSelection = {}): Promise<Integration | null> {
  return ctx.db.integration.findFirst({ ...query, where: { AND: [{ id }, await visibleIntegrationsWhere(ctx)] } });
}

export async function createIntegration(ctx: Context, raw: Record<string, unknown>, query: IntegrationSelection = {}): Promise<Integration> {
  const input = parseInput(s.createIntegration, raw);
  const lms = input.type !== 'api';
  if (lms && input.lti === undefined) throw new ArgumentError('lti', 'is required for LMS integrations', 'MISSING_ARGUMENT');
  if (lms && input.platform === undefined) throw new ArgumentError('platform', 'is required for LMS integrations', 'MISSING_ARGUMENT');
  if (!lms && input.lti !== undefined) throw new ArgumentError('lti', 'applies to LMS integrations only', 'ARGUMENT_CONFLICT');
  if (!lms && input.platform !== undefined) throw new ArgumentError('platform', 'applies to LMS integrations only', 'ARGUMENT_CONFLICT');
  // 1.0 and 1.1 share one key kind; the record names it as the contract does, `1.0/1.1`.
  const lti = input.lti === undefined ? null : input.lti === '1.3' ? '1.3' : '1.0/1.1';
  const organizationId = await resolveOrganization(ctx, ctx.viewer.user, input.organization);
  const keys = generateKeys(ctx, keyKindOf({ type: input.type, lti }));
  return ctx.db.$transaction(async (tx) => {
    const integration = await tx.integration.create({
      ...query,
      data: {
        id: newId('Integration'),
        title: input.title,
        description: input.description,
        type: input.type,
        lti,
        platform: input.platform,
        ownerId: ctx.viewer.user.id,
        organizationId: organizationId ?? null,
        ...keys,
      },
    });
    await audit(ctx, tx, 'integration.create', integration.id);
    return integration;
  });
}

export async function updateIntegration(ctx: Context, raw: Record<string, unknown>, query: IntegrationSelection = {}): Promise<Integration> {
  const input = parseInput(s.updateIntegration, raw);
  const integration = await findIntegration(ctx, input.integration, 'integration:update', query);
  const data: Prisma.IntegrationUncheckedUpdateInput = {};
  if (input.active !== undefined) data.active = input.active;
  if (input.organization !== undefined) data.organizationId = await movedOrganization(ctx, integration, input.organization, 'integration:organization:update');
  if (Object.keys(data).length === 0) return integration;
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.integration.update({ ...query, where: { id: integration.id }, data });
    await audit(ctx, tx, 'integration.update', integration.id);
    return updated;
  });
}

export async function deleteIntegration(ctx: Context, raw: Record<string, unknown>): Promise<Integration> {
  const integration = await findIntegration(ctx, parseInput(s.integrationRef, raw).integration, 'integration:delete');
  if (integration.id === ctx.viewer.integration.id) throw new PermissionError('You cannot delete the integration making this call');
  await ctx.db.$transaction(async (tx) => {
    await tx.integration.delete({ where: { id: integration.id } });
    await forgetContent(tx, 'integration', integration.id);
    await audit(ctx, tx, 'integration.delete', integration.id);
  });
  return integration;
}

export async function getIntegrationKeys(ctx: Context, raw: Record<string, unknown>): Promise<{ integration: Integration; keys: KeysRecord }> {
  const integration = await findIntegration(ctx, parseInput(s.integrationRef, raw).integration, 'integration:keys');
  return { integration, keys: keysRecord(ctx, integration) };
}

/**
 * New key material replaces the old at once: the previous secret (or LTI 1.3 key pair) stops
 * working with this write. The public app id and consumer key stay, so only the secret is new.
 */
export async function rotateIntegrationKeys(ctx: Context, raw: Record<string, unknown>): Promise<{ integration: Integration; keys: KeysRecord }> {
  const integration = await findIntegration(ctx, parseInput(s.integrationRef, raw).integration, 'integration:keys');
  return replaceKeys(ctx, integration);
}

/**
 * The same rotation on an operator's command (no caller to check): the integration named by its
 * identification string or, for an API integration, its app id.
 */
export async function rotateIntegrationKeysAsSystem(system: SystemContext, ref: string): Promise<{ integration: Integration; keys: KeysRecord }> {
  const integration = await system.db.integration.findFirst({ where: { OR: [{ id: ref }, { appId: ref }] } });
  if (!integration) throw unknownContent('integration', ref);
  return replaceKeys(system, integration);
}

async function replaceKeys(ctx: Context | SystemContext, integration: Integration): Promise<{ integration: Integration; keys: KeysRecord }> {
  const updated = await ctx.db.$transaction(async (tx) => {
    const u = await tx.integration.update({ where: { id: integration.id }, data: replacementKeys(ctx, integration) });
    await audit(ctx, tx, 'integration.keys.rotate', integration.id);
    return u;
  });
  return { integration: updated, keys: keysRecord(ctx, updated) };
}
