import { builder } from '../builder.ts';
import { UserType } from '../users/user.type.ts';
import { eventLevels, type Level } from '../../auth/levels.ts';
import { contentTypes } from '../../services/content/content-types.ts';
import * as permissions from '../../services/permissions/permissions.service.ts';
import '../content/content.type.ts';
import { addContentListField } from '../content/content-models.ts';

export const ContentTypeEnum = builder.enumType('ContentType', {
  values: contentTypes,
  description: 'Content types that carry permissions, by their contract name (the `content.type` of the REST records).',
});

export const PermissionLevelEnum = builder.enumType('PermissionLevel', {
  values: eventLevels,
  description: 'Permission levels, lowest first; a higher level includes the lower ones. finances (between modify and grant) exists on events only.',
});

const PermissionRuleType = builder.objectRef<permissions.RuleWithUser>('PermissionRule').implement({
  description: 'An explicit permission: a user holds a level on a piece of content.',
  fields: (t) => ({
    userId: t.exposeID('userId', { description: "The user's identification string." }),
    name: t.string({ description: "The user's full name.", resolve: (r) => r.user.fullName }),
    user: t.field({
      type: UserType,
      nullable: true,
      description: 'The user account, when the caller may read it (itself, a user it manages, or any for administrators).',
      resolve: (r) => r.readableUser,
    }),
    level: t.field({ type: PermissionLevelEnum, description: 'The level.', resolve: (r) => r.level as Level }),
    grantedById: t.exposeID('grantedById', { nullable: true, description: 'Who granted it; null when unknown.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was granted.' }),
  }),
});

const ContentPermissionType = builder.objectRef<permissions.PermissionSummary>('ContentPermission').implement({
  description: 'What a user can do on a piece of content.',
  fields: (t) => ({
    contentType: t.field({ type: ContentTypeEnum, description: 'The content type.', resolve: (p) => p.content.type }),
    content: t.id({ description: 'The identification string of the content.', resolve: (p) => p.content.id }),
    user: t.id({ description: "The user's identification string.", resolve: (p) => p.user.id }),
    level: t.field({
      type: PermissionLevelEnum,
      nullable: true,
      description: 'The effective level (ownership, rules, organization membership, instance administration); null: none.',
      resolve: (p) => p.level,
    }),
    levels: t.field({ type: [PermissionLevelEnum], description: 'Every level held: the effective one and those below it.', resolve: (p) => p.levels }),
    rules: t.field({ type: [PermissionLevelEnum], description: "The levels of the user's explicit rules on it, lowest first.", resolve: (p) => p.rules }),
  }),
});

const PermissionChangeType = builder.objectRef<permissions.PermissionChange>('PermissionChange').implement({
  description: 'The result of a grant, a revoke or a transfer.',
  fields: (t) => ({
    contentType: t.field({ type: ContentTypeEnum, description: 'The content type.', resolve: (c) => c.content.type }),
    content: t.id({ description: 'The identification string of the content.', resolve: (c) => c.content.id }),
    user: t.id({ description: "The user's identification string.", resolve: (c) => c.user.id }),
    success: t.boolean({ description: 'Done; a revoke answers false when there was no such rule.', resolve: (c) => c.success }),
  }),
});

addContentListField('permissions', {
  type: PermissionRuleType,
  description: 'Explicit permission rules on it, by user name then level: all of them for a caller holding grant, otherwise its own.',
  load: (ctx, type, ids) => permissions.rulesOf(ctx, type, ids),
});

builder.queryFields((t) => ({
  permission: t.field({
    type: ContentPermissionType,
    description:
      "What a user can do on a piece of content, for dashboards. Asking about oneself needs view on the content, about another user grant; the user must be one the caller manages or a member of the content's organization.",
    args: {
      contentType: t.arg({ type: ContentTypeEnum, required: true }),
      content: t.arg.id({ required: true, description: 'The identification string of the content.' }),
      user: t.arg.id({ description: 'The user; default the caller.' }),
    },
    resolve: (_root, { contentType, content, user }, ctx) => permissions.permissionSummary(ctx, contentType, { content, user: user ?? undefined }),
  }),
}));

builder.mutationFields((t) => {
  const target = {
    contentType: t.arg({ type: ContentTypeEnum, required: true }),
    content: t.arg.id({ required: true, description: 'The identification string of the content.' }),
    user: t.arg.id({ required: true, description: "The user: the caller, one it manages, or a member of the content's organization." }),
  };
  const level = { ...target, permission: t.arg({ type: PermissionLevelEnum, required: true, description: 'The level of the rule.' }) };
  return {
    grantPermission: t.field({
      type: PermissionChangeType,
      description: 'Creates a permission rule (granting one that exists changes nothing). Needs grant on the content, and nobody grants a level above its own.',
      args: level,
      resolve: (_root, { contentType, ...args }, ctx) => permissions.grantPermission(ctx, contentType, args, 'content'),
    }),
    revokePermission: t.field({
      type: PermissionChangeType,
      description: 'Removes a permission rule; success is false when there was none. Needs grant on the content, and nobody revokes a level above its own.',
      args: level,
      resolve: (_root, { contentType, ...args }, ctx) => permissions.revokePermission(ctx, contentType, args, 'content'),
    }),
    transferContent: t.field({
      type: PermissionChangeType,
      description:
        'Makes the user the owner; needs admin on the content. The previous owner keeps only its own rules and memberships; the organization stays. An integration gets a new secret.',
      args: target,
      resolve: (_root, { contentType, ...args }, ctx) => permissions.transferContent(ctx, contentType, args, 'content'),
    }),
  };
});
