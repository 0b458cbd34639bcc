import type { Viewer } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { Organization, OrganizationMember, Prisma } from '../generated/prisma/client.ts';
import { PermissionError } from '../errors.ts';

/** Organization roles, lowest first: a higher role includes the lower ones. */
export const organizationRoles = ['member', 'teacher', 'reporter', 'supervisor', 'admin'] as const;
export type OrganizationRole = (typeof organizationRoles)[number];
export const memberScopes = ['none', 'department', 'organization'] as const;
export type MemberScope = (typeof memberScopes)[number];
/** Levels on the organization's content, lowest first. */
export const contentLevels = ['none', 'view', 'report', 'control', 'modify', 'grant', 'admin'] as const;
export type ContentLevel = (typeof contentLevels)[number];

/** The three levels of a membership (or of a department, given to its members). */
export interface MemberLevels {
  permOrganization: string;
  permContent: string;
  permMembers: string;
}
export const defaultLevels: MemberLevels = { permOrganization: 'member', permContent: 'none', permMembers: 'none' };

export const roleAtLeast = (role: string, needed: OrganizationRole) =>
  organizationRoles.indexOf(role as OrganizationRole) >= organizationRoles.indexOf(needed);

/**
 * What the viewer may do in one organization. Managers (instance administrators, the owner and
 * organization admins) manage everything and see every member; supervisors manage members;
 * reporters and up see reports. Who else a member sees follows its `members` level: the whole
 * organization, or its own department and the departments below it. Department leaders see the
 * departments they lead and those below.
 */
export interface OrganizationAccess {
  organization: Organization;
  membership: OrganizationMember | null;
  manager: boolean;
  canManageMembers: boolean;
  canReport: boolean;
  /** Departments led by the viewer, with every department below them. */
  ledDepartmentIds: string[];
  /** Members the viewer may see, as a filter on OrganizationMember. */
  visibleMembers: Prisma.OrganizationMemberWhereInput;
}

/** Every department below the given ones (the given included), from the organization's tree. */
export function withDescendants(roots: Iterable<string>, tree: { id: string; parentId: string | null }[]): string[] {
  const children = new Map<string, string[]>();
  for (const d of tree) if (d.parentId) children.set(d.parentId, [...(children.get(d.parentId) ?? []), d.id]);
  const out = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return [...out];
}

/**
 * The rights that follow from the viewer's role alone (no department tree needed), so a list of
 * organizations can show them from one query.
 */
export function organizationRights(viewer: Viewer, organization: Pick<Organization, 'ownerId'>, role: string | undefined) {
  const manager = viewer.user.admin || organization.ownerId === viewer.user.id || role === 'admin';
  return {
    manager,
    canManageMembers: manager || roleAtLeast(role ?? 'none', 'supervisor'),
    canReport: manager || roleAtLeast(role ?? 'none', 'reporter'),
  };
}

export async function organizationAccess(db: Db | Prisma.TransactionClient, viewer: Viewer, organization: Organization): Promise<OrganizationAccess> {
  const userId = viewer.user.id;
  const [membership, led, tree] = await Promise.all([
    db.organizationMember.findUnique({ where: { organizationId_userId: { organizationId: organization.id, userId } } }),
    db.departmentLeader.findMany({ where: { userId, department: { organizationId: organization.id } }, select: { departmentId: true } }),
    db.department.findMany({ where: { organizationId: organization.id }, select: { id: true, parentId: true } }),
  ]);
  const { manager, canManageMembers, canReport } = organizationRights(viewer, organization, membership?.permOrganization);
  const ledDepartmentIds = withDescendants(led.map((l) => l.departmentId), tree);
  const scope = membership?.permMembers ?? 'none';
  let visibleMembers: Prisma.OrganizationMemberWhereInput;
  if (manager || scope === 'organization') visibleMembers = { organizationId: organization.id };
  else {
    const own = scope === 'department' && membership?.departmentId ? withDescendants([membership.departmentId], tree) : [];
    const departments = [...new Set([...own, ...ledDepartmentIds])];
    visibleMembers = { organizationId: organization.id, OR: [{ userId }, { departmentId: { in: departments } }] };
  }
  return {
    organization,
    membership,
    manager,
    canManageMembers,
    canReport,
    ledDepartmentIds,
    visibleMembers,
  };
}

const rank = (values: readonly string[], value: string) => values.indexOf(value);

/**
 * Whether the viewer may give a member these levels, or change or remove a member who has them.
 * Managers may do anything; a supervisor at most its own levels, so managing members never lifts
 * anyone (the supervisor included) above the supervisor.
 */
export function canGrantLevels(access: OrganizationAccess, levels: MemberLevels): boolean {
  if (access.manager) return true;
  const own = access.membership;
  if (!own) return false;
  return (
    rank(organizationRoles, levels.permOrganization) <= rank(organizationRoles, own.permOrganization) &&
    rank(contentLevels, levels.permContent) <= rank(contentLevels, own.permContent) &&
    rank(memberScopes, levels.permMembers) <= rank(memberScopes, own.permMembers)
  );
}

export function assertOrganization(allowed: boolean, action: string): void {
  if (!allowed) throw new PermissionError(`You may not ${action} in this organization`);
}
