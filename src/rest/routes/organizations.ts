import type { Context } from '../../context.ts';
import type { Organization } from '../../generated/prisma/client.ts';
import type { MemberLevels } from '../../auth/organization-policy.ts';
import * as organizations from '../../services/organizations/organizations.service.ts';
import * as memberships from '../../services/organizations/memberships.service.ts';
import * as departments from '../../services/organizations/departments.service.ts';
import type { DepartmentView } from '../../services/organizations/departments.service.ts';
import type { Membership } from '../../services/organizations/memberships.service.ts';
import { compact } from '../format.ts';
import type { Handler } from './types.ts';

const permission = (l: MemberLevels) => ({ organization: l.permOrganization, content: l.permContent, members: l.permMembers });
const summary = (o: Organization) => ({ organization: o.id, id: o.externalId, title: o.title });
const member = (m: Membership) => ({ user: m.userId, name: m.user.fullName, department: m.department?.title ?? null, permission: permission(m) });
const userOrganization = (ctx: Context, m: Membership) => ({
  ...summary(m.organization),
  link: organizations.organizationLink(ctx, m.organizationId),
  department: m.department?.title ?? null,
  permission: permission(m),
});
const department = (v: DepartmentView) => ({
  department: v.department.title,
  id: v.department.externalId,
  parent: v.parent,
  level: v.level,
  permission: permission(v.department),
  members: v.members,
  leaders: v.department.leaders.map((l) => ({ user: l.userId, name: l.user.fullName })),
});

export const organizationRoutes: Record<string, Handler> = {
  'GET organizations': async (ctx, args) => ({ organizations: (await organizations.listOrganizations(ctx, args)).map(summary) }),
  'GET organization': async (ctx, args) => {
    const o = await organizations.getOrganization(ctx, args);
    return compact({ ...summary(o), description: o.description ?? undefined });
  },
  'POST organization': async (ctx, args) => ({ organization: (await organizations.createOrganization(ctx, args)).id }),
  'PATCH organization': async (ctx, args) => {
    const o = await organizations.updateOrganization(ctx, args);
    return compact({ ...summary(o), description: o.description ?? undefined, success: true });
  },
  'DELETE organization': async (ctx, args) => ({ organization: (await organizations.deleteOrganization(ctx, args)).id, success: true }),

  'GET organization:members': async (ctx, args) => {
    // Exactly the contract's fields: strict clients reject a top-level field it does not name.
    return { members: (await memberships.listMembers(ctx, args)).members.map(member) };
  },
  'POST organization:members': async (ctx, args) => {
    const { organization, members } = await memberships.addMembers(ctx, args);
    return { organization: organization.id, success: true, members: members.map(member) };
  },
  'DELETE organization:members': async (ctx, args) => {
    const { organizations: [organization], removed } = await memberships.removeMembers(ctx, args);
    return { organization, success: true, users: removed.map((r) => r.userId) };
  },
  'POST organizations:members': async (ctx, args) => ({
    success: true,
    memberships: (await memberships.addMembersToOrganizations(ctx, args)).map((m) => ({ organization: m.organizationId, ...member(m) })),
  }),
  'GET user:organizations': async (ctx, args) => {
    // Exactly the contract's fields: strict clients reject a top-level field it does not name.
    return { organizations: (await memberships.userOrganizations(ctx, args)).memberships.map((m) => userOrganization(ctx, m)) };
  },
  'POST user:organizations': async (ctx, args) => {
    const { user, memberships: list } = await memberships.addUserOrganizations(ctx, args);
    return { user: user.id, success: true, organizations: list.map((m) => userOrganization(ctx, m)) };
  },
  'DELETE user:organizations': async (ctx, args) => {
    const { users: [user], removed } = await memberships.removeUserOrganizations(ctx, args);
    return { user, success: true, organizations: removed.map((r) => r.organizationId) };
  },

  'GET organization:departments': async (ctx, args) => {
    const { organization, departments: list } = await departments.listDepartments(ctx, args);
    return { organization: organization.id, departments: list.map(department) };
  },
  'GET organization:department': async (ctx, args) => {
    const { organization, department: view } = await departments.getDepartment(ctx, args);
    return { organization: organization.id, ...department(view) };
  },
  'POST organization:department': async (ctx, args) => {
    const d = await departments.createDepartment(ctx, args);
    return { organization: d.organizationId, department: d.title, id: d.externalId };
  },
  'PATCH organization:department': async (ctx, args) => {
    const d = await departments.updateDepartment(ctx, args);
    const { department: view } = await departments.getDepartment(ctx, { organization: d.organizationId, department: d.id });
    return { organization: d.organizationId, success: true, ...department(view) };
  },
  'DELETE organization:department': async (ctx, args) => {
    const { organizationId, department: d } = await departments.deleteDepartment(ctx, args);
    return { organization: organizationId, department: d.title, id: d.externalId, success: true };
  },
};
