import type { Db } from '../db/client.ts';
import type { Prisma, User } from '../generated/prisma/client.ts';
import { contentTypeEntry, type ContentType } from '../services/content/content-types.ts';
import type { Level } from './levels.ts';

export type { Level } from './levels.ts';
import { organizationRoles, type OrganizationRole } from './organization-policy.ts';

/**
 * The effective level of a user on content, computed two ways that must agree: in memory for
 * pieces at hand (levelsFor) and as a Prisma filter for lists (atLeastWhere).
 * test/auth/level-agreement.test.ts compares them for every type, role, content level, rule and
 * ownership. Services ask through the facade (policy.ts), which names actions, not levels.
 */

export const levelsOf = (type: ContentType): readonly Level[] => contentTypeEntry(type).levels;

/** The rank of a level on the scale of the content type (-1: not a level of that type). */
export const rank = (type: ContentType, level: string): number => levelsOf(type).indexOf(level as Level);

/** The levels a holder of `level` has: that one and every lower one (none for null). */
export const levelsUpTo = (type: ContentType, level: Level | null): Level[] =>
  level === null ? [] : levelsOf(type).slice(0, rank(type, level) + 1);

/** Whether a held level includes `level` (false for a level the content type does not have). */
export const includes = (type: ContentType, held: Level | null, level: Level): boolean =>
  held !== null && rank(type, level) >= 0 && rank(type, held) >= rank(type, level);

/** What the policy needs to know about a piece of content. */
export interface ContentRef {
  type: ContentType;
  id: string;
  ownerId: string | null;
  organizationId: string | null;
}

type Reader = Db | Prisma.TransactionClient;
export type Holder = Pick<User, 'id' | 'admin'>;

const rolesFrom = (role: OrganizationRole) => organizationRoles.slice(organizationRoles.indexOf(role));

/** The organization whose memberships count for the content. */
export const organizationOf = (content: ContentRef) => (contentTypeEntry(content.type).organization === 'self' ? content.id : content.organizationId);

interface Membership {
  permOrganization: string;
  permContent: string;
}

/**
 * The rank a membership gives on content of the organization. Organization admins hold admin.
 * On an organization itself every member holds view (the membership's content level is a level
 * on the organization's content, not on the organization). On its content: the content level,
 * or what the member's role carries on that type.
 */
function membershipRank(type: ContentType, m: Membership): number {
  const { levels, organization, roleLevel } = contentTypeEntry(type);
  if (m.permOrganization === 'admin') return levels.length - 1;
  if (organization === 'self') return 0;
  const byRole = roleLevel && rolesFrom(roleLevel.role).includes(m.permOrganization as OrganizationRole) ? rank(type, roleLevel.level) : -1;
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

/**
 * A Prisma filter on the records of `type`: those on which the user holds at least `level`, by the
 * same rules as levelsFor(). Matches `ownerId` and the `organization` relation (an organization:
 * its `members`), and `id` against the user's rules on the type: one statement, left out with
 * `rules: false` for records that borrow the type's policy and that no rule names (questions).
 */
export async function atLeastWhere(db: Reader, user: Holder, type: ContentType, level: Level, { rules: byRules = true } = {}): Promise<Record<string, unknown>> {
  // A level the type does not have is held by nobody, as includes() says.
  if (rank(type, level) < 0) return { id: { in: [] } };
  if (user.admin) return {};
  const userId = user.id;
  const { organization, roleLevel } = contentTypeEntry(type);
  const held = levelsOf(type).slice(rank(type, level));
  const rules = byRules ? await db.permissionRule.findMany({ where: { userId, contentType: type, level: { in: held } }, select: { contentId: true } }) : [];
  const membership: Record<string, unknown>[] = [{ permOrganization: 'admin' }];
  if (organization === 'self') {
    if (level === 'view') membership.push({ permOrganization: { in: organizationRoles } });
  } else {
    membership.push({ permContent: { in: held } });
    if (roleLevel && held.includes(roleLevel.level)) membership.push({ permOrganization: { in: rolesFrom(roleLevel.role) } });
  }
  const members = { some: { userId, OR: membership } };
  return {
    OR: [
      { ownerId: userId },
      { id: { in: rules.map((r) => r.contentId) } },
      organization === 'self' ? { members } : { organization: { OR: [{ ownerId: userId }, { members }] } },
    ],
  };
}
