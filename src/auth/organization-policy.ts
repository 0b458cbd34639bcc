import type { Viewer } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { Organization, OrganizationMember, Prisma } from '../generated/prisma/client.ts';
import { PermissionError } from '../errors.ts';

/** Organization roles, lowest first: a higher role includes the lower ones. */
export const organizationRoles = ['member', 'teacher', 'reporter', 'supervisor', 'admin'] as const;
export type OrganizationRole = (typeof organizationRoles)[number];
export const memberScopes = ['none', 'department', 'organization'] as const;
export type MemberScope = (typeof memberScopes)[number];

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

export async function organizationAccess(db: Db | Prisma.TransactionClient, viewer: Viewer, organization: Organization): Promise<OrganizationAccess> {
  const userId = viewer.user.id;
  const [membership, led, tree] = await Promise.all([
    db.organizationMember.findUnique({ where: { organizationId_userId: { organizationId: organization.id, userId } } }),
    db.departmentLeader.findMany({ where: { userId, department: { organizationId: organization.id } }, select: { departmentId: true } }),
    db.department.findMany({ where: { organizationId: organization.id }, select: { id: true, parentId: true } }),
  ]);
  const role = membership?.permOrganization ?? 'none';
  const manager = viewer.user.admin || organization.ownerId === userId || role === 'admin';
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
    canManageMembers: manager || roleAtLeast(role, 'supervisor'),
    canReport: manager || roleAtLeast(role, 'reporter'),
    ledDepartmentIds,
    visibleMembers,
  };
}

export function assertOrganization(allowed: boolean, action: string): void {
  if (!allowed) throw new PermissionError(`You may not ${action} in this organization`);
}
