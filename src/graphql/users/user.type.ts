import { builder } from '../builder.ts';
import { userPolicy } from '../../auth/policy.ts';
import * as users from '../../services/users/users.service.ts';
import { managedUsersWhere } from '../../services/users/access.ts';

/** A user account. Readable by itself, its manager and administrators. */
export const UserType = builder.prismaNode('User', {
  id: { field: 'id', description: 'The identification string, the same as in the REST contract.' },
  // node(id) answers null, not an error, for a record that is missing or not the caller's to read.
  nullable: true,
  description: 'A user account.',
  // Node lookups honour the same read rule as the services.
  findUnique: (id, ctx) => (ctx.viewer.user.admin ? { id } : { id, OR: [{ id: ctx.viewer.user.id }, { createdById: ctx.viewer.user.id }] }),
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
      query: (_args, ctx) => (ctx.viewer.user.admin ? {} : { where: { id: ctx.viewer.user.id } }),
    }),
    integrations: t.relation('integrations', {
      description: 'Integrations owned by the user (visible to the user and administrators).',
      query: (_args, ctx) => (ctx.viewer.user.admin ? {} : { where: { ownerId: ctx.viewer.user.id } }),
    }),
    canManage: t.boolean({
      description: 'The viewer manages this user.',
      resolve: (user, _args, ctx) => userPolicy.manage(ctx.viewer, user),
    }),
  }),
});

builder.queryFields((t) => ({
  me: t.prismaField({
    type: 'User',
    description: 'The user the call acts as (the application owner, or the assumed user).',
    resolve: (query, _root, _args, ctx) => ctx.db.user.findUniqueOrThrow({ ...query, where: { id: ctx.viewer.user.id } }),
  }),
  user: t.prismaField({
    type: 'User',
    description: 'One user by identification string (`me` for the caller).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const user = await users.getUser(ctx, { user: args.id });
      return ctx.db.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
  users: t.prismaConnection({
    type: 'User',
    cursor: 'id',
    description: 'Users the caller manages (without generated exam accounts), oldest first.',
    args: { search: t.arg.string({ description: 'Matches the name, username or email.' }) },
    // Identification strings are random, so creation time orders the pages; the id breaks ties.
    resolve: (query, _root, args, ctx) =>
      ctx.db.user.findMany({ ...query, where: managedUsersWhere(ctx, args.search ?? undefined), orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
  }),
  searchUser: t.prismaField({
    type: 'User',
    description: 'One visible user by email, username or identification string.',
    args: { query: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const user = await users.searchUser(ctx, { query: args.query });
      return ctx.db.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
}));
