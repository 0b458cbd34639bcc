import type { Context } from '../../context.ts';
import type { Class, ClassMember, Prisma, User } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { audit } from '../audit/audit.service.ts';
import { contactOf } from '../notifications/notifications.service.ts';
import { findManagedUser, findUser, findUsers } from '../users/access.ts';
import { parseInput } from '../validation.ts';
import * as s from './classes.schemas.ts';
import { findClass, findClasses, userMembershipsWhere, visibleMembershipsWhere, type ClassSelection } from './access.ts';
import { classLink } from './classes.service.ts';
import { onClassProgress } from '../journeys/runtime.ts';

/** Class memberships: managing them needs control on the class; a member sees only itself. */

const DAY = 86_400_000;
/** One call writes at most this many memberships (classes × users), in one transaction. */
const MAX_MEMBERSHIPS = 10_000;

export type MembershipWithUser = ClassMember & { user: User };
export type MembershipWithClass = ClassMember & { class: Class };

/**
 * A class's memberships the viewer sees, as a relation loaded with the classes of a list
 * (GraphQL), oldest first: the order the dashboard's members connection has always had, which
 * its tests pin. The contract lists the same members by name (listMembers).
 */
export async function classMembersQuery(ctx: Context) {
  return { where: await visibleMembershipsWhere(ctx), orderBy: [{ createdAt: 'asc' as const }, { userId: 'asc' as const }] };
}

const byClassTitle: Prisma.ClassMemberOrderByWithRelationInput[] = [{ class: { title: 'asc' } }, { classId: 'asc' }];

/** A user's memberships the viewer may see, by class title, as a relation loaded with the user (GraphQL). */
export async function userClassesQuery(ctx: Context) {
  return { where: await userMembershipsWhere(ctx), orderBy: byClassTitle };
}

/** Members of a class the viewer sees: with report permission all, members only themselves. By name. */
export async function listMembers(ctx: Context, raw: Record<string, unknown>): Promise<{ class: Class; members: MembershipWithUser[] }> {
  const cls = await findClass(ctx, parseInput(s.classRef, raw).class, 'read');
  const members = await ctx.db.classMember.findMany({
    where: { AND: [{ classId: cls.id }, await visibleMembershipsWhere(ctx)] },
    include: { user: true },
    orderBy: [{ user: { fullName: 'asc' } }, { userId: 'asc' }],
  });
  return { class: cls, members };
}

/** Expiry of a membership being written: null when none is given. */
function expiryOf(expires: number | Date | undefined, now: number): Date | null {
  if (expires === undefined) return null;
  if (typeof expires === 'number') return new Date(now + expires * DAY);
  if (expires.getTime() <= now) throw new ArgumentError('expires', 'must be in the future');
  return expires;
}

function membershipMessage(ctx: Context, cls: Class, user: User, expiresAt: Date | null) {
  const to = contactOf(user);
  if (!to) return null;
  const until = expiresAt ? ` until ${expiresAt.toISOString().slice(0, 19).replace('T', ' ')} UTC` : '';
  return {
    ...to,
    userId: user.id,
    subject: `You are a member of ${cls.title}`,
    body: `Hello ${user.displayName},\n\nyou are a member of the class "${cls.title}"${until}.\nOpen it here: ${classLink(ctx, cls.id)}\n`,
  };
}

export interface MembershipChange {
  classes: Class[];
  users: User[];
}

/**
 * Adds every user to every class, approved, with the given expiry (none when absent); existing
 * memberships are updated, not duplicated. With `notify`, one message per membership written is
 * put in the outbox in the same transaction.
 */
async function writeMemberships(ctx: Context, change: MembershipChange, expires: number | Date | undefined, notify: boolean): Promise<void> {
  const { classes, users } = change;
  if (classes.length * users.length > MAX_MEMBERSHIPS) {
    throw new ArgumentError('users', `at most ${MAX_MEMBERSHIPS} memberships (classes × users) per call`);
  }
  const expiresAt = expiryOf(expires, Date.now());
  const classIds = classes.map((c) => c.id);
  const userIds = users.map((u) => u.id);
  await ctx.db.$transaction(async (tx) => {
    // Insert the missing rows first (a concurrent insert makes ours a no-op), then set them all.
    await tx.classMember.createMany({
      data: classIds.flatMap((classId) => userIds.map((userId) => ({ classId, userId, approved: true, expiresAt }))),
      skipDuplicates: true,
    });
    await tx.classMember.updateMany({ where: { classId: { in: classIds }, userId: { in: userIds } }, data: { approved: true, expiresAt } });
    for (const cls of classes) {
      if (notify) {
        for (const user of users) {
          const message = membershipMessage(ctx, cls, user, expiresAt);
          if (message) await ctx.notifier.enqueue(tx, message);
        }
      }
      await audit(ctx, tx, 'class.members.add', cls.id);
    }
    await onClassProgress(tx, classIds, userIds);
  });
}

async function deleteMemberships(ctx: Context, { classes, users }: MembershipChange): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    await tx.classMember.deleteMany({ where: { classId: { in: classes.map((c) => c.id) }, userId: { in: users.map((u) => u.id) } } });
    for (const cls of classes) await audit(ctx, tx, 'class.members.remove', cls.id);
    await onClassProgress(tx, classes.map((c) => c.id), users.map((u) => u.id));
  });
}

/**
 * The classes and the users of a change of members. Users are those the viewer may read, the
 * classes' members and the members of their organizations; any other is unknown (NOT_FOUND).
 */
async function membershipChange(ctx: Context, classes: Class[], users: string[]): Promise<MembershipChange> {
  const classIds = classes.map((c) => c.id);
  const organizationIds = classes.flatMap((c) => (c.organizationId ? [c.organizationId] : []));
  const seen = { OR: [{ classMemberships: { some: { classId: { in: classIds } } } }, { memberships: { some: { organizationId: { in: organizationIds } } } }] };
  return { classes, users: await findUsers(ctx, users, 'users', seen) };
}

export async function addMembers(ctx: Context, raw: Record<string, unknown>): Promise<MembershipChange> {
  const input = parseInput(s.addMembers, raw);
  const change = await membershipChange(ctx, [await findClass(ctx, input.class, 'class:members:update')], input.users);
  await writeMemberships(ctx, change, input.expires, input.notify);
  return change;
}

export async function removeMembers(ctx: Context, raw: Record<string, unknown>): Promise<MembershipChange> {
  const input = parseInput(s.removeMembers, raw);
  const change = await membershipChange(ctx, [await findClass(ctx, input.class, 'class:members:update')], input.users);
  await deleteMemberships(ctx, change);
  return change;
}

/** The class after a change of its members, with what `query` selects: GraphQL answers with the class. */
const classAfter = (ctx: Context, change: MembershipChange, query: ClassSelection): Promise<Class> =>
  ctx.db.class.findUniqueOrThrow({ ...query, where: { id: change.classes[0]!.id } });

export async function addMembersToClass(ctx: Context, raw: Record<string, unknown>, query: ClassSelection = {}): Promise<Class> {
  return classAfter(ctx, await addMembers(ctx, raw), query);
}

export async function removeMembersFromClass(ctx: Context, raw: Record<string, unknown>, query: ClassSelection = {}): Promise<Class> {
  return classAfter(ctx, await removeMembers(ctx, raw), query);
}

export async function addManyMembers(ctx: Context, raw: Record<string, unknown>): Promise<MembershipChange> {
  const input = parseInput(s.addManyMembers, raw);
  const change = await membershipChange(ctx, await findClasses(ctx, input.classes, 'classes', 'class:members:update'), input.users);
  await writeMemberships(ctx, change, input.expires, input.notify);
  return change;
}

/** The user's memberships the viewer may see, by class title. */
export async function listUserClasses(ctx: Context, raw: Record<string, unknown>): Promise<{ user: User; memberships: MembershipWithClass[] }> {
  const user = await findUser(ctx, parseInput(s.userRef, raw).user);
  const memberships = await ctx.db.classMember.findMany({
    where: { AND: [{ userId: user.id }, await userMembershipsWhere(ctx)] },
    include: { class: true },
    orderBy: byClassTitle,
  });
  return { user, memberships };
}

/** Changing a user's classes needs both: managing the user and managing each class. */
async function managedUserAndClasses(ctx: Context, userCode: string, classCodes: string[]): Promise<MembershipChange> {
  const user = await findManagedUser(ctx, userCode);
  return { classes: await findClasses(ctx, classCodes, 'classes', 'class:members:update'), users: [user] };
}

export async function addUserClasses(ctx: Context, raw: Record<string, unknown>): Promise<MembershipChange> {
  const input = parseInput(s.addUserClasses, raw);
  const change = await managedUserAndClasses(ctx, input.user, input.classes);
  await writeMemberships(ctx, change, input.expires, input.notify);
  return change;
}

export async function removeUserClasses(ctx: Context, raw: Record<string, unknown>): Promise<MembershipChange> {
  const input = parseInput(s.removeUserClasses, raw);
  const change = await managedUserAndClasses(ctx, input.user, input.classes);
  await deleteMemberships(ctx, change);
  return change;
}
