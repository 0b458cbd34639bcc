import type { InputFieldBuilder } from '@pothos/core';
import { builder } from '../builder.ts';
import { ContentLevel, MemberScope, OrganizationRole } from './organization.type.ts';
import * as organizations from '../../services/organizations/organizations.service.ts';
import * as memberships from '../../services/organizations/memberships.service.ts';
import * as departments from '../../services/organizations/departments.service.ts';
import { mirrorDescription } from '../operation-prose.ts';

/**
 * Writes of organizations, memberships and departments, with the services (and so the rules) of
 * the REST contract. In update inputs an absent field is kept and null clears it; in create
 * inputs null is the same as absent.
 */

const PermissionInput = builder.inputType('OrganizationPermissionInput', {
  description: 'Permission levels; an absent level takes its default (member, none, none).',
  fields: (t) => ({
    organization: t.field({ type: OrganizationRole }),
    content: t.field({ type: ContentLevel }),
    members: t.field({ type: MemberScope }),
  }),
});

/** The service's permission_ arguments. */
const levelArgs = (p: { organization?: string | null; content?: string | null; members?: string | null } | null | undefined) => ({
  permissionOrganization: p?.organization ?? undefined,
  permissionContent: p?.content ?? undefined,
  permissionMembers: p?.members ?? undefined,
});

/** Null is absent (create inputs). */
const present = <T extends Record<string, unknown>>(input: T) =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]?: NonNullable<T[K]> };

type Fields = InputFieldBuilder<typeof builder.$inferSchemaTypes, 'InputObject'>;

/** The optional fields of an organization, the same on create and update. */
const organizationFields = (t: Fields) => ({
  description: t.string({ description: 'Description.' }),
  externalId: t.string({ description: 'External identifier, 1-64 characters.' }),
  domain: t.string({ description: 'Domain, a FQDN without www (needs the privileged fields feature).' }),
  website: t.string({ description: 'Website URL.' }),
  email: t.string({ description: 'Contact email.' }),
  phone: t.string({ description: "Contact phone, '+prefix number'." }),
});

const CreateOrganizationInput = builder.inputType('CreateOrganizationInput', {
  description: mirrorDescription('A new organization, owned by the caller; the rules of POST organization.', 'POST organization'),
  fields: (t) => ({
    title: t.string({ required: true, description: '1-255 characters.' }),
    ...organizationFields(t),
    customFields: t.field({ type: 'JSONObject', description: 'Values of custom fields configured for organizations.' }),
  }),
});

const UpdateOrganizationInput = builder.inputType('UpdateOrganizationInput', {
  description: 'Changes to an organization (managers only): absent fields are kept, null clears an optional one.',
  fields: (t) => ({
    organization: t.id({ required: true }),
    title: t.string({ description: '1-255 characters.' }),
    ...organizationFields(t),
    customFields: t.field({ type: 'JSONObject', description: 'Custom field values to set; an empty value removes one.' }),
  }),
});

const AddMembersInput = builder.inputType('AddOrganizationMembersInput', {
  description: mirrorDescription('Memberships to add or update, with the rules of POST organization:members, in several organizations at once.', 'POST organizations:members'),
  fields: (t) => ({
    organizations: t.idList({ required: true }),
    users: t.idList({ required: true }),
    department: t.string({ description: 'A department (name, external id or identification string) of every organization; its members take its levels. Not with `permission`.' }),
    permission: t.field({ type: PermissionInput, description: 'Levels of members without a department.' }),
    notify: t.boolean({ description: 'Send each added or updated member a message (default false).' }),
    departmentFallback: t.boolean({
      description:
        'true: an organization without `department` gives its members `permission` instead of refusing the call, and the two may be combined (REST POST organizations:members). Default false.',
    }),
  }),
});

/** The optional fields of a department; on update, empty or null clears them. */
const departmentFields = (t: Fields, update: boolean) => ({
  externalId: t.string({ description: `External identifier, 0-64 characters${update ? '; empty or null removes it' : ''}.` }),
  parent: t.string({ description: `Parent by name, external id or identification string; ${update ? 'empty or null moves it to' : 'absent:'} the root.` }),
  permission: t.field({ type: PermissionInput, description: update ? 'Levels to change; its members get them at once.' : 'Levels given to its members.' }),
  leaders: t.idList({ description: `At most 5 members of the organization${update ? '; replaces the leaders, empty or null removes them all' : ''}.` }),
});

const CreateDepartmentInput = builder.inputType('CreateDepartmentInput', {
  description: mirrorDescription('A new department (managers only); the rules of POST organization:department.', 'POST organization:department'),
  fields: (t) => ({
    organization: t.id({ required: true }),
    title: t.string({ required: true, description: '1-255 characters, unique in the organization.' }),
    ...departmentFields(t, false),
  }),
});

const UpdateDepartmentInput = builder.inputType('UpdateDepartmentInput', {
  description: mirrorDescription('Changes to a department (managers only); the rules of PATCH organization:department.', 'PATCH organization:department'),
  fields: (t) => ({
    organization: t.id({ required: true }),
    department: t.string({ required: true, description: 'Name, external id or identification string.' }),
    title: t.string({ description: '1-255 characters, unique in the organization.' }),
    ...departmentFields(t, true),
  }),
});

builder.mutationFields((t) => ({
  createOrganization: t.prismaField({
    type: 'Organization',
    description: 'Creates an organization; the caller becomes its owner.',
    args: { input: t.arg({ type: CreateOrganizationInput, required: true }) },
    resolve: (query, _root, { input }, ctx) => {
      const { externalId, ...rest } = present(input);
      return organizations.createOrganization(ctx, { ...rest, id: externalId }, query);
    },
  }),
  updateOrganization: t.prismaField({
    type: 'Organization',
    description: 'Changes an organization; only given fields change.',
    args: { input: t.arg({ type: UpdateOrganizationInput, required: true }) },
    resolve: (query, _root, { input }, ctx) => {
      const { externalId, ...rest } = input;
      return organizations.updateOrganization(ctx, { ...rest, id: externalId }, query);
    },
  }),
  deleteOrganization: t.id({
    description: 'Deletes an organization with its memberships, departments, competencies and webhooks; returns its identification string.',
    args: { organization: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await organizations.deleteOrganization(ctx, args)).id,
  }),
  addOrganizationMembers: t.prismaField({
    type: ['OrganizationMember'],
    description: 'Adds users to organizations, or updates their memberships; returns them.',
    args: { input: t.arg({ type: AddMembersInput, required: true }) },
    resolve: (query, _root, { input }, ctx) => {
      const { permission, departmentFallback, ...rest } = present(input);
      return memberships.addMemberships(ctx, { ...rest, ...levelArgs(permission) }, query, departmentFallback === true);
    },
  }),
  removeOrganizationMembers: t.int({
    description: 'Removes users from organizations; returns how many memberships were removed.',
    args: { organizations: t.arg.idList({ required: true }), users: t.arg.idList({ required: true }) },
    resolve: async (_root, args, ctx) => (await memberships.removeOrganizationMembers(ctx, args)).removed.length,
  }),
  createDepartment: t.prismaField({
    type: 'Department',
    description: 'Creates a department (managers only).',
    args: { input: t.arg({ type: CreateDepartmentInput, required: true }) },
    resolve: (query, _root, { input }, ctx) => {
      const { externalId, permission, ...rest } = present(input);
      return departments.createDepartment(ctx, { ...rest, id: externalId, ...levelArgs(permission) }, query);
    },
  }),
  updateDepartment: t.prismaField({
    type: 'Department',
    description: 'Changes a department (managers only); only given fields change.',
    args: { input: t.arg({ type: UpdateDepartmentInput, required: true }) },
    resolve: (query, _root, { input }, ctx) => {
      const { externalId, permission, parent, leaders, ...rest } = input;
      // null clears: the contract's empty value.
      const cleared = (v: unknown, empty: unknown) => (v === null ? empty : (v ?? undefined));
      const changes = { ...present(rest), id: cleared(externalId, ''), parent: cleared(parent, ''), leaders: cleared(leaders, []), ...levelArgs(permission) };
      return departments.updateDepartment(ctx, changes, query);
    },
  }),
  deleteDepartment: t.id({
    description: 'Deletes a department: its members stay without department and with default levels, its children move up.',
    args: { organization: t.arg.id({ required: true }), department: t.arg.string({ required: true, description: 'Name, external id or identification string.' }) },
    resolve: async (_root, args, ctx) => (await departments.deleteDepartment(ctx, args)).department.id,
  }),
}));
