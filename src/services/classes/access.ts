import type { Context } from '../../context.ts';
import type { Class, ClassAssignment, Prisma } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { allowedWhere, denied, may } from '../../auth/policy.ts';
import type { ActionOn } from '../../auth/actions.ts';
import { loaders } from '../loaders.ts';
import type { Selection } from '../selection.ts';
import { unknownContent } from '../content/records.ts';

/**
 * Who sees and manages which classes, memberships and submissions, under the content permission
 * policy (src/auth/policy.ts; an organization's teachers and the roles above hold modify on
 * its classes). Reading a class needs view, or an active membership; seeing every member and every
 * submission report; managing members and grading control; changing the class and its assignments
 * modify; deleting it admin. The rules are Prisma filters, so a list, a single lookup and a GraphQL
 * node lookup apply exactly the same rule in SQL.
 */

export type ClassSelection = Selection<'Class'>;
export type AssignmentSelection = Selection<'ClassAssignment'>;

/** Approved and not expired. */
export const activeMembershipWhere = (now = new Date()): Prisma.ClassMemberWhereInput => ({
  approved: true,
  OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
});

/** The rule of the `class-member` role (auth/policy.ts), for showing a membership as active. */
export { isActiveMembership } from '../../auth/policy.ts';

/** Classes on which the viewer may do `action`. */
export const classesAllowing = (ctx: Context, action: ActionOn<'class'>) =>
  loaders(ctx).once(`classes:${action}`, async () => (await allowedWhere(ctx, action)) as Prisma.ClassWhereInput);

/** Classes the viewer sees: with view permission, or as an active member. */
export async function visibleClassesWhere(ctx: Context): Promise<Prisma.ClassWhereInput> {
  if (may(ctx.viewer.user, 'instance:records:read-all')) return {};
  return { OR: [await classesAllowing(ctx, 'class:read'), { members: { some: { userId: ctx.viewer.user.id, ...activeMembershipWhere() } } }] };
}

/** Memberships the viewer may see: all of a class where it holds report, and its own anywhere. */
export async function visibleMembershipsWhere(ctx: Context): Promise<Prisma.ClassMemberWhereInput> {
  if (may(ctx.viewer.user, 'instance:records:read-all')) return {};
  return { OR: [{ userId: ctx.viewer.user.id }, { class: await classesAllowing(ctx, 'class:members:read') }] };
}

/** The memberships of some user the viewer may see: its own, or in classes the viewer sees. */
export async function userMembershipsWhere(ctx: Context): Promise<Prisma.ClassMemberWhereInput> {
  if (may(ctx.viewer.user, 'instance:records:read-all')) return {};
  return { OR: [{ userId: ctx.viewer.user.id }, { class: await visibleClassesWhere(ctx) }] };
}

/** Submissions the viewer may see: all of a class where it holds report, and its own. */
export async function visibleSubmissionsWhere(ctx: Context): Promise<Prisma.AssignmentSubmissionWhereInput> {
  if (may(ctx.viewer.user, 'instance:records:read-all')) return {};
  return { OR: [{ userId: ctx.viewer.user.id }, { assignment: { class: await classesAllowing(ctx, 'class:members:read') } }] };
}

/** What an action needs: `read` is view permission or an active membership; otherwise the policy's answer. */
export type Need = 'read' | ActionOn<'class'>;

/** The ids among `ids` of classes matching `rule`. */
async function matching(ctx: Context, ids: string[], rule: Prisma.ClassWhereInput): Promise<Set<string>> {
  return new Set((await ctx.db.class.findMany({ where: { AND: [{ id: { in: ids } }, rule] }, select: { id: true } })).map((c) => c.id));
}

/**
 * The classes named by `codes`, in order and without repeats. Every one must exist and be visible
 * to the viewer (NOT_FOUND naming `argument` otherwise: a class the viewer may not see is answered
 * as one that does not exist), and the viewer must hold what `need` says on every one
 * (PERMISSION_DENIED); nothing is partly done.
 */
export async function findClasses(ctx: Context, codes: string[], argument: string, need: Need, query: ClassSelection = {}): Promise<Class[]> {
  const ids = [...new Set(codes)];
  const found = new Map((await ctx.db.class.findMany({ ...query, where: { id: { in: ids } } })).map((c) => [c.id, c]));
  const unknown = (id: string) => unknownContent('class', id, argument);
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw unknown(missing);
  if (!may(ctx.viewer.user, 'instance:records:read-all')) {
    // A level an action needs includes view, so when every class allows the action, every one is
    // visible too: one statement; only a refusal asks which of them the viewer may not see.
    if (need !== 'read' && (await matching(ctx, ids, await classesAllowing(ctx, need))).size === ids.length) return ids.map((id) => found.get(id)!);
    const visible = await matching(ctx, ids, await visibleClassesWhere(ctx));
    const hidden = ids.find((id) => !visible.has(id));
    if (hidden) throw unknown(hidden);
    if (need !== 'read') throw denied(need);
  }
  return ids.map((id) => found.get(id)!);
}

export const findClass = async (ctx: Context, code: string, need: Need, query: ClassSelection = {}) =>
  (await findClasses(ctx, [code], 'class', need, query))[0]!;

export async function findAssignment(ctx: Context, code: string, need: Need, query: AssignmentSelection = {}): Promise<ClassAssignment> {
  const assignment = await ctx.db.classAssignment.findUnique({ ...query, where: { id: code } });
  const unknown = new ArgumentError('assignment', `no assignment with identification string '${code}'`, 'NOT_FOUND');
  if (!assignment) throw unknown;
  // An assignment of a class the viewer may not see is as unknown as the class.
  await findClass(ctx, assignment.classId, need).catch((error: unknown) => {
    throw error instanceof ArgumentError && error.code === 'NOT_FOUND' ? unknown : error;
  });
  return assignment;
}

/** A class by identification string when the viewer sees it, else null (a node lookup). */
export async function findVisibleClass(ctx: Context, id: string, query: ClassSelection = {}): Promise<Class | null> {
  return ctx.db.class.findFirst({ ...query, where: { AND: [{ id }, await visibleClassesWhere(ctx)] } });
}

/** An assignment by identification string when the viewer sees its class, else null (a node lookup). */
export async function findVisibleAssignment(ctx: Context, id: string, query: AssignmentSelection = {}): Promise<ClassAssignment | null> {
  return ctx.db.classAssignment.findFirst({ ...query, where: { id, class: await visibleClassesWhere(ctx) } });
}
