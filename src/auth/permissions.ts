import type { Context, Viewer } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { PermissionError } from '../errors.ts';

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

/** What the policy needs to know about a piece of content. */
export interface ContentRef {
  type: ContentType;
  id: string;
  ownerId: string | null;
  organizationId: string | null;
}

type Reader = Db | Prisma.TransactionClient;

/**
 * The effective level of the viewer on one piece of content, the highest of:
 * - instance administration, and ownership (the owner holds admin);
 * - explicit permission rules for the user;
 * - membership of the content's organization: the membership's `content` level (organization
 *   managers — owner and `admin` role — hold admin on the organization's content).
 * For an organization itself, its owner and its admins hold admin.
 * Returns null when the viewer holds nothing.
 */
export async function effectiveLevel(db: Reader, viewer: Viewer, content: ContentRef): Promise<Level | null> {
  const scale = levelsOf(content.type);
  const top = scale[scale.length - 1]!;
  const user = viewer.user;
  if (user.admin || (content.ownerId !== null && content.ownerId === user.id)) return top;
  const organizationId = content.type === 'organization' ? content.id : content.organizationId;
  const [rules, membership] = await Promise.all([
    db.permissionRule.findMany({ where: { contentType: content.type, contentId: content.id, userId: user.id }, select: { level: true } }),
    organizationId
      ? db.organizationMember.findUnique({
          where: { organizationId_userId: { organizationId, userId: user.id } },
          select: { permOrganization: true, permContent: true },
        })
      : null,
  ]);
  let best = -1;
  for (const r of rules) best = Math.max(best, scale.indexOf(r.level as Level));
  if (membership) {
    if (membership.permOrganization === 'admin') return top;
    best = Math.max(best, scale.indexOf(membership.permContent as Level));
  }
  return best >= 0 ? scale[best]! : null;
}

/** Whether the viewer holds at least `level` on the content. */
export async function can(ctx: Pick<Context, 'db' | 'viewer'>, level: Level, content: ContentRef): Promise<boolean> {
  const held = await effectiveLevel(ctx.db, ctx.viewer, content);
  return held !== null && rank(content.type, held) >= rank(content.type, level);
}

/** Throws 403 unless the viewer holds at least `level` on the content. */
export async function assertCan(ctx: Pick<Context, 'db' | 'viewer'>, level: Level, content: ContentRef, action?: string): Promise<void> {
  if (!(await can(ctx, level, content))) {
    throw new PermissionError(`You need ${level} permission on this ${content.type}${action ? ` to ${action}` : ''}`);
  }
}

/**
 * A Prisma filter for lists: content the viewer may view. For models with `ownerId` and
 * `organizationId` columns; `id` is matched against rules of the content type.
 */
export async function viewableWhere(db: Reader, viewer: Viewer, type: ContentType): Promise<Record<string, unknown>> {
  if (viewer.user.admin) return {};
  const [rules, memberships] = await Promise.all([
    db.permissionRule.findMany({ where: { userId: viewer.user.id, contentType: type }, select: { contentId: true } }),
    db.organizationMember.findMany({
      where: { userId: viewer.user.id, OR: [{ permOrganization: 'admin' }, { permContent: { not: 'none' } }] },
      select: { organizationId: true },
    }),
  ]);
  return {
    OR: [
      { ownerId: viewer.user.id },
      { id: { in: rules.map((r) => r.contentId) } },
      { organizationId: { in: memberships.map((m) => m.organizationId) } },
    ],
  };
}
