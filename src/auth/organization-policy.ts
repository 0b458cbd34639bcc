import type { Viewer } from './viewer.ts';
import type { Db } from '../db/client.ts';
import type { Organization, OrganizationMember, Prisma } from '../generated/prisma/client.ts';

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
  /** The viewer sees every member; otherwise itself and the members of `seenDepartmentIds`. */
  seesEveryMember: boolean;
  seenDepartmentIds: string[];
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

type Tree = { id: string; parentId: string | null }[];

function accessOf(viewer: Viewer, organization: Organization, membership: OrganizationMember | null, led: string[], tree: Tree): OrganizationAccess {
  const userId = viewer.user.id;
  const { manager, canManageMembers, canReport } = organizationRights(viewer, organization, membership?.permOrganization);
  const ledDepartmentIds = withDescendants(led, tree);
  const scope = membership?.permMembers ?? 'none';
  const seesEveryMember = manager || scope === 'organization';
  const own = !seesEveryMember && scope === 'department' && membership?.departmentId ? withDescendants([membership.departmentId], tree) : [];
  const seenDepartmentIds = seesEveryMember ? [] : [...new Set([...own, ...ledDepartmentIds])];
  const visibleMembers: Prisma.OrganizationMemberWhereInput = seesEveryMember
    ? { organizationId: organization.id }
    : { organizationId: organization.id, OR: [{ userId }, { departmentId: { in: seenDepartmentIds } }] };
  return { organization, membership, manager, canManageMembers, canReport, ledDepartmentIds, seesEveryMember, seenDepartmentIds, visibleMembers };
}

/** What the viewer may do in each organization, in their order: three statements whatever their number. */
export async function organizationAccesses(db: Db | Prisma.TransactionClient, viewer: Viewer, organizations: readonly Organization[]): Promise<OrganizationAccess[]> {
  if (organizations.length === 0) return [];
  const userId = viewer.user.id;
  const ids = [...new Set(organizations.map((o) => o.id))];
  const [memberships, led, tree] = await Promise.all([
    db.organizationMember.findMany({ where: { userId, organizationId: { in: ids } } }),
    db.departmentLeader.findMany({ where: { userId, department: { organizationId: { in: ids } } }, select: { departmentId: true } }),
    db.department.findMany({ where: { organizationId: { in: ids } }, select: { id: true, parentId: true, organizationId: true } }),
  ]);
  const ledIds = new Set(led.map((l) => l.departmentId));
  return organizations.map((organization) => {
    const own = tree.filter((d) => d.organizationId === organization.id);
    const membership = memberships.find((m) => m.organizationId === organization.id) ?? null;
    return accessOf(viewer, organization, membership, own.filter((d) => ledIds.has(d.id)).map((d) => d.id), own);
  });
}

export async function organizationAccess(db: Db | Prisma.TransactionClient, viewer: Viewer, organization: Organization): Promise<OrganizationAccess> {
  return (await organizationAccesses(db, viewer, [organization]))[0]!;
}

/**
 * The members the viewer may see in every organization at once, as one filter: the rule of
 * organizationAccess applied to each organization the viewer owns, belongs to or leads in. A
 * department belongs to one organization, so its members are seen only where its access says so.
 */
export async function visibleMembersEverywhere(db: Db | Prisma.TransactionClient, viewer: Viewer): Promise<Prisma.OrganizationMemberWhereInput> {
  if (viewer.user.admin) return {};
  const userId = viewer.user.id;
  const related = await db.organization.findMany({
    where: { OR: [{ ownerId: userId }, { members: { some: { userId } } }, { departments: { some: { leaders: { some: { userId } } } } }] },
  });
  const accesses = await organizationAccesses(db, viewer, related);
  return {
    OR: [
      { userId },
      { organizationId: { in: accesses.filter((a) => a.seesEveryMember).map((a) => a.organization.id) } },
      { departmentId: { in: accesses.flatMap((a) => a.seenDepartmentIds) } },
    ],
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
