import type { Context } from '../../context.ts';
import type { User } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { assertMay, can, may } from '../../auth/policy.ts';
import type { RoleAction } from '../../auth/actions.ts';

type MoveAction = Extract<RoleAction, `${string}:organization:update`>;
import { unknownContent } from '../content/records.ts';

/**
 * The organization rules shared by everything a user owns and may place in an organization
 * (integrations, Quiz sets, …): "an organization of the application owner only; for
 * organizational members always their organization".
 */

/**
 * The organization content of `owner` may belong to: one the owner owns or administers; instance
 * administrators administer every organization. A plain member of an organization who administers
 * none is an organizational member, whose content always belongs to that organization, whatever
 * was asked. `null` asks to remove it from its organization; `undefined` asks for nothing.
 */
export async function resolveOrganization(ctx: Context, owner: User, requested: string | undefined | null): Promise<string | null | undefined> {
  const memberships = await ctx.db.organizationMember.findMany({ where: { userId: owner.id }, orderBy: [{ createdAt: 'asc' }, { organizationId: 'asc' }] });
  const owned = await ctx.db.organization.findMany({ where: { ownerId: owner.id }, select: { id: true } });
  const administered = new Set([...owned.map((o) => o.id), ...memberships.filter((m) => m.permOrganization === 'admin').map((m) => m.organizationId)]);
  const administersAll = may(owner, 'instance:organizations:administer-all');
  if (!administersAll && administered.size === 0 && memberships.length > 0) return memberships[0]!.organizationId;
  if (requested === undefined || requested === null) return requested;
  const organization = await ctx.db.organization.findUnique({ where: { id: requested }, select: { id: true, ownerId: true } });
  if (!organization) throw unknownContent('organization', requested);
  if (!administersAll && !administered.has(requested)) {
    // Only a caller who may view the organization learns that it is not the owner's.
    if (!(await can(ctx, 'organization:read', organization))) throw unknownContent('organization', requested);
    throw new ArgumentError('organization', 'is not an organization of the application owner', 'NOT_OWN_ORGANIZATION');
  }
  return requested;
}

/**
 * The organization asked for by an update of existing content (`none` or empty removes it). Only
 * the content's owner or an instance administrator may move it — explicit, so that a wider policy
 * (such as granted permissions) never extends to this — and the organization must be one of the
 * content's owner, who may not be the caller (an administrator).
 */
export async function movedOrganization(ctx: Context, content: { ownerId: string }, requested: string, action: MoveAction): Promise<string | null> {
  assertMay(ctx.viewer.user, action, content);
  const owner = content.ownerId === ctx.viewer.user.id ? ctx.viewer.user : await ctx.db.user.findUniqueOrThrow({ where: { id: content.ownerId } });
  const removing = requested === '' || requested === 'none';
  return (await resolveOrganization(ctx, owner, removing ? null : requested)) ?? null;
}
