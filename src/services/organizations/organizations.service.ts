import type { Context } from '../../context.ts';
import type { Organization, Prisma } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import { organizationAccess, organizationRights, type OrganizationAccess } from '../../auth/organization-policy.ts';
import { allowedWhere, assertCan, may } from '../../auth/policy.ts';
import { audit } from '../audit/audit.service.ts';
import { forgetContent } from '../content/records.ts';
import { forgetLoaded } from '../loaders.ts';
import { pageWindow, paging, searchOnly } from '../paging.ts';
import type { Selection, Window } from '../selection.ts';
import { validateCustomFields } from '../users/users.service.ts';
import { parseInput } from '../validation.ts';
import * as s from './organizations.schemas.ts';
import { unknownContent } from '../content/records.ts';

type Tx = Prisma.TransactionClient;
type OrganizationSelection = Selection<'Organization'>;

/**
 * Loads an organization the viewer may view (a member, its owner, an instance administrator, or
 * through a permission rule) with what the viewer may do in it. Unknown: NOT_FOUND naming the
 * argument, as for one the viewer may not view.
 */
export async function organizationFor(ctx: Context, code: string, argument = 'organization', query: OrganizationSelection = {}): Promise<OrganizationAccess> {
  const organization = await ctx.db.organization.findUnique({ ...query, where: { id: code } });
  if (!organization) throw unknownContent('organization', code, argument);
  const access = await organizationAccess(ctx.db, ctx.viewer, organization);
  // Managers and members view it; only the others need their rules looked up.
  if (!may(ctx.viewer.user, 'organization:view-as-member', access)) await assertCan(ctx, 'organization:read', organization, unknownContent('organization', code, argument));
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
  const viewable = (await allowedWhere(ctx, 'organization:read')) as Prisma.OrganizationWhereInput;
  return search ? { AND: [viewable, { title: { contains: search, mode: 'insensitive' } }] } : viewable;
}

/** The organizations the viewer may view, by title: one list for both faces, paged as each asks. */
async function visibleOrganizations(ctx: Context, search: string | undefined, page: Window<'Organization'>): Promise<Organization[]> {
  return ctx.db.organization.findMany({ ...page, where: await visibleOrganizationsWhere(ctx, search), orderBy: [{ title: 'asc' }, { id: 'asc' }] });
}

/** GET organizations: a page of the contract. */
export async function listOrganizations(ctx: Context, raw: Record<string, unknown>): Promise<Organization[]> {
  const { search, limit, page } = parseInput(paging, raw);
  return visibleOrganizations(ctx, search, pageWindow({ search, limit, page }));
}

/** The same list as a cursor connection (`page` from GraphQL). */
export async function organizationsConnection(ctx: Context, raw: Record<string, unknown>, page: Window<'Organization'>): Promise<Organization[]> {
  return visibleOrganizations(ctx, parseInput(searchOnly, raw).search, page);
}

export async function getOrganization(ctx: Context, raw: Record<string, unknown>, query: OrganizationSelection = {}): Promise<Organization> {
  return (await organizationFor(ctx, parseInput(s.organizationRef, raw).organization, 'organization', query)).organization;
}

/** An organization by identification string when the viewer may view it, else null (a node lookup). */
export async function findVisibleOrganization(ctx: Context, id: string, query: OrganizationSelection = {}): Promise<Organization | null> {
  return ctx.db.organization.findFirst({ ...query, where: { AND: [{ id }, await visibleOrganizationsWhere(ctx)] } });
}

/** What `viewerRights` needs of an organization row: its owner and the viewer's role in it. */
export const rightsSelection = (ctx: Context) => ({
  ownerId: true,
  members: { where: { userId: ctx.viewer.user.id }, select: { permOrganization: true } },
});

/** What the viewer may do in an organization loaded with `rightsSelection`. */
export const viewerRights = (ctx: Context, organization: { ownerId: string | null; members: { permOrganization: string }[] }) =>
  organizationRights(ctx.viewer, organization, organization.members[0]?.permOrganization);

/** Setting the domain is a privileged action: the `privileged_fields` feature must be on (406). */
async function checkPrivileged(ctx: Context, domain: string | null | undefined): Promise<void> {
  if (domain !== undefined) await ctx.settings.require('privileged_fields', ctx.viewer.user);
}

export async function createOrganization(ctx: Context, raw: Record<string, unknown>, query: OrganizationSelection = {}): Promise<Organization> {
  const input = parseInput(s.createOrganization, raw);
  await checkPrivileged(ctx, input.domain);
  await validateCustomFields(ctx, 'organization', input.customFields);
  const customFields = Object.fromEntries(Object.entries(input.customFields).filter(([, v]) => v !== ''));
  return ctx.db.$transaction(async (tx) => {
    const organization = await tx.organization.create({
      ...query,
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

export async function updateOrganization(ctx: Context, raw: Record<string, unknown>, query: OrganizationSelection = {}): Promise<Organization> {
  const input = parseInput(s.updateOrganization, raw);
  const access = await organizationFor(ctx, input.organization, 'organization', query);
  await assertCan(ctx, 'organization:update', access.organization, unknownContent('organization', input.organization));
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
    const updated = await tx.organization.update({ ...query, where: { id: organization.id }, data });
    await audit(ctx, tx, 'organization.update', organization.id);
    return updated;
  });
}

/** Deletes the organization with its memberships, departments, competencies, webhooks, rules and tags. */
export async function deleteOrganization(ctx: Context, raw: Record<string, unknown>): Promise<Organization> {
  const code = parseInput(s.organizationRef, raw).organization;
  const access = await organizationFor(ctx, code);
  await assertCan(ctx, 'organization:delete', access.organization, unknownContent('organization', code));
  await ctx.db.$transaction(async (tx) => {
    await tx.organization.delete({ where: { id: access.organization.id } });
    await forgetContent(tx, 'organization', access.organization.id);
    await audit(ctx, tx, 'organization.delete', access.organization.id);
  });
  forgetLoaded(ctx);
  return access.organization;
}
