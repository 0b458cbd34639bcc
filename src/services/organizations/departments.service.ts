import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { Department, DepartmentLeader, Organization, Prisma, User } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { assertMay } from '../../auth/policy.ts';
import {
  defaultLevels,
  withDescendants,
  type MemberLevels,
  type OrganizationAccess,
} from '../../auth/organization-policy.ts';
import { audit } from '../audit/audit.service.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { parseInput } from '../validation.ts';
import { forgetLoaded, loaders } from '../loaders.ts';
import type { Selection } from '../selection.ts';
import { lockOrganizations, organizationFor, visibleOrganizationsWhere } from './organizations.service.ts';
import * as s from './organizations.schemas.ts';

type Tx = Prisma.TransactionClient | Db;
type DepartmentSelection = Selection<'Department'>;

/**
 * Departments of an organization form a tree. A department gives its members its three levels:
 * a member in a department always has the department's levels (kept in the membership row, so
 * every permission check reads one place), and changing the department's levels changes theirs.
 */

/**
 * Depth-first order of a tree, each department with its level (0 at the root). Siblings keep the
 * order they come in, so callers load them ordered by title and the database's collation decides
 * for both faces alike.
 */
export function hierarchyOrder<T extends { id: string; parentId: string | null }>(departments: T[]): { department: T; level: number }[] {
  const known = new Set(departments.map((d) => d.id));
  const children = new Map<string | null, T[]>();
  for (const d of departments) {
    const parent = d.parentId && known.has(d.parentId) ? d.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), d]);
  }
  const out: { department: T; level: number }[] = [];
  const visit = (parent: string | null, level: number) => {
    for (const d of children.get(parent) ?? []) {
      out.push({ department: d, level });
      visit(d.id, level + 1);
    }
  };
  visit(null, 0);
  return out;
}

/**
 * A department by reference: its identification string, its name, or its external identifier,
 * in that order of precedence (a name wins over another department's equal external id).
 */
export async function findDepartment(db: Tx, organizationId: string, ref: string, query: DepartmentSelection = {}): Promise<Department | null> {
  const found = await db.department.findMany({ ...query, where: { organizationId, OR: [{ id: ref }, { title: ref }, { externalId: ref }] } });
  return found.find((d) => d.id === ref) ?? found.find((d) => d.title === ref) ?? found.find((d) => d.externalId === ref) ?? null;
}

/** As findDepartment; an unknown reference is refused naming the argument. */
export async function resolveDepartment(db: Tx, organizationId: string, ref: string, argument = 'department', query: DepartmentSelection = {}): Promise<Department> {
  const department = await findDepartment(db, organizationId, ref, query);
  if (!department) throw new ArgumentError(argument, `no department '${ref}' in the organization`, 'NOT_FOUND');
  return department;
}

/** Number of members of each department the viewer may see (departments without any are absent). */
async function memberCounts(db: Tx, access: OrganizationAccess): Promise<Map<string, number>> {
  const rows = await db.organizationMember.groupBy({
    by: ['departmentId'],
    where: { AND: [access.visibleMembers, { departmentId: { not: null } }] },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.departmentId!, r._count._all]));
}

export type DepartmentWithLeaders = Department & { leaders: (DepartmentLeader & { user: User })[] };

/** A department as the contract shows it. */
export interface DepartmentView {
  department: DepartmentWithLeaders;
  parent: string | null;
  level: number;
  members: number;
}

/** Siblings, and every list of departments, by title; the database's collation decides for both faces. */
const byTitle: Prisma.DepartmentOrderByWithRelationInput[] = [{ title: 'asc' }, { id: 'asc' }];
/** A department's leaders by name. */
const leadersByName: Prisma.DepartmentLeaderOrderByWithRelationInput[] = [{ user: { fullName: 'asc' } }, { userId: 'asc' }];

/** The lists of departments GraphQL loads with their parent rows, in the contract's orders. */
export const departmentQueries = {
  roots: { where: { parentId: null }, orderBy: byTitle },
  children: { orderBy: byTitle },
  all: { orderBy: byTitle },
  leaders: { orderBy: leadersByName },
} satisfies Record<string, Prisma.DepartmentFindManyArgs | Prisma.DepartmentLeaderFindManyArgs>;

const withLeaders = { leaders: { include: { user: true }, orderBy: leadersByName } } satisfies Prisma.DepartmentInclude;

async function departmentViews(ctx: Context, access: OrganizationAccess): Promise<DepartmentView[]> {
  const [departments, counts] = await Promise.all([
    ctx.db.department.findMany({ where: { organizationId: access.organization.id }, include: withLeaders, orderBy: byTitle }),
    memberCounts(ctx.db, access),
  ]);
  const titles = new Map(departments.map((d) => [d.id, d.title]));
  return hierarchyOrder(departments).map(({ department, level }) => ({
    department,
    level,
    parent: department.parentId ? (titles.get(department.parentId) ?? null) : null,
    members: counts.get(department.id) ?? 0,
  }));
}

/** Every department of an organization the viewer belongs to, in hierarchy order. */
export async function listDepartments(ctx: Context, raw: Record<string, unknown>): Promise<{ organization: Organization; departments: DepartmentView[] }> {
  const access = await organizationFor(ctx, parseInput(s.organizationRef, raw).organization);
  return { organization: access.organization, departments: await departmentViews(ctx, access) };
}

export async function getDepartment(ctx: Context, raw: Record<string, unknown>): Promise<{ organization: Organization; department: DepartmentView }> {
  const input = parseInput(s.departmentRef, raw);
  const access = await organizationFor(ctx, input.organization);
  const { id } = await resolveDepartment(ctx.db, access.organization.id, input.department);
  const department = (await departmentViews(ctx, access)).find((v) => v.department.id === id)!;
  return { organization: access.organization, department };
}

/** Every department of an organization (loaded with `departmentQueries.all`) in hierarchy order, as the contract lists them. */
export const inHierarchyOrder = <T extends { id: string; parentId: string | null }>(departments: T[]): T[] => hierarchyOrder(departments).map((d) => d.department);

/** A department by identification string when the viewer may view its organization, else null (a node lookup). */
export async function findVisibleDepartment(ctx: Context, id: string, query: DepartmentSelection = {}): Promise<Department | null> {
  return ctx.db.department.findFirst({ ...query, where: { id, organization: await visibleOrganizationsWhere(ctx) } });
}

/** Level of each department (0 at the root), in the order of the ids: one query for all. */
export async function departmentLevels(ctx: Context, ids: readonly string[]): Promise<number[]> {
  const tree = await ctx.db.department.findMany({
    where: { organization: { departments: { some: { id: { in: [...ids] } } } } },
    select: { id: true, parentId: true },
  });
  const parents = new Map(tree.map((d) => [d.id, d.parentId]));
  return ids.map((id) => {
    let level = 0;
    // The tree has no cycles (updates refuse them); the bound only guards against a broken row.
    for (let p = parents.get(id); p && level < tree.length; p = parents.get(p)) level++;
    return level;
  });
}

/** Members of each department the viewer may see, in the order of the ids: one count whatever their organizations. */
export async function departmentMemberCounts(ctx: Context, ids: readonly string[]): Promise<number[]> {
  const rows = await ctx.db.organizationMember.groupBy({
    by: ['departmentId'],
    where: { AND: [await loaders(ctx).visibleMembersWhere(), { departmentId: { in: [...ids] } }] },
    _count: { _all: true },
  });
  const counts = new Map(rows.map((r) => [r.departmentId, r._count._all]));
  return ids.map((id) => counts.get(id) ?? 0);
}

/** The levels given in the input, over `base` (the defaults, or the department's current ones). */
export function levelsOf(input: { permissionOrganization?: string; permissionContent?: string; permissionMembers?: string }, base: MemberLevels): MemberLevels {
  return {
    permOrganization: input.permissionOrganization ?? base.permOrganization,
    permContent: input.permissionContent ?? base.permContent,
    permMembers: input.permissionMembers ?? base.permMembers,
  };
}

/** Names and external ids identify departments, so both must be unique in the organization. */
async function assertUnique(tx: Tx, organizationId: string, except: string | null, field: { title: string } | { externalId: string }): Promise<void> {
  const taken = await tx.department.findFirst({ where: { organizationId, ...field, ...(except ? { NOT: { id: except } } : {}) }, select: { id: true } });
  if (!taken) return;
  if ('title' in field) throw new ArgumentError('title', `'${field.title}' is already a department of the organization`, 'TITLE_TAKEN');
  throw new ArgumentError('id', `'${field.externalId}' is already the id of another department`, 'ID_TAKEN');
}

/** Leaders must be members of the organization. */
async function assertMembers(tx: Tx, organizationId: string, userIds: string[]): Promise<void> {
  const members = await tx.organizationMember.findMany({ where: { organizationId, userId: { in: userIds } }, select: { userId: true } });
  const known = new Set(members.map((m) => m.userId));
  const missing = userIds.find((id) => !known.has(id));
  if (missing) throw new ArgumentError('leaders', `'${missing}' is not a member of the organization`, 'NOT_A_MEMBER');
}

/** Departments are the organization's structure: only its managers change them. */
async function managedOrganization(ctx: Context, code: string): Promise<string> {
  const access = await organizationFor(ctx, code);
  assertMay(ctx.viewer.user, 'organization:departments:update', access);
  return access.organization.id;
}

/** A second writer with the same title loses to the unique index with the same answer as a late caller. */
async function titleRace<T>(title: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (title !== undefined && isUniqueViolation(error, 'title')) {
      throw new ArgumentError('title', `'${title}' is already a department of the organization`, 'TITLE_TAKEN');
    }
    throw error;
  }
}

export async function createDepartment(ctx: Context, raw: Record<string, unknown>, query: DepartmentSelection = {}): Promise<Department> {
  const input = parseInput(s.createDepartment, raw);
  const organizationId = await managedOrganization(ctx, input.organization);
  const externalId = input.id || null;
  const leaders = input.leaders ?? [];
  const created = await titleRace(input.title, () =>
    ctx.db.$transaction(async (tx) => {
      await lockOrganizations(tx, [organizationId]);
      await assertUnique(tx, organizationId, null, { title: input.title });
      if (externalId) await assertUnique(tx, organizationId, null, { externalId });
      const parent = input.parent ? await resolveDepartment(tx, organizationId, input.parent, 'parent') : null;
      if (leaders.length) await assertMembers(tx, organizationId, leaders);
      const department = await tx.department.create({
        ...query,
        data: {
          id: newId('Department'),
          organizationId,
          title: input.title,
          externalId,
          parentId: parent?.id ?? null,
          ...levelsOf(input, defaultLevels),
          leaders: { create: leaders.map((userId) => ({ userId })) },
        },
      });
      await audit(ctx, tx, 'department.create', department.id);
      return department;
    }),
  );
  forgetLoaded(ctx);
  return created;
}

/** Only the given fields change; new levels are given to the department's members at once. */
export async function updateDepartment(ctx: Context, raw: Record<string, unknown>, query: DepartmentSelection = {}): Promise<Department> {
  const input = parseInput(s.updateDepartment, raw);
  const organizationId = await managedOrganization(ctx, input.organization);
  const updated = await titleRace(input.title, () =>
    ctx.db.$transaction(async (tx) => {
      await lockOrganizations(tx, [organizationId]);
      const department = await resolveDepartment(tx, organizationId, input.department, 'department', query);
      const data: Prisma.DepartmentUncheckedUpdateInput = {};
      if (input.title !== undefined && input.title !== department.title) {
        await assertUnique(tx, organizationId, department.id, { title: input.title });
        data.title = input.title;
      }
      if (input.id !== undefined) {
        const externalId = input.id || null;
        if (externalId) await assertUnique(tx, organizationId, department.id, { externalId });
        data.externalId = externalId;
      }
      if (input.parent !== undefined) {
        const parent = input.parent ? await resolveDepartment(tx, organizationId, input.parent, 'parent') : null;
        if (parent) {
          const tree = await tx.department.findMany({ where: { organizationId }, select: { id: true, parentId: true } });
          if (withDescendants([department.id], tree).includes(parent.id)) {
            throw new ArgumentError('parent', 'is the department itself or a department below it', 'DEPARTMENT_CYCLE');
          }
        }
        data.parentId = parent?.id ?? null;
      }
      const levels = levelsOf(input, department);
      const levelsChanged = (Object.keys(levels) as (keyof MemberLevels)[]).some((k) => levels[k] !== department[k]);
      if (levelsChanged) Object.assign(data, levels);
      if (input.leaders) await assertMembers(tx, organizationId, input.leaders);
      if (Object.keys(data).length === 0 && !input.leaders) return department;
      if (input.leaders) data.leaders = { deleteMany: {}, create: input.leaders.map((userId) => ({ userId })) };
      if (levelsChanged) await tx.organizationMember.updateMany({ where: { departmentId: department.id }, data: levels });
      const updated = await tx.department.update({ ...query, where: { id: department.id }, data });
      await audit(ctx, tx, 'department.update', department.id);
      return updated;
    }),
  );
  forgetLoaded(ctx);
  return updated;
}

/**
 * Its members stay in the organization without a department and with the default levels; its
 * children move one level up (to its parent); its leaders and its competency assignments go with it.
 */
export async function deleteDepartment(ctx: Context, raw: Record<string, unknown>): Promise<{ organizationId: string; department: Department }> {
  const input = parseInput(s.departmentRef, raw);
  const organizationId = await managedOrganization(ctx, input.organization);
  const department = await ctx.db.$transaction(async (tx) => {
    await lockOrganizations(tx, [organizationId]);
    const department = await resolveDepartment(tx, organizationId, input.department);
    await tx.department.updateMany({ where: { parentId: department.id }, data: { parentId: department.parentId } });
    await tx.organizationMember.updateMany({ where: { departmentId: department.id }, data: { departmentId: null, ...defaultLevels } });
    // DepartmentLeader and CompetencyDepartment rows cascade.
    await tx.department.delete({ where: { id: department.id } });
    await audit(ctx, tx, 'department.delete', department.id);
    return department;
  });
  forgetLoaded(ctx);
  return { organizationId, department };
}
