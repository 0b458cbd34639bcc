import type { Context } from '../../context.ts';
import type { Integration, Prisma, User } from '../../generated/prisma/client.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { assertAllowed, integrationPolicy } from '../../auth/policy.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import { paging } from '../users/users.schemas.ts';
import * as s from './integrations.schemas.ts';
import { generateKeys, keyKindOf, keysRecord, type KeysRecord } from './keys.ts';

async function findIntegration(ctx: Context, code: string): Promise<Integration> {
  const integration = await ctx.db.integration.findUnique({ where: { id: code } });
  if (!integration || !integrationPolicy.read(ctx.viewer, integration)) {
    if (!integration) throw new ArgumentError('integration', `no integration with identification string '${code}'`, 'NOT_FOUND');
    throw new PermissionError('You do not manage this integration');
  }
  return integration;
}

async function findManagedIntegration(ctx: Context, code: string): Promise<Integration> {
  const integration = await findIntegration(ctx, code);
  assertAllowed(integrationPolicy.manage(ctx.viewer, integration), 'You do not manage this integration');
  return integration;
}

/**
 * The organization an integration of `owner` (the application owner) may belong to: one the owner
 * owns or administers; instance administrators administer every organization. A plain member of an
 * organization who administers none is an organizational member, whose integrations always belong
 * to that organization, whatever was asked. `null` asks to remove it from its organization.
 */
async function resolveOrganization(ctx: Context, owner: User, requested: string | undefined | null): Promise<string | null | undefined> {
  const memberships = await ctx.db.organizationMember.findMany({ where: { userId: owner.id }, orderBy: [{ createdAt: 'asc' }, { organizationId: 'asc' }] });
  const owned = await ctx.db.organization.findMany({ where: { ownerId: owner.id }, select: { id: true } });
  const administered = new Set([...owned.map((o) => o.id), ...memberships.filter((m) => m.permOrganization === 'admin').map((m) => m.organizationId)]);
  if (!owner.admin && administered.size === 0 && memberships.length > 0) return memberships[0]!.organizationId;
  if (requested === undefined || requested === null) return requested;
  if (!(await ctx.db.organization.findUnique({ where: { id: requested }, select: { id: true } }))) {
    throw new ArgumentError('organization', `no organization with identification string '${requested}'`, 'NOT_FOUND');
  }
  if (!owner.admin && !administered.has(requested)) throw new ArgumentError('organization', 'is not an organization of the application owner', 'NOT_OWN_ORGANIZATION');
  return requested;
}

/** Integrations the viewer owns (administrators: all); `search` matches the title. */
export function visibleIntegrationsWhere(ctx: Context, search?: string): Prisma.IntegrationWhereInput {
  return {
    ...(ctx.viewer.user.admin ? {} : { ownerId: ctx.viewer.user.id }),
    ...(search ? { title: { contains: search, mode: 'insensitive' } } : {}),
  };
}

export async function listIntegrations(ctx: Context, raw: Record<string, unknown>): Promise<Integration[]> {
  const { search, limit, page } = parseInput(paging, raw);
  return ctx.db.integration.findMany({
    where: visibleIntegrationsWhere(ctx, search),
    orderBy: [{ title: 'asc' }, { id: 'asc' }],
    take: limit,
    skip: search ? 0 : (page - 1) * limit,
  });
}

export async function getIntegration(ctx: Context, raw: Record<string, unknown>): Promise<Integration> {
  return findIntegration(ctx, parseInput(s.integrationRef, raw).integration);
}

export async function createIntegration(ctx: Context, raw: Record<string, unknown>): Promise<Integration> {
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

export async function updateIntegration(ctx: Context, raw: Record<string, unknown>): Promise<Integration> {
  const input = parseInput(s.updateIntegration, raw);
  const integration = await findManagedIntegration(ctx, input.integration);
  const data: Prisma.IntegrationUncheckedUpdateInput = {};
  if (input.active !== undefined) data.active = input.active;
  if (input.organization !== undefined) {
    // Explicit, so that a wider manage policy (such as granted permissions) never extends to this.
    if (!ctx.viewer.user.admin && integration.ownerId !== ctx.viewer.user.id) {
      throw new PermissionError('Only the owner of the integration or an administrator may change its organization');
    }
    // The organization must be one of the integration's owner, who may not be the caller (an administrator).
    const owner = integration.ownerId === ctx.viewer.user.id ? ctx.viewer.user : await ctx.db.user.findUniqueOrThrow({ where: { id: integration.ownerId } });
    const removing = input.organization === '' || input.organization === 'none';
    data.organizationId = (await resolveOrganization(ctx, owner, removing ? null : input.organization)) ?? null;
  }
  if (Object.keys(data).length === 0) return integration;
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.integration.update({ where: { id: integration.id }, data });
    await audit(ctx, tx, 'integration.update', integration.id);
    return updated;
  });
}

export async function deleteIntegration(ctx: Context, raw: Record<string, unknown>): Promise<Integration> {
  const integration = await findManagedIntegration(ctx, parseInput(s.integrationRef, raw).integration);
  if (integration.id === ctx.viewer.integration.id) throw new PermissionError('You cannot delete the integration making this call');
  await ctx.db.$transaction(async (tx) => {
    await tx.integration.delete({ where: { id: integration.id } });
    await audit(ctx, tx, 'integration.delete', integration.id);
  });
  return integration;
}

export async function getIntegrationKeys(ctx: Context, raw: Record<string, unknown>): Promise<{ integration: Integration; keys: KeysRecord }> {
  const integration = await findManagedIntegration(ctx, parseInput(s.integrationRef, raw).integration);
  return { integration, keys: keysRecord(ctx, integration) };
}

/**
 * New key material replaces the old at once: the previous secret (or LTI 1.3 key pair) stops
 * working with this write. The public app id and consumer key stay, so only the secret is new.
 */
export async function rotateIntegrationKeys(ctx: Context, raw: Record<string, unknown>): Promise<{ integration: Integration; keys: KeysRecord }> {
  const integration = await findManagedIntegration(ctx, parseInput(s.integrationRef, raw).integration);
  const { appId: _app, consumerKey: _consumer, ...keys } = generateKeys(ctx, keyKindOf(integration));
  const updated = await ctx.db.$transaction(async (tx) => {
    const u = await tx.integration.update({ where: { id: integration.id }, data: keys });
    await audit(ctx, tx, 'integration.keys.rotate', integration.id);
    return u;
  });
  return { integration: updated, keys: keysRecord(ctx, updated) };
}
