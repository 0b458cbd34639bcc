import { z } from 'zod';
import { contract } from '../contract-meta.ts';
import { contentLevels, memberScopes, organizationRoles } from '../../auth/organization-policy.ts';
import { bool, code, email, externalId, list, oneOf, phone, text, url } from '../validation.ts';

/** Titles and names are stored trimmed: one made only of blanks counts as empty. */
const trimmed = (min: number, max: number) => z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), text(min, max));

/** On update, an empty value (or null from GraphQL) removes an optional field. */
const clearable = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? null : v), schema.nullable());

// A fully qualified name of two labels or more; `www.` is the site, not the domain.
const FQDN = /^(?!www\.)(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
const domain = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.string({ error: 'must be text' }).regex(FQDN, 'must be a fully qualified domain name without the www prefix, such as example.com'),
  );

const customFields = z.record(z.string(), text(0, 255));

export const organizationRef = z.object({ organization: code() });

export const createOrganization = z.object({
  title: trimmed(1, 255),
  description: clearable(text(1, 4096)).optional(),
  /** External identifier (an extension: the contract returns `id` but names no input for it). */
  id: clearable(externalId()).optional(),
  domain: contract(domain().optional(), { description: 'FQDN without www prefix; needs special privileges' }),
  website: url().optional(),
  email: email().optional(),
  phone: phone().optional(),
  customFields: contract(customFields.default({}), { description: 'one argument per custom field configured on the instance; only if configured' }),
});

/** The contract updates title and custom fields; the other fields of POST may change too. */
export const updateOrganization = z.object({
  organization: code(),
  title: trimmed(1, 255).optional(),
  description: clearable(text(1, 4096)).optional(),
  id: clearable(externalId()).optional(),
  domain: clearable(domain()).optional(),
  website: clearable(url()).optional(),
  email: clearable(email()).optional(),
  phone: clearable(phone()).optional(),
  /** An empty value removes the field's value. */
  customFields: customFields.optional(),
});

/** The permission_ arguments; absent ones take the defaults on assignment (member, none, none). */
export const levelArgs = {
  permissionOrganization: contract(oneOf(organizationRoles).optional(), { description: 'role in the organization' }),
  permissionContent: contract(oneOf(contentLevels).optional(), { description: 'level on the content of the organization' }),
  permissionMembers: contract(oneOf(memberScopes).optional(), { description: 'which members the user may manage' }),
};

/** As levelArgs, where the absent levels of a new membership are stated defaults. */
const newLevelArgs = {
  permissionOrganization: contract(levelArgs.permissionOrganization, { default: 'member' }),
  permissionContent: contract(levelArgs.permissionContent, { default: 'none' }),
  permissionMembers: contract(levelArgs.permissionMembers, { default: 'none' }),
};

/** `department`: a name (an external id or identification string also works); empty means none. */
const membership = {
  department: contract(trimmed(0, 255).optional(), {
    description: 'department name; should not be combined with the permission_ fields; where an organization has no such department, the permission_ fields set the levels',
  }),
  ...newLevelArgs,
  notify: contract(bool().default(false), { description: 'notify by email or SMS' }),
};

export const addMembers = z.object({ organization: code(), users: list(code()), ...membership });
export const addMembersToOrganizations = z.object({ organizations: list(code()), users: list(code()), ...membership });
export const addUserOrganizations = z.object({ user: code(), organizations: list(code()), ...membership });
export const removeMembers = z.object({ organization: code(), users: list(code()) });
export const removeUserOrganizations = z.object({ user: code(), organizations: list(code()) });
export const removeOrganizationMembers = z.object({ organizations: list(code()), users: list(code()) });
export const userRef = z.object({ user: code() });
export type MembershipOptions = z.output<z.ZodObject<typeof membership>>;

/** Up to 5 user identification strings; repeats count once; empty means none. */
const leaders = z.preprocess(
  (v) => {
    const items = typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v;
    return Array.isArray(items) ? [...new Set(items)] : items;
  },
  z.array(code(), { error: 'must be a comma-separated list of user identification strings' }).max(5, 'must have at most 5 users'),
);

export const departmentRef = z.object({ organization: code(), department: contract(trimmed(1, 255), { description: 'name or external identifier' }) });

export const createDepartment = z.object({
  organization: code(),
  title: contract(trimmed(1, 255), { description: 'unique in the organization' }),
  id: trimmed(0, 64).optional(),
  parent: contract(trimmed(0, 255).optional(), { description: 'name or external identifier; default root level' }),
  ...newLevelArgs,
  leaders: contract(leaders.optional(), { description: 'each a member of the organization' }),
});

export const updateDepartment = z.object({
  organization: code(),
  department: contract(trimmed(1, 255), { description: 'name or external identifier' }),
  title: contract(trimmed(1, 255).optional(), { description: 'unique in the organization' }),
  /** Empty removes it. */
  id: contract(trimmed(0, 64).optional(), { description: 'empty removes it' }),
  /** Empty moves the department to the root. */
  parent: contract(trimmed(0, 255).optional(), { description: 'empty moves to root; the department itself or one below it is refused' }),
  permissionOrganization: contract(levelArgs.permissionOrganization, { description: 'role in the organization; changed levels are applied automatically' }),
  permissionContent: contract(levelArgs.permissionContent, { description: 'level on the content of the organization; changed levels are applied automatically' }),
  permissionMembers: contract(levelArgs.permissionMembers, { description: 'which members the user may manage; changed levels are applied automatically' }),
  /** Replaces the leaders; empty removes them all. */
  leaders: contract(leaders.optional(), { description: 'replaces the current leaders; empty removes all; members of the organization' }),
});
