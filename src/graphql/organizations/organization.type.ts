import { builder } from '../builder.ts';

/**
 * An organization. Its members, departments, competencies and compliance are added by the
 * organization and competency modules (builder.prismaObjectFields('Organization', …)).
 */
export const OrganizationType = builder.prismaNode('Organization', {
  id: { field: 'id', description: 'The identification string, the same as in the REST contract.' },
  nullable: true,
  description: 'An organization with members, departments, competencies and webhooks.',
  // Readable by instance administrators, its owner and its members.
  findUnique: (id, ctx) =>
    ctx.viewer.user.admin ? { id } : { id, OR: [{ ownerId: ctx.viewer.user.id }, { members: { some: { userId: ctx.viewer.user.id } } }] },
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
    children: t.relation('children', { description: 'Departments directly below.' }),
  }),
});
