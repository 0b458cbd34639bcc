import type { Context, Viewer } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { Prisma, User } from '../generated/prisma/client.ts';
import { ArgumentError, PermissionError } from '../errors.ts';
import { organizationRoles, type OrganizationRole } from './organization-policy.ts';

/** Content types that carry permissions, by their contract name (the `content.type` of outputs). */
export const contentTypes = ['class', 'course', 'event', 'exam', 'integration', 'organization', 'quiz', 'scorm', 'tag', 'video'] as const;
export type ContentType = (typeof contentTypes)[number];

/** Permission levels, lowest first; a higher level includes the lower ones. Events add finances. */
export const levels = ['view', 'report', 'control', 'modify', 'grant', 'admin'] as const;
export const eventLevels = ['view', 'report', 'control', 'modify', 'finances', 'grant', 'admin'] as const;
export type Level = (typeof eventLevels)[number];

export const levelsOf = (type: ContentType): readonly Level[] => (type === 'event' ? eventLevels : levels);

/** The rank of a level on the scale of the content type (-1: not a level of that type). */
export const rank = (type: ContentType, level: string): number => levelsOf(type).indexOf(level as Level);

/** The levels a holder of `level` has: that one and every lower one (none for null). */
export const levelsUpTo = (type: ContentType, level: Level | null): Level[] =>
  level === null ? [] : levelsOf(type).slice(0, rank(type, level) + 1);

/** What the policy needs to know about a piece of content. */
export interface ContentRef {
  type: ContentType;
  id: string;
  ownerId: string | null;
  organizationId: string | null;
}

type Reader = Db | Prisma.TransactionClient;
type Holder = Pick<User, 'id' | 'admin'>;

/**
 * Organization roles that carry a level on one content type whatever the membership's content
 * level: the organization's teachers (and the roles above them) run its classes.
 */
const roleLevels: Partial<Record<ContentType, { from: OrganizationRole; level: Level }>> = {
  class: { from: 'teacher', level: 'modify' },
};
const rolesFrom = (role: OrganizationRole) => organizationRoles.slice(organizationRoles.indexOf(role));

/** The organization whose memberships count for the content: an organization counts for itself. */
const organizationOf = (content: ContentRef) => (content.type === 'organization' ? content.id : content.organizationId);

interface Membership {
  permOrganization: string;
  permContent: string;
}

/**
 * The rank a membership gives on content of the organization. Organization admins hold admin.
 * On the organization itself every member holds view (the membership's content level is a level
 * on the organization's content, not on the organization). On its content: the content level,
 * or what the member's role carries on that type.
 */
function membershipRank(type: ContentType, m: Membership): number {
  const scale = levelsOf(type);
  if (m.permOrganization === 'admin') return scale.length - 1;
  if (type === 'organization') return 0;
  const implied = roleLevels[type];
  const byRole = implied && rolesFrom(implied.from).includes(m.permOrganization as OrganizationRole) ? rank(type, implied.level) : -1;
  return Math.max(rank(type, m.permContent), byRole);
}

/**
 * The effective levels of one user on several pieces of content (null: nothing), the highest of:
 * - instance administration, and ownership (the owner holds admin);
 * - explicit permission rules for the user;
 * - the content's organization: its owner holds admin, and a membership gives membershipRank().
 * Two statements whatever the number of pieces.
 */
export async function levelsFor(db: Reader, user: Holder, contents: readonly ContentRef[]): Promise<(Level | null)[]> {
  if (contents.length === 0) return [];
  if (user.admin) return contents.map((c) => levelsOf(c.type).at(-1)!);
  const byType = new Map<ContentType, string[]>();
  for (const c of contents) byType.set(c.type, [...(byType.get(c.type) ?? []), c.id]);
  const organizationIds = [...new Set(contents.map(organizationOf).filter((id): id is string => id !== null))];
  const [rules, organizations] = await Promise.all([
    db.permissionRule.findMany({
      where: { userId: user.id, OR: [...byType].map(([contentType, ids]) => ({ contentType, contentId: { in: ids } })) },
      select: { contentType: true, contentId: true, level: true },
    }),
    organizationIds.length === 0
      ? []
      : db.organization.findMany({
          where: { id: { in: organizationIds } },
          select: { id: true, ownerId: true, members: { where: { userId: user.id }, select: { permOrganization: true, permContent: true } } },
        }),
  ]);
  const organizationById = new Map(organizations.map((o) => [o.id, o]));
  return contents.map((c) => {
    const scale = levelsOf(c.type);
    const top = scale.length - 1;
    const organization = organizationById.get(organizationOf(c) ?? '');
    if (c.ownerId === user.id || organization?.ownerId === user.id) return scale[top]!;
    let best = -1;
    for (const r of rules) if (r.contentType === c.type && r.contentId === c.id) best = Math.max(best, rank(c.type, r.level));
    const membership = organization?.members[0];
    if (membership) best = Math.max(best, membershipRank(c.type, membership));
    return best >= 0 ? scale[best]! : null;
  });
}

/** The effective level of any user on one piece of content (see levelsFor). */
export async function levelOf(db: Reader, user: Holder, content: ContentRef): Promise<Level | null> {
  return (await levelsFor(db, user, [content]))[0]!;
}

/** The effective level of the viewer on one piece of content; null when it holds nothing. */
export async function effectiveLevel(db: Reader, viewer: Viewer, content: ContentRef): Promise<Level | null> {
  return levelOf(db, viewer.user, content);
}

/** Whether a held level includes `level` (false for a level the content type does not have). */
export const includes = (type: ContentType, held: Level | null, level: Level): boolean =>
  held !== null && rank(type, level) >= 0 && rank(type, held) >= rank(type, level);

/** Whether the viewer holds at least `level` on the content. */
export async function can(ctx: Pick<Context, 'db' | 'viewer'>, level: Level, content: ContentRef): Promise<boolean> {
  return includes(content.type, await effectiveLevel(ctx.db, ctx.viewer, content), level);
}

/** Throws 403 unless the viewer holds at least `level` on the content. */
export async function assertCan(ctx: Pick<Context, 'db' | 'viewer'>, level: Level, content: ContentRef, action?: string): Promise<void> {
  if (!(await can(ctx, level, content))) {
    throw new PermissionError(`You need ${level} permission on this ${content.type}${action ? ` to ${action}` : ''}`);
  }
}

/**
 * A Prisma filter for lists: content on which the viewer holds at least `level`, by the same rules
 * as levelsFor(). For the models with `ownerId` and an `organization` relation, and Organization
 * itself; `id` is matched against the viewer's rules of the content type.
 */
export async function atLeastWhere(db: Reader, viewer: Viewer, type: ContentType, level: Level): Promise<Record<string, unknown>> {
  const userId = viewer.user.id;
  if (viewer.user.admin) return {};
  const held = levelsOf(type).slice(Math.max(rank(type, level), 0));
  const rules = await db.permissionRule.findMany({ where: { userId, contentType: type, level: { in: held } }, select: { contentId: true } });
  const membership: Record<string, unknown>[] = [{ permOrganization: 'admin' }];
  if (type === 'organization') {
    if (level === 'view') membership.push({ permOrganization: { in: organizationRoles } });
  } else {
    membership.push({ permContent: { in: held } });
    const implied = roleLevels[type];
    if (implied && held.includes(implied.level)) membership.push({ permOrganization: { in: rolesFrom(implied.from) } });
  }
  const members = { some: { userId, OR: membership } };
  return {
    OR: [
      { ownerId: userId },
      { id: { in: rules.map((r) => r.contentId) } },
      type === 'organization' ? { members } : { organization: { OR: [{ ownerId: userId }, { members }] } },
    ],
  };
}

/** A Prisma filter for lists: content the viewer may view. */
export async function viewableWhere(db: Reader, viewer: Viewer, type: ContentType): Promise<Record<string, unknown>> {
  return atLeastWhere(db, viewer, type, 'view');
}

/**
 * Content of `type` may be put in an organization where the caller may change such content
 * without owning it (content level modify or more, organization managers, instance
 * administrators; for classes also its teachers). Unknown organization: NOT_FOUND naming `argument`.
 */
export async function assertCanCreateIn(ctx: Pick<Context, 'db' | 'viewer'>, type: ContentType, organizationId: string, argument = 'organization'): Promise<void> {
  const organization = await ctx.db.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
  if (!organization) throw new ArgumentError(argument, `no organization with identification string '${organizationId}'`, 'NOT_FOUND');
  // A piece of content of that type nobody owns and no rule names: what the organization alone gives.
  if (!(await can(ctx, 'modify', { type, id: '', ownerId: null, organizationId }))) {
    throw new PermissionError(`You may not put a ${type} in this organization: that needs modify permission on its content`);
  }
}
