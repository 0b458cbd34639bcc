import type { Context } from '../../context.ts';
import type { Organization, Prisma } from '../../generated/prisma/client.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { assertOrganization, organizationAccess, type OrganizationAccess } from '../../auth/organization-policy.ts';

/** Competencies live in the library: both features must be on for the caller. */
export async function requireCompetencyFeatures(ctx: Context): Promise<void> {
  await ctx.settings.require('library', ctx.viewer.user);
  await ctx.settings.require('competencies', ctx.viewer.user);
}

export async function findOrganization(ctx: Context, code: string, argument = 'organization'): Promise<Organization> {
  const organization = await ctx.db.organization.findUnique({ where: { id: code } });
  if (!organization) throw new ArgumentError(argument, `no organization with identification string '${code}'`, 'NOT_FOUND');
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
  const access = await organizationAccess(ctx.db, ctx.viewer, organization);
  if (access.canReport) return { scope: 'organization', access, members: access.visibleMembers };
  if (access.ledDepartmentIds.length > 0) {
    return { scope: 'departments', access, members: { organizationId: organization.id, departmentId: { in: access.ledDepartmentIds } } };
  }
  throw new PermissionError('Only organization reporters and department leaders see competency reports');
}

/** Members read the competencies they are to acquire; outsiders do not. */
export async function memberAccess(ctx: Context, organization: Organization): Promise<OrganizationAccess> {
  const access = await organizationAccess(ctx.db, ctx.viewer, organization);
  assertOrganization(access.manager || access.membership !== null, 'read competencies');
  return access;
}

/** Competencies, requirements and library documents are set up by the organization's managers. */
export async function managerAccess(ctx: Context, organization: Organization): Promise<OrganizationAccess> {
  const access = await organizationAccess(ctx.db, ctx.viewer, organization);
  assertOrganization(access.manager, 'manage competencies and library documents');
  return access;
}
