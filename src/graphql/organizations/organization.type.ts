import { builder } from '../builder.ts';
import { serviceNode } from '../node.ts';
import { UserType } from '../users/user.type.ts';
import { contentLevels, memberScopes, organizationRoles, type MemberLevels, type organizationRights } from '../../auth/organization-policy.ts';
import { readableOrNull } from '../../services/users/access.ts';
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
export const OrganizationType = builder.prismaObject('Organization', {
  description: 'An organization with members, departments, competencies and webhooks.',
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

// Readable by instance administrators, its owner, its members and through permission rules.
serviceNode(OrganizationType, {
  description: 'The identification string, the same as in the REST contract.',
  load: organizations.findVisibleOrganization,
});

/** A department of an organization; departments form a tree. */
export const DepartmentType = builder.prismaObject('Department', {
  description: 'A department of an organization.',
  fields: (t) => ({
    title: t.exposeString('title', { description: 'The department name, unique in its organization.' }),
    externalId: t.exposeString('externalId', { nullable: true, description: 'External identifier.' }),
    organization: t.relation('organization', { description: 'The organization.' }),
    parent: t.relation('parent', { nullable: true, description: 'The parent department; null at the root.' }),
    children: t.relation('children', { description: 'Departments directly below, by title.', query: departments.departmentQueries.children }),
  }),
});

// Readable by whoever may view its organization, as the organization's department lists are.
serviceNode(DepartmentType, { description: 'The identification string.', load: departments.findVisibleDepartment });

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
      resolve: (m, _args, ctx) => readableOrNull(ctx, m.user),
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
  leaders: t.relation('leaders', { description: 'Its leaders (at most 5), by name.', query: departments.departmentQueries.leaders }),
}));

builder.prismaObjectFields('Organization', (t) => ({
  link: t.string({ description: "The organization's page.", resolve: (o, _args, ctx) => organizations.organizationLink(ctx, o.id) }),
  viewerRights: t.field({
    type: RightsType,
    description: 'What the caller may do in this organization.',
    select: (_args, ctx) => organizations.rightsSelection(ctx),
    resolve: (o, _args, ctx) => organizations.viewerRights(ctx, o),
  }),
  departments: t.relation('departments', {
    description: 'The root departments, by title; `children` goes down the tree.',
    query: departments.departmentQueries.roots,
  }),
  allDepartments: t.field({
    type: [DepartmentType],
    description: 'Every department in hierarchy order: depth first, siblings by title (as the REST contract lists them).',
    select: (_args, _ctx, nested) => ({ departments: nested(departments.departmentQueries.all) }),
    resolve: (o) => departments.inHierarchyOrder(o.departments),
  }),
  members: t.relatedConnection('members', {
    cursor: 'organizationId_userId',
    description: 'The members the caller may see, by name.',
    query: (_args, ctx) => memberships.membersQuery(ctx),
  }),
}));

builder.prismaObjectFields('User', (t) => ({
  organizations: t.relation('memberships', {
    description: "The user's organization memberships, by organization title.",
    query: memberships.userMembershipsQuery,
  }),
}));

builder.queryFields((t) => ({
  organizations: t.prismaConnection({
    type: 'Organization',
    cursor: 'id',
    description: 'Organizations the caller owns, belongs to or holds a permission on (administrators: all), by title.',
    args: { search: t.arg.string({ description: 'Matches the title.' }) },
    resolve: (query, _root, args, ctx) => organizations.organizationsConnection(ctx, { search: args.search ?? undefined }, query),
  }),
  organization: t.prismaField({
    type: 'Organization',
    description: 'One organization the caller owns or belongs to (administrators: any).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => organizations.getOrganization(ctx, { organization: args.id }, query),
  }),
}));
