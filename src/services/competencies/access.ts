import type { Context } from '../../context.ts';
import type { Organization, Prisma } from '../../generated/prisma/client.ts';
import type { AppError } from '../../errors.ts';
import { assertMay, can, may } from '../../auth/policy.ts';
import { unknownContent } from '../content/records.ts';
import type { OrganizationAccess } from '../../auth/organization-policy.ts';
import { loaders } from '../loaders.ts';

/** Competencies live in the library: both features must be on for the caller. */
export async function requireCompetencyFeatures(ctx: Context): Promise<void> {
  await ctx.settings.require('library', ctx.viewer.user);
  await ctx.settings.require('competencies', ctx.viewer.user);
}

/** requireCompetencyFeatures as a question: a lookup that finds nothing instead of refusing. */
export async function competencyFeaturesOn(ctx: Context): Promise<boolean> {
  return (await ctx.settings.isEnabled('library', ctx.viewer.user)) && (await ctx.settings.isEnabled('competencies', ctx.viewer.user));
}

/** What the viewer may do in an organization; one lookup for all the organizations of a request. */
const accessTo = (ctx: Context, organization: Organization) => loaders(ctx).organizationAccess.load(organization);

/** An organization the viewer may view (a manager, a member, or through a permission rule); any other is unknown (NOT_FOUND). */
export async function findOrganization(ctx: Context, code: string, argument = 'organization'): Promise<Organization> {
  const organization = await ctx.db.organization.findUnique({ where: { id: code } });
  const unknown = unknownContent('organization', code, argument);
  if (!organization) throw unknown;
  const access = await accessTo(ctx, organization);
  if (!may(ctx.viewer.user, 'organization:view-as-member', access) && !(await can(ctx, 'organization:read', organization))) throw unknown;
  return organization;
}

/**
 * The organization of a competency, requirement or library document found by id. Only the
 * organization's members and managers read those: to anyone else the record answers `unknown`,
 * its own answer for an id of nothing.
 */
export async function organizationOfRecord(ctx: Context, organizationId: string, unknown: AppError): Promise<Organization> {
  const organization = (await loaders(ctx).organization.load(organizationId))!;
  if (!(await isMemberReader(ctx, organization))) throw unknown;
  return organization;
}

/** Whose competencies a report counts: every visible member, or the members of led departments. */
export interface ReportScope {
  scope: 'organization' | 'departments';
  access: OrganizationAccess;
  members: Prisma.OrganizationMemberWhereInput;
}

/**
 * Organization reporters (and managers) report on every member they can see; other department
 * leaders on the members of the departments they lead (and those below); anyone else is refused.
 */
export async function reportScope(ctx: Context, organization: Organization): Promise<ReportScope> {
  const access = await accessTo(ctx, organization);
  assertMay(ctx.viewer.user, 'organization:competencies:report', access);
  if (access.canReport) return { scope: 'organization', access, members: access.visibleMembers };
  return { scope: 'departments', access, members: { organizationId: organization.id, departmentId: { in: access.ledDepartmentIds } } };
}

/** Members (and managers) read the competencies and the library of their organization; outsiders do not. */
export async function isMemberReader(ctx: Context, organization: Organization): Promise<boolean> {
  return may(ctx.viewer.user, 'organization:competencies:read', await accessTo(ctx, organization));
}

/** Members read the competencies they are to acquire; outsiders do not. */
export async function memberAccess(ctx: Context, organization: Organization): Promise<OrganizationAccess> {
  const access = await accessTo(ctx, organization);
  assertMay(ctx.viewer.user, 'organization:competencies:read', access);
  return access;
}

/** Competencies, requirements and library documents are set up by the organization's managers. */
export async function managerAccess(ctx: Context, organization: Organization): Promise<OrganizationAccess> {
  const access = await accessTo(ctx, organization);
  assertMay(ctx.viewer.user, 'organization:competencies:update', access);
  return access;
}
