import { builder } from '../builder.ts';
import { UserType } from '../users/user.type.ts';
import { userPolicy } from '../../auth/policy.ts';
import { contentLevels, memberScopes, organizationRights, organizationRoles, type MemberLevels } from '../../auth/organization-policy.ts';
import * as organizations from '../../services/organizations/organizations.service.ts';
import * as memberships from '../../services/organizations/memberships.service.ts';
import * as departments from '../../services/organizations/departments.service.ts';

export const OrganizationRole = builder.enumType('OrganizationRole', {
  values: organizationRoles,
  description: 'Role in an organization, lowest first: member, teacher, reporter, supervisor, admin.',
});
export const ContentLevel = builder.enumType('ContentLevel', {
  values: contentLevels,
  description: "Level on the organization's content, lowest first.",
});
export const MemberScope = builder.enumType('MemberScope', {
  values: memberScopes,
  description: 'Which members a member sees: none (itself), its department (and those below it), or the organization.',
});

/** The three levels of a membership or a department. */
export const PermissionType = builder.objectRef<MemberLevels>('OrganizationPermission').implement({
  description: 'The permission levels of a member (or those a department gives its members).',
  fields: (t) => ({
    organization: t.field({ type: OrganizationRole, description: 'Role in the organization.', resolve: (l) => l.permOrganization as (typeof organizationRoles)[number] }),
    content: t.field({ type: ContentLevel, description: "Level on the organization's content.", resolve: (l) => l.permContent as (typeof contentLevels)[number] }),
    members: t.field({ type: MemberScope, description: 'Which members it sees.', resolve: (l) => l.permMembers as (typeof memberScopes)[number] }),
  }),
});

const RightsType = builder.objectRef<ReturnType<typeof organizationRights>>('OrganizationRights').implement({
  description: 'What the caller may do in an organization.',
  fields: (t) => ({
    manager: t.exposeBoolean('manager', { description: 'Changes the organization and its departments (administrators, the owner, organization admins).' }),
    canManageMembers: t.exposeBoolean('canManageMembers', { description: 'Adds, changes and removes members (managers and supervisors).' }),
    canReport: t.exposeBoolean('canReport', { description: 'Sees reports (managers, supervisors and reporters).' }),
  }),
});

/**
 * An organization. Its members, departments, competencies and compliance are added by the
 * organization and competency modules (builder.prismaObjectFields('Organization', …)).
 */
export const OrganizationType = builder.prismaNode('Organization', {
  id: { field: 'id', description: 'The identification string, the same as in the REST contract.' },
  nullable: true,
  description: 'An organization with members, departments, competencies and webhooks.',
  // Readable by instance administrators, its owner, its members and through permission rules.
  findUnique: async (id, ctx) => ({ id, AND: [await organizations.visibleOrganizationsWhere(ctx)] }),
  fields: (t) => ({
    externalId: t.exposeString('externalId', { nullable: true, description: 'External identifier.' }),
    title: t.exposeString('title', { description: 'Title, 1-255 characters.' }),
    description: t.exposeString('description', { nullable: true, description: 'Description.' }),
    domain: t.exposeString('domain', { nullable: true, description: 'Domain (FQDN without www).' }),
    website: t.exposeString('website', { nullable: true, description: 'Website URL.' }),
    email: t.exposeString('email', { nullable: true, description: 'Contact email.' }),
    phone: t.exposeString('phone', { nullable: true, description: 'Contact phone.' }),
    customFields: t.field({
      type: 'JSONObject',
      description: 'Values of the custom fields configured for organizations.',
      resolve: (o) => (o.customFields ?? {}) as Record<string, unknown>,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
  }),
});

/** A department of an organization; departments form a tree. */
export const DepartmentType = builder.prismaNode('Department', {
  id: { field: 'id', description: 'The identification string.' },
  nullable: true,
  description: 'A department of an organization.',
  findUnique: (id, ctx) =>
    ctx.viewer.user.admin
      ? { id }
      : { id, organization: { OR: [{ ownerId: ctx.viewer.user.id }, { members: { some: { userId: ctx.viewer.user.id } } }] } },
  fields: (t) => ({
    title: t.exposeString('title', { description: 'The department name, unique in its organization.' }),
    externalId: t.exposeString('externalId', { nullable: true, description: 'External identifier.' }),
    organization: t.relation('organization', { description: 'The organization.' }),
    parent: t.relation('parent', { nullable: true, description: 'The parent department; null at the root.' }),
    children: t.relation('children', {
      description: 'Departments directly below, by title.',
      query: { orderBy: [{ title: 'asc' }, { id: 'asc' }] },
    }),
  }),
});

builder.prismaObject('DepartmentLeader', {
  description: 'A leader of a department: sees the members of the departments it leads and those below.',
  fields: (t) => ({
    userId: t.exposeID('userId', { description: "The leader's identification string." }),
    name: t.string({ description: "The leader's full name.", select: { user: { select: { fullName: true } } }, resolve: (l) => l.user.fullName }),
  }),
});

builder.prismaObject('OrganizationMember', {
  name: 'OrganizationMembership',
  description: 'A user’s membership of an organization: its department and permission levels.',
  fields: (t) => ({
    organization: t.relation('organization', { description: 'The organization.' }),
    userId: t.exposeID('userId', { description: "The member's identification string." }),
    name: t.string({ description: "The member's full name.", select: { user: { select: { fullName: true } } }, resolve: (m) => m.user.fullName }),
    user: t.field({
      type: UserType,
      nullable: true,
      description: 'The user account, when the caller may read it (itself, a user it manages, or any for administrators).',
      select: (_args, _ctx, nested) => ({ user: nested() }),
      resolve: (m, _args, ctx) => (userPolicy.read(ctx.viewer, m.user) ? m.user : null),
    }),
    department: t.relation('department', { nullable: true, description: 'The department; null when the member is in none.' }),
    permission: t.field({ type: PermissionType, description: "The member's levels (a department member has its department's).", resolve: (m) => m }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the user joined.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the membership last changed.' }),
  }),
});

builder.prismaObjectFields('Department', (t) => ({
  level: t.loadable({
    type: 'Int',
    description: 'Depth in the tree: 0 at the root.',
    load: (ids: string[], ctx) => departments.departmentLevels(ctx, ids),
    resolve: (d) => d.id,
  }),
  memberCount: t.loadable({
    type: 'Int',
    description: 'Members of this department (not those below it) that the caller may see.',
    load: (ids: string[], ctx) => departments.departmentMemberCounts(ctx, ids),
    resolve: (d) => d.id,
  }),
  permission: t.field({ type: PermissionType, description: 'The levels the department gives its members.', resolve: (d) => d }),
  leaders: t.relation('leaders', {
    description: 'Its leaders (at most 5), by name.',
    query: { orderBy: [{ user: { fullName: 'asc' } }, { userId: 'asc' }] },
  }),
}));

builder.prismaObjectFields('Organization', (t) => ({
  link: t.string({ description: "The organization's page.", resolve: (o, _args, ctx) => organizations.organizationLink(ctx, o.id) }),
  viewerRights: t.field({
    type: RightsType,
    description: 'What the caller may do in this organization.',
    select: (_args, ctx) => ({ ownerId: true, members: { where: { userId: ctx.viewer.user.id }, select: { permOrganization: true } } }),
    resolve: (o, _args, ctx) => organizationRights(ctx.viewer, o, o.members[0]?.permOrganization),
  }),
  departments: t.relation('departments', {
    description: 'The root departments, by title; `children` goes down the tree.',
    query: { where: { parentId: null }, orderBy: [{ title: 'asc' }, { id: 'asc' }] },
  }),
  allDepartments: t.prismaField({
    type: ['Department'],
    description: 'Every department in hierarchy order: depth first, siblings by title (as the REST contract lists them).',
    resolve: (query, o, _args, ctx) => departments.orderedDepartments(ctx, o.id, (args) => ctx.db.department.findMany({ ...query, ...args })),
  }),
  members: t.prismaConnection({
    type: 'OrganizationMember',
    cursor: 'organizationId_userId',
    description: 'The members the caller may see, by name.',
    resolve: (query, o, _args, ctx) => memberships.visibleMembers(ctx, o, query),
  }),
}));

builder.prismaObjectFields('User', (t) => ({
  organizations: t.relation('memberships', {
    description: "The user's organization memberships, by organization title.",
    query: { orderBy: [{ organization: { title: 'asc' } }, { organizationId: 'asc' }] },
  }),
}));

builder.queryFields((t) => ({
  organizations: t.prismaConnection({
    type: 'Organization',
    cursor: 'id',
    description: 'Organizations the caller owns, belongs to or holds a permission on (administrators: all), by title.',
    args: { search: t.arg.string({ description: 'Matches the title.' }) },
    resolve: async (query, _root, args, ctx) =>
      ctx.db.organization.findMany({ ...query, where: await organizations.visibleOrganizationsWhere(ctx, args.search ?? undefined), orderBy: [{ title: 'asc' }, { id: 'asc' }] }),
  }),
  organization: t.prismaField({
    type: 'Organization',
    description: 'One organization the caller owns or belongs to (administrators: any).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const organization = await organizations.getOrganization(ctx, { organization: args.id });
      return ctx.db.organization.findUniqueOrThrow({ ...query, where: { id: organization.id } });
    },
  }),
}));
