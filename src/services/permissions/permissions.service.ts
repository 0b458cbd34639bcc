import type { Context } from '../../context.ts';
import type { PermissionRule, User } from '../../generated/prisma/client.ts';
import { assertCan, assertWithinOwnLevel, canEach, heldLevels, userPolicy } from '../../auth/policy.ts';
import { includes, levelsUpTo, organizationOf, rank } from '../../auth/permissions.ts';
import type { Level } from '../../auth/levels.ts';
import { ArgumentError } from '../../errors.ts';
import { findUsers } from '../users/access.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import { changeOwner, contentFor, findContents, loadContent, unknownContent, type ContentRecord } from '../content/records.ts';
import type { ContentType } from '../content/content-types.ts';
import * as s from './permissions.schemas.ts';

/**
 * Checking, granting and revoking permission rules, and transferring content, for every content
 * type, under the one policy (src/auth/policy.ts):
 * - checking needs view on the content to ask about oneself, grant to ask about another user;
 * - granting and revoking need grant, and nobody grants or revokes a level above its own;
 * - transfer needs admin; the previous owner keeps nothing but its rules and memberships.
 * The user named in a call must be the caller, a user it may read (instance administrators: any;
 * otherwise the users it created), or the owner or a member of the content's organization; any
 * other is answered as an identification string of nothing.
 */

const isSelf = (ctx: Context, code: string) => code === 'me' || code === ctx.viewer.user.id;

async function namedUser(ctx: Context, code: string, content: ContentRecord): Promise<User> {
  if (isSelf(ctx, code)) return ctx.viewer.user;
  const organizationId = organizationOf(content);
  // Anyone else is unknown to this call, as a user that does not exist.
  const insiders = organizationId ? [{ ownedOrganizations: { some: { id: organizationId } } }, { memberships: { some: { organizationId } } }] : [];
  const [user] = await findUsers(ctx, [code], 'user', { OR: insiders });
  return user!;
}

/** The content and the user asked about: asking about oneself needs view, about another user grant. */
async function askedAbout(ctx: Context, type: ContentType, contentId: string, userCode: string, parameter: string) {
  const self = isSelf(ctx, userCode);
  const content = await contentFor(ctx, `${type}:${self ? 'permission:read' : 'permission:read-others'}`, contentId, parameter);
  return { content, user: await namedUser(ctx, userCode, content) };
}

export interface PermissionCheck {
  user: User;
  content: ContentRecord;
  /** The user's effective level includes the level asked for. */
  permission: boolean;
  /** A rule with exactly these parameters exists. */
  rule: boolean;
}

export async function checkPermission(ctx: Context, type: ContentType, raw: Record<string, unknown>, parameter: string = type): Promise<PermissionCheck> {
  const input = parseInput(s.permissionInput(type, parameter), raw);
  const { content, user } = await askedAbout(ctx, type, input.content, input.user, parameter);
  const [[level = null], rule] = await Promise.all([
    heldLevels(ctx, user, [content]),
    ctx.db.permissionRule.count({ where: { contentType: type, contentId: content.id, userId: user.id, level: input.permission } }),
  ]);
  return { user, content, permission: includes(type, level, input.permission), rule: rule > 0 };
}

export interface PermissionChange {
  user: User;
  content: ContentRecord;
  success: boolean;
}

/** Grant or revoke: the caller needs grant, and the level must not be above its own. */
async function ruleChange(ctx: Context, type: ContentType, raw: Record<string, unknown>, parameter: string, verb: 'grant' | 'revoke') {
  const input = parseInput(s.permissionInput(type, parameter), raw);
  const content = await loadContent(ctx.db, type, input.content, parameter);
  const own = await assertCan(ctx, `${type}:permission:${verb}`, content, unknownContent(type, input.content, parameter));
  assertWithinOwnLevel(type, verb, input.permission, own);
  const user = await namedUser(ctx, input.user, content);
  return { content, user, rule: { contentType: type, contentId: content.id, userId: user.id, level: input.permission } };
}

/** Creates the rule; granting a rule that exists changes nothing and succeeds. */
export async function grantPermission(ctx: Context, type: ContentType, raw: Record<string, unknown>, parameter: string = type): Promise<PermissionChange> {
  const { content, user, rule } = await ruleChange(ctx, type, raw, parameter, 'grant');
  await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.permissionRule.createMany({ data: [{ ...rule, grantedById: ctx.viewer.user.id }], skipDuplicates: true });
    if (count > 0) await audit(ctx, tx, `${type}.permission.grant`, content.id);
  });
  return { user, content, success: true };
}

/** Removes the rule; `success` tells whether there was one (none: nothing changes). */
export async function revokePermission(ctx: Context, type: ContentType, raw: Record<string, unknown>, parameter: string = type): Promise<PermissionChange> {
  const { content, user, rule } = await ruleChange(ctx, type, raw, parameter, 'revoke');
  const removed = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.permissionRule.deleteMany({ where: rule });
    if (count > 0) await audit(ctx, tx, `${type}.permission.revoke`, content.id);
    return count > 0;
  });
  return { user, content, success: removed };
}

/**
 * Makes the user the owner. The previous owner keeps nothing from ownership (only its own rules
 * and memberships still count); the organization, the rules and the tags stay.
 */
export async function transferContent(ctx: Context, type: ContentType, raw: Record<string, unknown>, parameter: string = type): Promise<PermissionChange> {
  const input = parseInput(s.transferInput(parameter), raw);
  const content = await contentFor(ctx, `${type}:transfer`, input.content, parameter);
  const user = await namedUser(ctx, input.user, content);
  await ctx.db.$transaction(async (tx) => {
    await changeOwner(ctx, tx, type, content.id, user.id);
    await audit(ctx, tx, `${type}.transfer`, content.id);
  });
  return { user, content: { ...content, ownerId: user.id }, success: true };
}

export interface PermissionSummary {
  user: User;
  content: ContentRecord;
  /** The effective level; null when the user holds nothing. */
  level: Level | null;
  /** Every level the user holds: the effective one and those below it. */
  levels: Level[];
  /** The levels of the user's explicit rules, lowest first. */
  rules: Level[];
}

/** What a user can do on a piece of content (for dashboards); asked as checkPermission is. */
export async function permissionSummary(ctx: Context, type: ContentType, raw: Record<string, unknown>, parameter = 'content'): Promise<PermissionSummary> {
  const input = parseInput(s.summaryInput(parameter), raw);
  const { content, user } = await askedAbout(ctx, type, input.content, input.user, parameter);
  const [[level = null], rules] = await Promise.all([
    heldLevels(ctx, user, [content]),
    ctx.db.permissionRule.findMany({ where: { contentType: type, contentId: content.id, userId: user.id }, select: { level: true } }),
  ]);
  const ruleLevels = rules.map((r) => r.level as Level).sort((a, b) => rank(type, a) - rank(type, b));
  return { user, content, level, levels: levelsUpTo(type, level), rules: ruleLevels };
}

/** A rule with its user; `readableUser` only when the caller may read that user's account. */
export type RuleWithUser = PermissionRule & { user: User; readableUser: User | null };

/**
 * The rules on several pieces of one type, keyed by content id, each list by user name then level.
 * A caller holding grant on a piece sees all of its rules; otherwise only its own.
 */
export async function rulesOf(ctx: Context, type: ContentType, ids: readonly string[]): Promise<Map<string, RuleWithUser[]>> {
  const contents = await findContents(ctx.db, type, ids);
  const allowed = await canEach(ctx, contents.map((c) => [`${type}:permission:read-others`, c] as const));
  const granting = contents.filter((_, i) => allowed[i]).map((c) => c.id);
  const rows = await ctx.db.permissionRule.findMany({
    where: { contentType: type, contentId: { in: [...ids] }, OR: [{ contentId: { in: granting } }, { userId: ctx.viewer.user.id }] },
    include: { user: true },
  });
  rows.sort((a, b) => a.user.fullName.localeCompare(b.user.fullName) || a.userId.localeCompare(b.userId) || rank(type, a.level) - rank(type, b.level));
  const out = new Map(ids.map((id) => [id, [] as RuleWithUser[]]));
  for (const row of rows) out.get(row.contentId)!.push({ ...row, readableUser: userPolicy.read(ctx.viewer, row.user) ? row.user : null });
  return out;
}
