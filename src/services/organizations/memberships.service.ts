import type { Context } from '../../context.ts';
import type { Department, Organization, OrganizationMember, Prisma, User } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { assertMay } from '../../auth/policy.ts';
import { defaultLevels, type MemberLevels, type OrganizationAccess } from '../../auth/organization-policy.ts';
import { audit } from '../audit/audit.service.ts';
import { findUser, findUsers } from '../users/access.ts';
import { forgetLoaded, loaders } from '../loaders.ts';
import type { Selection } from '../selection.ts';
import { parseInput } from '../validation.ts';
import { findDepartment, levelsOf } from './departments.service.ts';
import { lockOrganizations, organizationFor, organizationLink } from './organizations.service.ts';
import * as s from './organizations.schemas.ts';
import { contactOf } from '../notifications/notifications.service.ts';

/**
 * Memberships. A write states the whole membership: its department (none when not given) and its
 * levels (the department's, or the permission_ arguments over the defaults member/none/none). An
 * existing membership is updated in place, never duplicated.
 *
 * Competencies reach a member directly (CompetencyMember), through the member's department
 * (CompetencyDepartment, read through the membership's department) or by being assigned to all.
 * Moving a member to another department therefore drops, with no row to delete, the competencies
 * it held only through the old department; direct assignments stay.
 */

export type Membership = OrganizationMember & { user: User; department: Department | null; organization: Organization };
type MembershipSelection = Selection<'OrganizationMember'>;
const include = { user: true, department: true, organization: true } as const;
const membersOrder: Prisma.OrganizationMemberOrderByWithRelationInput[] = [{ user: { fullName: 'asc' } }, { userId: 'asc' }];

/** Members of the organization the viewer may see, by name. */
export async function listMembers(ctx: Context, raw: Record<string, unknown>): Promise<{ organization: Organization; members: Membership[] }> {
  const access = await organizationFor(ctx, parseInput(s.organizationRef, raw).organization);
  const members = await ctx.db.organizationMember.findMany({ where: access.visibleMembers, include, orderBy: membersOrder });
  return { organization: access.organization, members };
}

/**
 * The members an organization shows the viewer, by name, as a relation loaded with the
 * organizations of a list: the rule of listMembers for every organization at once. An organization
 * reached without belonging to it (through a user the viewer manages) shows no one.
 */
export async function membersQuery(ctx: Context) {
  return { where: await loaders(ctx).visibleMembersWhere(), orderBy: membersOrder };
}

const byOrganizationTitle: Prisma.OrganizationMemberOrderByWithRelationInput[] = [{ organization: { title: 'asc' } }, { organizationId: 'asc' }];

/** A user's memberships, by organization title, as a relation loaded with the user (GraphQL). */
export const userMembershipsQuery = { orderBy: byOrganizationTitle };

/** The organizations of a user the viewer may read, by title. */
export async function userOrganizations(ctx: Context, raw: Record<string, unknown>): Promise<{ user: User; memberships: Membership[] }> {
  const user = await findUser(ctx, parseInput(s.userRef, raw).user);
  const memberships = await ctx.db.organizationMember.findMany({ where: { userId: user.id }, include, orderBy: byOrganizationTitle });
  return { user, memberships };
}

/** Organizations whose members the viewer manages; one it may not manage refuses the whole call. */
async function managedOrganizations(ctx: Context, codes: string[], argument: string): Promise<OrganizationAccess[]> {
  const out: OrganizationAccess[] = [];
  for (const code of new Set(codes)) {
    const access = await organizationFor(ctx, code, argument);
    assertMay(ctx.viewer.user, 'organization:members:update', access);
    out.push(access);
  }
  return out;
}

/** Users seen as members of these organizations: besides those the viewer may read, the only users a membership call may name. */
const seenMembers = (accesses: OrganizationAccess[]): Prisma.UserWhereInput => ({ memberships: { some: { OR: accesses.map((a) => a.visibleMembers) } } });

const levelsOfDepartment = (d: Department): MemberLevels => ({ permOrganization: d.permOrganization, permContent: d.permContent, permMembers: d.permMembers });

interface WriteRequest {
  organizations: string[];
  users: string[];
  options: s.MembershipOptions;
  /** organizations:members: an organization without the department uses the permission_ arguments. */
  fallback: boolean;
  arguments: { organizations: string; users: string };
}

/** Writes the memberships; returns their keys, in no particular order. */
async function writeMemberships(ctx: Context, request: WriteRequest): Promise<MembershipKey[]> {
  const { options } = request;
  const departmentRef = options.department || undefined;
  const levelsGiven = [options.permissionOrganization, options.permissionContent, options.permissionMembers].some((v) => v !== undefined);
  if (departmentRef && levelsGiven && !request.fallback) {
    throw new ArgumentError('department', 'should not be combined with the permission_ fields: members of a department take its levels', 'ARGUMENT_CONFLICT');
  }
  const accesses = await managedOrganizations(ctx, request.organizations, request.arguments.organizations);
  const users = await findUsers(ctx, request.users, request.arguments.users, seenMembers(accesses));
  const given = levelsOf(options, defaultLevels);
  const keys = await ctx.db.$transaction(async (tx) => {
    await lockOrganizations(tx, accesses.map((a) => a.organization.id));
    const keys: MembershipKey[] = [];
    for (const access of accesses) {
      const organizationId = access.organization.id;
      const department = departmentRef ? await findDepartment(tx, organizationId, departmentRef) : null;
      if (departmentRef && !department && !request.fallback) {
        throw new ArgumentError('department', `no department '${departmentRef}' in organization '${organizationId}'`, 'NOT_FOUND');
      }
      const levels = department ? levelsOfDepartment(department) : given;
      assertMay(ctx.viewer.user, 'organization:member:levels', { access, levels });
      const existing = await tx.organizationMember.findMany({ where: { organizationId, userId: { in: users.map((u) => u.id) } } });
      for (const user of users) {
        const current = existing.find((m) => m.userId === user.id);
        // A new member must be a user the viewer may read; a member may be changed by whoever manages members.
        if (!current) assertMay(ctx.viewer.user, 'organization:member:add', user);
        else assertMay(ctx.viewer.user, 'organization:member:update', { access, levels: current, userId: user.id });
        const data = { departmentId: department?.id ?? null, ...levels };
        await tx.organizationMember.upsert({
          where: { organizationId_userId: { organizationId, userId: user.id } },
          create: { organizationId, userId: user.id, ...data },
          update: data,
        });
        if (options.notify) await notifyMember(ctx, tx, { organization: access.organization, user, department, levels, added: !current });
        keys.push({ organizationId, userId: user.id });
      }
      await audit(ctx, tx, 'organization.members.add', organizationId);
    }
    return keys;
  });
  forgetLoaded(ctx);
  return keys;
}

type MembershipKey = { organizationId: string; userId: string };

/**
 * The memberships written, by organization and then name. Read after the commit: relations are
 * loaded by parallel queries, which a transaction's one connection would queue.
 */
const written = (keys: MembershipKey[]) => ({ where: { OR: keys }, orderBy: [...byOrganizationTitle, ...membersOrder] });
const writtenMemberships = (ctx: Context, keys: MembershipKey[]): Promise<Membership[]> => ctx.db.organizationMember.findMany({ include, ...written(keys) });

/** Email to the user's address; SMS when the user has only a phone; nothing when it has neither. */
async function notifyMember(
  ctx: Context,
  tx: Prisma.TransactionClient,
  m: { organization: Organization; user: User; department: Department | null; levels: MemberLevels; added: boolean },
): Promise<void> {
  const to = contactOf(m.user);
  if (!to) return;
  const title = m.organization.title;
  const lines = [
    `Hello ${m.user.displayName},`,
    '',
    m.added ? `you are now a member of ${title}.` : `your membership of ${title} was updated.`,
    m.department ? `Department: ${m.department.title}` : undefined,
    `Role: ${m.levels.permOrganization}`,
    `Open: ${organizationLink(ctx, m.organization.id)}`,
  ];
  await ctx.notifier.enqueue(tx, {
    ...to,
    userId: m.user.id,
    subject: m.added ? `You are now a member of ${title}` : `Your membership of ${title} was updated`,
    body: `${lines.filter((l) => l !== undefined).join('\n')}\n`,
  });
}

/** POST organization:members: `department` and the permission_ arguments exclude each other. */
export async function addMembers(ctx: Context, raw: Record<string, unknown>): Promise<{ organization: Organization; members: Membership[] }> {
  const { organization, users, ...options } = parseInput(s.addMembers, raw);
  const members = await writtenMemberships(ctx, await writeMemberships(ctx, { organizations: [organization], users, options, fallback: false, arguments: { organizations: 'organization', users: 'users' } }));
  return { organization: members[0]!.organization, members };
}

/** POST organizations:members: the department's levels where it exists, the permission_ arguments elsewhere. */
export async function addMembersToOrganizations(ctx: Context, raw: Record<string, unknown>): Promise<Membership[]> {
  const { organizations, users, ...options } = parseInput(s.addMembersToOrganizations, raw);
  return writtenMemberships(ctx, await writeMemberships(ctx, { organizations, users, options, fallback: true, arguments: { organizations: 'organizations', users: 'users' } }));
}

/**
 * Several organizations and users with the rules of POST organization:members (GraphQL), or with
 * `fallback` those of POST organizations:members; by organization and then name, with what `query` selects.
 */
export async function addMemberships(ctx: Context, raw: Record<string, unknown>, query: MembershipSelection = {}, fallback = false): Promise<OrganizationMember[]> {
  const { organizations, users, ...options } = parseInput(s.addMembersToOrganizations, raw);
  const keys = await writeMemberships(ctx, { organizations, users, options, fallback, arguments: { organizations: 'organizations', users: 'users' } });
  return ctx.db.organizationMember.findMany({ ...query, ...written(keys) });
}

/** POST user:organizations: the rules of POST organization:members. */
export async function addUserOrganizations(ctx: Context, raw: Record<string, unknown>): Promise<{ user: User; memberships: Membership[] }> {
  const { user, organizations, ...options } = parseInput(s.addUserOrganizations, raw);
  const memberships = await writtenMemberships(ctx, await writeMemberships(ctx, { organizations, users: [user], options, fallback: false, arguments: { organizations: 'organizations', users: 'user' } }));
  return { user: memberships[0]!.user, memberships };
}

/**
 * Removes memberships (users who are not members are skipped). A member leaves with its
 * leadership of departments and its direct competency assignments in that organization.
 */
async function removeMemberships(ctx: Context, request: Omit<WriteRequest, 'options' | 'fallback'>): Promise<Removed> {
  const accesses = await managedOrganizations(ctx, request.organizations, request.arguments.organizations);
  const userIds = (await findUsers(ctx, request.users, request.arguments.users, seenMembers(accesses))).map((u) => u.id);
  const removed = await ctx.db.$transaction(async (tx) => {
    await lockOrganizations(tx, accesses.map((a) => a.organization.id));
    const out: Removed['removed'] = [];
    for (const access of accesses) {
      const organizationId = access.organization.id;
      const members = await tx.organizationMember.findMany({ where: { organizationId, userId: { in: userIds } } });
      for (const m of members) {
        assertMay(ctx.viewer.user, 'organization:member:remove', { access, levels: m, userId: m.userId });
      }
      const ids = members.map((m) => m.userId);
      await tx.departmentLeader.deleteMany({ where: { userId: { in: ids }, department: { organizationId } } });
      await tx.competencyMember.deleteMany({ where: { userId: { in: ids }, competency: { organizationId } } });
      await tx.organizationMember.deleteMany({ where: { organizationId, userId: { in: ids } } });
      await audit(ctx, tx, 'organization.members.remove', organizationId);
      out.push(...ids.map((userId) => ({ organizationId, userId })));
    }
    return out;
  });
  forgetLoaded(ctx);
  return { organizations: accesses.map((a) => a.organization.id), users: userIds, removed };
}

/** What a removal asked for (resolved), and the memberships it actually removed. */
export interface Removed {
  organizations: string[];
  users: string[];
  removed: { organizationId: string; userId: string }[];
}

export async function removeMembers(ctx: Context, raw: Record<string, unknown>): Promise<Removed> {
  const { organization, users } = parseInput(s.removeMembers, raw);
  return removeMemberships(ctx, { organizations: [organization], users, arguments: { organizations: 'organization', users: 'users' } });
}

export async function removeUserOrganizations(ctx: Context, raw: Record<string, unknown>): Promise<Removed> {
  const { user, organizations } = parseInput(s.removeUserOrganizations, raw);
  return removeMemberships(ctx, { organizations, users: [user], arguments: { organizations: 'organizations', users: 'user' } });
}

/** Several organizations and users at once (GraphQL). */
export async function removeOrganizationMembers(ctx: Context, raw: Record<string, unknown>): Promise<Removed> {
  const { organizations, users } = parseInput(s.removeOrganizationMembers, raw);
  return removeMemberships(ctx, { organizations, users, arguments: { organizations: 'organizations', users: 'users' } });
}
