import { builder } from '../builder.ts';
import { serviceNode } from '../node.ts';
import * as users from '../../services/users/users.service.ts';
import * as access from '../../services/users/access.ts';
import { ownIntegrationsQuery } from '../../services/integrations/integrations.service.ts';

/** A user account. Readable by itself, its manager and administrators. */
export const UserType = builder.prismaObject('User', {
  description: 'A user account.',
  fields: (t) => ({
    username: t.exposeString('username', { description: 'Login name, 4-64 characters.' }),
    name: t.exposeString('fullName', { description: 'Full name.' }),
    firstName: t.exposeString('firstName', { description: 'First name.' }),
    lastName: t.exposeString('lastName', { description: 'Last name.' }),
    fullName: t.exposeString('fullName', { description: 'Full name; defaults to the first and last name.' }),
    displayName: t.exposeString('displayName', { description: 'Display name; defaults to the full name.' }),
    email: t.expose('email', { type: 'EmailAddress', description: 'Email address.' }),
    phone: t.exposeString('phone', { nullable: true, description: "Phone number written as '+prefix number'." }),
    gender: t.exposeString('gender', { nullable: true, description: 'male, female or other.' }),
    birthdate: t.expose('birthdate', { type: 'Date', nullable: true, description: 'Date of birth.' }),
    group: t.exposeString('group', { nullable: true, description: 'User group code.' }),
    status: t.exposeBoolean('enabled', { description: 'The user is enabled.' }),
    exam: t.exposeBoolean('generated', { description: 'An exam (generated) account that may only reach exams.' }),
    admin: t.exposeBoolean('admin', { description: 'Instance administrator.' }),
    language: t.exposeString('language', { description: 'Language code (ISO 639-1).' }),
    timezone: t.exposeString('timezone', { description: 'IANA time zone name.' }),
    color: t.exposeString('color', { description: 'Interface color scheme.' }),
    template: t.exposeString('template', { nullable: true, description: 'Account template the user was created with.' }),
    mustChangePassword: t.exposeBoolean('mustChangePassword', { description: 'The user must change the password at next login.' }),
    customFields: t.field({
      type: 'JSONObject',
      description: 'Values of the custom fields configured on the instance.',
      resolve: (u) => (u.customFields ?? {}) as Record<string, unknown>,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the account was created.' }),
    manager: t.relation('createdBy', {
      nullable: true,
      description: 'The user who created (and manages) this account, when visible.',
      query: (_args, ctx) => access.managerQuery(ctx),
    }),
    integrations: t.relation('integrations', {
      description: 'Integrations owned by the user (visible to the user and administrators).',
      query: (_args, ctx) => ownIntegrationsQuery(ctx),
    }),
    canManage: t.boolean({
      description: 'The viewer manages this user.',
      resolve: (user, _args, ctx) => access.manages(ctx, user),
    }),
  }),
});

serviceNode(UserType, {
  description: 'The identification string, the same as in the REST contract.',
  load: access.findReadableUser,
});

builder.queryFields((t) => ({
  // A plain field, not a prismaField: the viewer is loaded already, and mapping the selection to
  // a Prisma query on every call would cost more than the call itself. Relations asked for
  // beneath are loaded by plugin-prisma for this one record.
  me: t.field({
    type: UserType,
    description: 'The user the call acts as (the application owner, or the assumed user).',
    resolve: (_root, _args, ctx) => users.viewerUser(ctx),
  }),
  user: t.prismaField({
    type: 'User',
    description: 'One user by identification string (`me` for the caller).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => users.getUser(ctx, { user: args.id }, query),
  }),
  users: t.prismaConnection({
    type: 'User',
    cursor: 'id',
    description: 'Users the caller manages (without generated exam accounts), oldest first.',
    args: { search: t.arg.string({ description: 'Matches the name, username or email.' }) },
    resolve: (query, _root, args, ctx) => users.usersConnection(ctx, { search: args.search ?? undefined }, query),
  }),
  searchUser: t.prismaField({
    type: 'User',
    description: 'One visible user by email, username or identification string.',
    args: { query: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) => users.searchUser(ctx, { query: args.query }, query),
  }),
}));
