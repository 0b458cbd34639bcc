import type { User } from '../../generated/prisma/client.ts';
import { builder } from '../builder.ts';
import { UserType } from './user.type.ts';
import { colors, templates } from '../../services/users/users.schemas.ts';
import * as users from '../../services/users/users.service.ts';
import * as links from '../../services/users/login-links.service.ts';
import * as assume from '../../services/users/assume.service.ts';
import { mirrorDescription } from '../operation-prose.ts';

const Gender = builder.enumType('Gender', { values: ['male', 'female', 'other'] as const, description: 'Gender of a user.' });
const Template = builder.enumType('UserTemplate', { values: templates, description: 'Account template.' });
const Color = builder.enumType('UserColor', { values: colors, description: 'Interface color scheme.' });

const CreateUserInput = builder.inputType('CreateUserInput', {
  description: mirrorDescription('A new user account; the same rules and defaults as POST user.', 'POST user'),
  fields: (t) => ({
    username: t.string({ required: true, description: '4-64 characters, unique.' }),
    password: t.string({ description: '4-64 characters; generated when absent.' }),
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    fullName: t.string({ description: 'Defaults to first and last name.' }),
    displayName: t.string({ description: 'Defaults to the full name.' }),
    email: t.field({ type: 'EmailAddress', required: true }),
    phone: t.string({ description: "'+prefix number'" }),
    gender: t.field({ type: Gender }),
    birthdate: t.field({ type: 'Date' }),
    exam: t.boolean({ description: 'An exam account that may only reach exams (default false).' }),
    group: t.string(),
    template: t.field({ type: Template }),
    customFields: t.field({ type: 'JSONObject', description: 'Values of configured custom fields, keyed by field.' }),
    language: t.string({ description: "Defaults to the caller's language." }),
    timezone: t.string({ description: "Defaults to the caller's time zone." }),
    color: t.field({ type: Color }),
    mustChangePassword: t.boolean(),
    notify: t.boolean({ description: 'Send the new user a sign-in message (default false).' }),
  }),
});

const CreateUserPayload = builder.objectRef<{ user: User; password: string | null }>('CreateUserPayload').implement({
  description: 'The created user; the initial password is returned once, and not for exam accounts.',
  fields: (t) => ({
    user: t.field({ type: UserType, resolve: (p) => p.user }),
    password: t.exposeString('password', { nullable: true }),
  }),
});

const ChangePayload = builder.objectRef<{ user: User; changed: boolean }>('UserChangePayload').implement({
  description: 'The result of a change to a user.',
  fields: (t) => ({
    user: t.field({ type: UserType, resolve: (p) => p.user }),
    changed: t.exposeBoolean('changed', { description: 'Something was actually changed.' }),
  }),
});

const LoginLinkType = builder.objectRef<{ url: string; valid: Date; count: number; used: number }>('LoginLink').implement({
  description: 'A one-click login link.',
  fields: (t) => ({
    url: t.exposeString('url', { description: 'The address to open.' }),
    valid: t.expose('valid', { type: 'DateTime', description: 'The link is valid until this moment.' }),
    count: t.exposeInt('count', { description: 'How many logins the link allows.' }),
    used: t.exposeInt('used', { description: 'How many times it was used.' }),
  }),
});

const AssumeTokenType = builder.objectRef<{ token: string; valid: Date }>('AssumeToken').implement({
  description: 'A short-lived token to act as another user: send it as `assume`.',
  fields: (t) => ({
    token: t.exposeString('token', { description: 'Send as `assume` (argument or Service-API-Assume header).' }),
    valid: t.expose('valid', { type: 'DateTime', description: 'The token works until this moment.' }),
  }),
});

const linkOut = (r: { link: { expiresAt: Date; maxLogins: number; uses: number }; url: string }) => ({
  url: r.url,
  valid: r.link.expiresAt,
  count: r.link.maxLogins,
  used: r.link.uses,
});

builder.queryField('loginLink', (t) =>
  t.field({
    type: LoginLinkType,
    description: 'The latest valid login link of a user.',
    args: { user: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => linkOut(await links.getLoginLink(ctx, { user: args.user })),
  }),
);

builder.mutationFields((t) => ({
  createUser: t.field({
    type: CreateUserPayload,
    description: 'Creates a user account managed by the caller.',
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      const { user, password } = await users.createUser(ctx, { ...args.input });
      return { user, password: user.generated ? null : password };
    },
  }),
  setUserActive: t.prismaField({
    type: 'User',
    description: 'Enables or disables a managed user.',
    args: { user: t.arg.id({ required: true }), active: t.arg.boolean({ required: true }) },
    resolve: (query, _root, args, ctx) => users.setUserActive(ctx, args, query),
  }),
  deleteUser: t.id({
    description: 'Deletes a managed user; returns its identification string.',
    args: { user: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await users.deleteUser(ctx, args)).id,
  }),
  setUserName: t.field({
    type: ChangePayload,
    description: 'Renames a user.',
    args: {
      user: t.arg.id({ required: true }),
      firstName: t.arg.string({ required: true }),
      lastName: t.arg.string({ required: true }),
      fullName: t.arg.string(),
      displayName: t.arg.string(),
    },
    resolve: (_root, args, ctx) => users.setUserName(ctx, { ...args }),
  }),
  setUserGroup: t.field({
    type: ChangePayload,
    description: 'Moves a user to another group.',
    args: { user: t.arg.id({ required: true }), group: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => users.setUserGroup(ctx, args),
  }),
  createLoginLink: t.field({
    type: LoginLinkType,
    description: 'Creates a login link, or returns the valid one with the same settings.',
    args: {
      user: t.arg.id({ required: true }),
      redirect: t.arg.string({ description: 'A URI path, or [content_type:tag].' }),
      exam: t.arg.id({ description: 'An exam the user is on (instead of redirect): opening the link lands on the exam\'s page, /exam/<exam>.' }),
      expiresInDays: t.arg.int({ description: '1-30 days (default 1).' }),
      expiresOn: t.arg({ type: 'Date', description: 'Valid to the end of this day (UTC); instead of expiresInDays.' }),
      logins: t.arg.int({ description: 'How many logins it allows, at most 255 (default 1).' }),
      template: t.arg.string(),
      short: t.arg.boolean({ description: 'A shortened link (needs the short links feature).' }),
    },
    resolve: async (_root, { expiresInDays, expiresOn, ...args }, ctx) =>
      linkOut(await links.createLoginLink(ctx, { ...args, expires: expiresOn ?? expiresInDays ?? undefined })),
  }),
  revokeLoginLink: t.boolean({
    description: 'Invalidates a login link of a user.',
    args: { user: t.arg.id({ required: true }), url: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await links.deleteLoginLink(ctx, args);
      return true;
    },
  }),
  assumeUser: t.field({
    type: AssumeTokenType,
    description: 'A token to act as another user (managed users need no password).',
    args: { user: t.arg.string({ required: true, description: 'Identification string, username or email.' }), password: t.arg.string() },
    resolve: (_root, args, ctx) => assume.assumeUser(ctx, { ...args }),
  }),
  revokeAssumeToken: t.boolean({
    description: 'Revokes an assume token.',
    args: { token: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await assume.revokeAssumeToken(ctx, args);
      return true;
    },
  }),
}));
