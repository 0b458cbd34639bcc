import type { Context } from '../../context.ts';
import type { Organization, Prisma } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { organizationAccess, type OrganizationAccess } from '../../auth/organization-policy.ts';
import { assertCan, viewableWhere, type ContentRef } from '../../auth/permissions.ts';
import { audit } from '../audit/audit.service.ts';
import { forgetContent } from '../content/registry.ts';
import { pageWindow, paging } from '../paging.ts';
import { validateCustomFields } from '../users/users.service.ts';
import { parseInput } from '../validation.ts';
import * as s from './organizations.schemas.ts';

type Tx = Prisma.TransactionClient;

export const organizationRef = (o: Pick<Organization, 'id' | 'ownerId'>): ContentRef => ({ type: 'organization', id: o.id, ownerId: o.ownerId, organizationId: null });

/**
 * Loads an organization the viewer may view (a member, its owner, an instance administrator, or
 * through a permission rule) with what the viewer may do in it. Unknown: NOT_FOUND naming the
 * argument; not the viewer's: 403.
 */
export async function organizationFor(ctx: Context, code: string, argument = 'organization'): Promise<OrganizationAccess> {
  const organization = await ctx.db.organization.findUnique({ where: { id: code } });
  if (!organization) throw new ArgumentError(argument, `no organization with identification string '${code}'`, 'NOT_FOUND');
  const access = await organizationAccess(ctx.db, ctx.viewer, organization);
  // Managers and members view it; only the others need their rules looked up.
  if (!access.manager && !access.membership) await assertCan(ctx, 'view', organizationRef(organization), 'read it');
  return access;
}

/**
 * Serialises writes to one organization's members and departments (a row lock on the
 * organization), so that checks made inside the transaction (no cycle in the tree, leaders are
 * members) still hold when it commits. Locks are taken in id order: no two writers deadlock.
 */
export async function lockOrganizations(tx: Tx, ids: string[]): Promise<void> {
  for (const id of [...new Set(ids)].sort()) await tx.$queryRaw`SELECT "id" FROM "Organization" WHERE "id" = ${id} FOR UPDATE`;
}

/** The organization's page, handed out in per-user lists. */
export const organizationLink = (ctx: Context, id: string) => `${ctx.config.baseUrl}/organizations/${id}`;

/** Organizations the viewer may view (owner, member, rules; administrators: all); `search` matches the title. */
export async function visibleOrganizationsWhere(ctx: Context, search?: string): Promise<Prisma.OrganizationWhereInput> {
  const viewable = (await viewableWhere(ctx.db, ctx.viewer, 'organization')) as Prisma.OrganizationWhereInput;
  return search ? { AND: [viewable, { title: { contains: search, mode: 'insensitive' } }] } : viewable;
}

export async function listOrganizations(ctx: Context, raw: Record<string, unknown>): Promise<Organization[]> {
  const { search, limit, page } = parseInput(paging, raw);
  return ctx.db.organization.findMany({
    where: await visibleOrganizationsWhere(ctx, search),
    orderBy: [{ title: 'asc' }, { id: 'asc' }],
    ...pageWindow({ search, limit, page }),
  });
}

export async function getOrganization(ctx: Context, raw: Record<string, unknown>): Promise<Organization> {
  return (await organizationFor(ctx, parseInput(s.organizationRef, raw).organization)).organization;
}

/** Setting the domain is a privileged action: the `privileged_fields` feature must be on (406). */
async function checkPrivileged(ctx: Context, domain: string | null | undefined): Promise<void> {
  if (domain !== undefined) await ctx.settings.require('privileged_fields', ctx.viewer.user);
}

export async function createOrganization(ctx: Context, raw: Record<string, unknown>): Promise<Organization> {
  const input = parseInput(s.createOrganization, raw);
  await checkPrivileged(ctx, input.domain);
  await validateCustomFields(ctx, 'organization', input.customFields);
  const customFields = Object.fromEntries(Object.entries(input.customFields).filter(([, v]) => v !== ''));
  return ctx.db.$transaction(async (tx) => {
    const organization = await tx.organization.create({
      data: {
        id: newId('Organization'),
        title: input.title,
        description: input.description ?? null,
        externalId: input.id ?? null,
        domain: input.domain,
        website: input.website,
        email: input.email,
        phone: input.phone,
        customFields,
        // The creator owns it, and so manages it without being a member.
        ownerId: ctx.viewer.user.id,
      },
    });
    await audit(ctx, tx, 'organization.create', organization.id);
    return organization;
  });
}

export async function updateOrganization(ctx: Context, raw: Record<string, unknown>): Promise<Organization> {
  const input = parseInput(s.updateOrganization, raw);
  const access = await organizationFor(ctx, input.organization);
  await assertCan(ctx, 'modify', organizationRef(access.organization), 'change it');
  await checkPrivileged(ctx, input.domain);
  const { organization } = access;
  const data: Prisma.OrganizationUpdateInput = {};
  if (input.title !== undefined) data.title = input.title;
  if (input.description !== undefined) data.description = input.description;
  if (input.id !== undefined) data.externalId = input.id;
  for (const key of ['domain', 'website', 'email', 'phone'] as const) if (input[key] !== undefined) data[key] = input[key];
  if (input.customFields) {
    await validateCustomFields(ctx, 'organization', input.customFields);
    const merged: Record<string, unknown> = { ...(organization.customFields as Record<string, unknown>), ...input.customFields };
    for (const [key, value] of Object.entries(input.customFields)) if (value === '') delete merged[key];
    data.customFields = merged as Prisma.InputJsonObject;
  }
  if (Object.keys(data).length === 0) return organization;
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.organization.update({ where: { id: organization.id }, data });
    await audit(ctx, tx, 'organization.update', organization.id);
    return updated;
  });
}

/** Deletes the organization with its memberships, departments, competencies, webhooks, rules and tags. */
export async function deleteOrganization(ctx: Context, raw: Record<string, unknown>): Promise<Organization> {
  const access = await organizationFor(ctx, parseInput(s.organizationRef, raw).organization);
  await assertCan(ctx, 'admin', organizationRef(access.organization), 'delete it');
  await ctx.db.$transaction(async (tx) => {
    await tx.organization.delete({ where: { id: access.organization.id } });
    await forgetContent(tx, 'organization', access.organization.id);
    await audit(ctx, tx, 'organization.delete', access.organization.id);
  });
  return access.organization;
}
