import type { Context } from '../../context.ts';
import type { AssignmentSubmission, Class, ClassAssignment, ClassMember, Prisma, User } from '../../generated/prisma/client.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { assertAllowed, userPolicy } from '../../auth/policy.ts';
import { allowedWhere, assertCanCreateIn, denied } from '../../auth/policy.ts';
import type { ActionOn } from '../../auth/actions.ts';
import { audit } from '../audit/audit.service.ts';
import { forgetContent } from '../content/records.ts';
import { findUser } from '../users/users.service.ts';
import { parseInput } from '../validation.ts';
import * as s from './classes.schemas.ts';
import { contactOf } from '../notifications/notifications.service.ts';

/**
 * Classes, their memberships and assignments, under the content permission policy
 * (src/auth/policy.ts; an organization's teachers and the roles above hold modify on its
 * classes). Reading a class needs view, or an active membership; seeing every member and every
 * submission report; managing members and grading control; changing the class and its
 * assignments modify; deleting it admin. The rules are Prisma filters, so a list, a single lookup
 * and a GraphQL node lookup apply exactly the same rule in SQL.
 */

const DAY = 86_400_000;
/** One call writes at most this many memberships (classes × users), in one transaction. */
const MAX_MEMBERSHIPS = 10_000;

export type AssignmentStatus = 'INACTIVE' | 'ACTIVE' | 'STARTED' | 'SUBMITTED' | 'GRADED';
export const assignmentStatuses = ['INACTIVE', 'ACTIVE', 'STARTED', 'SUBMITTED', 'GRADED'] as const satisfies readonly AssignmentStatus[];

// ---------------------------------------------------------------------------------------------
// Rules as filters

/** Approved and not expired. */
export const activeMembershipWhere = (now = new Date()): Prisma.ClassMemberWhereInput => ({
  approved: true,
  OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
});

export const isActiveMembership = (m: Pick<ClassMember, 'approved' | 'expiresAt'>, now = new Date()) =>
  m.approved && (m.expiresAt === null || m.expiresAt > now);

/** Classes on which the viewer may do `action`. */
const classesAllowing = async (ctx: Context, action: ActionOn<'class'>) => (await allowedWhere(ctx, action)) as Prisma.ClassWhereInput;

/** Classes the viewer sees: with view permission, or as an active member. */
export async function visibleClassesWhere(ctx: Context): Promise<Prisma.ClassWhereInput> {
  if (ctx.viewer.user.admin) return {};
  return { OR: [await classesAllowing(ctx, 'class:read'), { members: { some: { userId: ctx.viewer.user.id, ...activeMembershipWhere() } } }] };
}

/** Memberships the viewer may see: all of a class where it holds report, and its own anywhere. */
export async function visibleMembershipsWhere(ctx: Context): Promise<Prisma.ClassMemberWhereInput> {
  if (ctx.viewer.user.admin) return {};
  return { OR: [{ userId: ctx.viewer.user.id }, { class: await classesAllowing(ctx, 'class:members:read') }] };
}

/** The memberships of some user the viewer may see: its own, or in classes the viewer sees. */
export async function userMembershipsWhere(ctx: Context): Promise<Prisma.ClassMemberWhereInput> {
  if (ctx.viewer.user.admin) return {};
  return { OR: [{ userId: ctx.viewer.user.id }, { class: await visibleClassesWhere(ctx) }] };
}

/** Submissions the viewer may see: all of a class where it holds report, and its own. */
export async function visibleSubmissionsWhere(ctx: Context): Promise<Prisma.AssignmentSubmissionWhereInput> {
  if (ctx.viewer.user.admin) return {};
  return { OR: [{ userId: ctx.viewer.user.id }, { assignment: { class: await classesAllowing(ctx, 'class:members:read') } }] };
}

// ---------------------------------------------------------------------------------------------
// Assignment status

/** An assignment accepts work: active, and now within [starts, ends]. */
export const isOpen = (a: Pick<ClassAssignment, 'active' | 'starts' | 'ends'>, now = new Date()) =>
  a.active && a.starts <= now && now <= a.ends;

/**
 * The status of an assignment for one user: the status of the user's submission when there is one
 * (work once started, handed in or graded keeps that status whatever later happens to the
 * assignment); otherwise ACTIVE when it accepts work, INACTIVE when it is inactive, not started yet
 * or over.
 */
export function assignmentStatus(
  a: Pick<ClassAssignment, 'active' | 'starts' | 'ends'>,
  submission: Pick<AssignmentSubmission, 'status'> | null | undefined,
  now = new Date(),
): AssignmentStatus {
  if (submission) return submission.status as AssignmentStatus;
  return isOpen(a, now) ? 'ACTIVE' : 'INACTIVE';
}

export const classLink = (ctx: Context, classId: string) => `${ctx.config.baseUrl}/classes/${classId}`;
export const assignmentLink = (ctx: Context, a: Pick<ClassAssignment, 'id' | 'classId'>) =>
  `${classLink(ctx, a.classId)}/assignments/${a.id}`;

// ---------------------------------------------------------------------------------------------
// Lookups

/** What an action needs: `read` is view permission or an active membership; otherwise the policy's answer. */
type Need = 'read' | ActionOn<'class'>;

/**
 * The classes named by `codes`, in order and without repeats. Every one must exist (NOT_FOUND
 * naming `argument`) and the viewer must hold what `need` says on every one; nothing is partly done.
 */
async function findClasses(ctx: Context, codes: string[], argument: string, need: Need): Promise<Class[]> {
  const ids = [...new Set(codes)];
  const found = new Map((await ctx.db.class.findMany({ where: { id: { in: ids } } })).map((c) => [c.id, c]));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw new ArgumentError(argument, `no class with identification string '${missing}'`, 'NOT_FOUND');
  if (!ctx.viewer.user.admin) {
    const rule = need === 'read' ? await visibleClassesWhere(ctx) : await classesAllowing(ctx, need);
    const allowed = await ctx.db.class.count({ where: { AND: [{ id: { in: ids } }, rule] } });
    if (allowed < ids.length) throw need === 'read' ? new PermissionError('You may not see this class') : denied(need);
  }
  return ids.map((id) => found.get(id)!);
}

const findClass = async (ctx: Context, code: string, need: Need) => (await findClasses(ctx, [code], 'class', need))[0]!;

/** Users named by `codes` (`me` is the caller); every one must exist. */
async function findUsers(ctx: Context, codes: string[], argument: string): Promise<User[]> {
  const ids = [...new Set(codes.map((c) => (c === 'me' ? ctx.viewer.user.id : c)))];
  const found = new Map((await ctx.db.user.findMany({ where: { id: { in: ids } } })).map((u) => [u.id, u]));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw new ArgumentError(argument, `no user with identification string '${missing}'`, 'NOT_FOUND');
  return ids.map((id) => found.get(id)!);
}

async function findAssignment(ctx: Context, code: string, need: Need): Promise<ClassAssignment> {
  const assignment = await ctx.db.classAssignment.findUnique({ where: { id: code } });
  if (!assignment) throw new ArgumentError('assignment', `no assignment with identification string '${code}'`, 'NOT_FOUND');
  await findClass(ctx, assignment.classId, need);
  return assignment;
}

function assertOrder(first: Date | null | undefined, second: Date | null | undefined, argument: string, rule: string): void {
  if (first && second && second <= first) throw new ArgumentError(argument, rule);
}

// ---------------------------------------------------------------------------------------------
// Classes

/** Classes the viewer sees; `search` matches the title or the external identifier. */
export async function classesWhere(ctx: Context, search?: string): Promise<Prisma.ClassWhereInput> {
  const visible = await visibleClassesWhere(ctx);
  if (!search) return visible;
  const match: Prisma.ClassWhereInput = {
    OR: [{ title: { contains: search, mode: 'insensitive' } }, { externalId: { contains: search, mode: 'insensitive' } }],
  };
  return { AND: [visible, match] };
}

export async function listClasses(ctx: Context, raw: Record<string, unknown>): Promise<Class[]> {
  const { search, limit, page } = parseInput(s.paging, raw);
  return ctx.db.class.findMany({
    where: await classesWhere(ctx, search),
    orderBy: [{ title: 'asc' }, { id: 'asc' }],
    ...s.pageWindow({ search, limit, page }),
  });
}

export async function getClass(ctx: Context, raw: Record<string, unknown>): Promise<Class> {
  return findClass(ctx, parseInput(s.classRef, raw).class, 'read');
}

export async function createClass(ctx: Context, raw: Record<string, unknown>): Promise<Class> {
  const input = parseInput(s.createClass, raw);
  assertOrder(input.start, input.end, 'end', 'must be after start');
  if (input.organization) await assertCanCreateIn(ctx, 'class:create', input.organization);
  return ctx.db.$transaction(async (tx) => {
    const created = await tx.class.create({
      data: {
        id: newId('Class'),
        title: input.title,
        externalId: input.externalId,
        description: input.description,
        start: input.start,
        end: input.end,
        ownerId: ctx.viewer.user.id,
        organizationId: input.organization,
      },
    });
    await audit(ctx, tx, 'class.create', created.id);
    return created;
  });
}

export async function updateClass(ctx: Context, raw: Record<string, unknown>): Promise<Class> {
  const { class: code, organization, ...fields } = parseInput(s.updateClass, raw);
  const current = await findClass(ctx, code, 'class:update');
  const start = fields.start === undefined ? current.start : fields.start;
  const end = fields.end === undefined ? current.end : fields.end;
  assertOrder(start, end, fields.end === undefined ? 'start' : 'end', fields.end === undefined ? 'must be before end' : 'must be after start');
  if (organization) await assertCanCreateIn(ctx, 'class:create', organization);
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.class.update({ where: { id: current.id }, data: { ...fields, organizationId: organization } });
    await audit(ctx, tx, 'class.update', current.id);
    return updated;
  });
}

export async function deleteClass(ctx: Context, raw: Record<string, unknown>): Promise<Class> {
  const current = await findClass(ctx, parseInput(s.classRef, raw).class, 'class:delete');
  await ctx.db.$transaction(async (tx) => {
    await tx.class.delete({ where: { id: current.id } });
    await forgetContent(tx, 'class', current.id);
    await audit(ctx, tx, 'class.delete', current.id);
  });
  return current;
}

// ---------------------------------------------------------------------------------------------
// Memberships

export type MembershipWithUser = ClassMember & { user: User };
export type MembershipWithClass = ClassMember & { class: Class };

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
  });
}

async function deleteMemberships(ctx: Context, { classes, users }: MembershipChange): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
    await tx.classMember.deleteMany({ where: { classId: { in: classes.map((c) => c.id) }, userId: { in: users.map((u) => u.id) } } });
    for (const cls of classes) await audit(ctx, tx, 'class.members.remove', cls.id);
  });
}

export async function addMembers(ctx: Context, raw: Record<string, unknown>): Promise<MembershipChange> {
  const input = parseInput(s.addMembers, raw);
  const change = { classes: [await findClass(ctx, input.class, 'class:members:update')], users: await findUsers(ctx, input.users, 'users') };
  await writeMemberships(ctx, change, input.expires, input.notify);
  return change;
}

export async function removeMembers(ctx: Context, raw: Record<string, unknown>): Promise<MembershipChange> {
  const input = parseInput(s.removeMembers, raw);
  const change = { classes: [await findClass(ctx, input.class, 'class:members:update')], users: await findUsers(ctx, input.users, 'users') };
  await deleteMemberships(ctx, change);
  return change;
}

export async function addManyMembers(ctx: Context, raw: Record<string, unknown>): Promise<MembershipChange> {
  const input = parseInput(s.addManyMembers, raw);
  const change = { classes: await findClasses(ctx, input.classes, 'classes', 'class:members:update'), users: await findUsers(ctx, input.users, 'users') };
  await writeMemberships(ctx, change, input.expires, input.notify);
  return change;
}

/** The user's memberships the viewer may see, by class title. */
export async function listUserClasses(ctx: Context, raw: Record<string, unknown>): Promise<{ user: User; memberships: MembershipWithClass[] }> {
  const user = await findUser(ctx, parseInput(s.userRef, raw).user);
  const memberships = await ctx.db.classMember.findMany({
    where: { AND: [{ userId: user.id }, await userMembershipsWhere(ctx)] },
    include: { class: true },
    orderBy: [{ class: { title: 'asc' } }, { classId: 'asc' }],
  });
  return { user, memberships };
}

/** Changing a user's classes needs both: managing the user and managing each class. */
async function managedUserAndClasses(ctx: Context, userCode: string, classCodes: string[]): Promise<MembershipChange> {
  const user = await findUser(ctx, userCode);
  assertAllowed(userPolicy.manage(ctx.viewer, user), 'You do not manage this user');
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

// ---------------------------------------------------------------------------------------------
// Assignments

export type AssignmentWithStatus = ClassAssignment & { status: AssignmentStatus };

/** A class's assignments by start, each with its status for the caller. */
export async function listAssignments(ctx: Context, raw: Record<string, unknown>): Promise<{ class: Class; assignments: AssignmentWithStatus[] }> {
  const cls = await findClass(ctx, parseInput(s.classRef, raw).class, 'read');
  const rows = await ctx.db.classAssignment.findMany({
    where: { classId: cls.id },
    include: { submissions: { where: { userId: ctx.viewer.user.id } } },
    orderBy: [{ starts: 'asc' }, { id: 'asc' }],
  });
  const now = new Date();
  return { class: cls, assignments: rows.map(({ submissions, ...a }) => ({ ...a, status: assignmentStatus(a, submissions[0], now) })) };
}

export async function getAssignment(ctx: Context, raw: Record<string, unknown>): Promise<ClassAssignment> {
  return findAssignment(ctx, parseInput(s.assignmentRef, raw).assignment, 'read');
}

export async function createAssignment(ctx: Context, raw: Record<string, unknown>): Promise<ClassAssignment> {
  const { class: code, ...input } = parseInput(s.createAssignment, raw);
  assertOrder(input.starts, input.ends, 'ends', 'must be after starts');
  const cls = await findClass(ctx, code, 'class:assignments:update');
  return ctx.db.$transaction(async (tx) => {
    const created = await tx.classAssignment.create({ data: { id: newId('ClassAssignment'), classId: cls.id, ...input } });
    await audit(ctx, tx, 'class.assignment.create', created.id);
    return created;
  });
}

export async function updateAssignment(ctx: Context, raw: Record<string, unknown>): Promise<ClassAssignment> {
  const { assignment: code, ...fields } = parseInput(s.updateAssignment, raw);
  const current = await findAssignment(ctx, code, 'class:assignments:update');
  const changesEnd = fields.ends !== undefined;
  assertOrder(fields.starts ?? current.starts, fields.ends ?? current.ends, changesEnd ? 'ends' : 'starts', changesEnd ? 'must be after starts' : 'must be before ends');
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.classAssignment.update({ where: { id: current.id }, data: fields });
    await audit(ctx, tx, 'class.assignment.update', current.id);
    return updated;
  });
}

export async function deleteAssignment(ctx: Context, raw: Record<string, unknown>): Promise<ClassAssignment> {
  const current = await findAssignment(ctx, parseInput(s.assignmentRef, raw).assignment, 'class:assignments:update');
  await ctx.db.$transaction(async (tx) => {
    await tx.classAssignment.delete({ where: { id: current.id } });
    await audit(ctx, tx, 'class.assignment.delete', current.id);
  });
  return current;
}

// ---------------------------------------------------------------------------------------------
// Submissions: STARTED (work begun; stands for "files uploaded"), SUBMITTED, GRADED

/** The caller's own work on an open assignment of a class it is an active member of. */
async function ownWork(ctx: Context, raw: Record<string, unknown>): Promise<{ assignment: ClassAssignment; existing: AssignmentSubmission | null }> {
  const assignment = await findAssignment(ctx, parseInput(s.assignmentRef, raw).assignment, 'read');
  const me = ctx.viewer.user.id;
  const member = await ctx.db.classMember.count({ where: { classId: assignment.classId, userId: me, ...activeMembershipWhere() } });
  assertAllowed(member === 1, 'Only active members of the class work on its assignments');
  if (!isOpen(assignment)) throw new ArgumentError('assignment', 'accepts no work now: it is inactive, not started yet or over', 'ASSIGNMENT_INACTIVE');
  const existing = await ctx.db.assignmentSubmission.findUnique({ where: { assignmentId_userId: { assignmentId: assignment.id, userId: me } } });
  if (existing && existing.status !== 'STARTED') throw new ArgumentError('assignment', 'was already submitted', 'ALREADY_SUBMITTED');
  return { assignment, existing };
}

async function saveOwnWork(ctx: Context, assignment: ClassAssignment, status: 'STARTED' | 'SUBMITTED'): Promise<AssignmentSubmission> {
  const key = { assignmentId: assignment.id, userId: ctx.viewer.user.id };
  const data = status === 'SUBMITTED' ? { status, submittedAt: new Date() } : { status };
  return ctx.db.$transaction(async (tx) => {
    const saved = await tx.assignmentSubmission.upsert({ where: { assignmentId_userId: key }, create: { ...key, ...data }, update: data });
    await audit(ctx, tx, status === 'SUBMITTED' ? 'class.assignment.submit' : 'class.assignment.start', assignment.id);
    return saved;
  });
}

/** Begins work on an assignment (STARTED); starting again changes nothing. */
export async function startSubmission(ctx: Context, raw: Record<string, unknown>): Promise<AssignmentSubmission> {
  const { assignment, existing } = await ownWork(ctx, raw);
  return existing ?? saveOwnWork(ctx, assignment, 'STARTED');
}

/** Hands the work in (SUBMITTED), started or not; once submitted it cannot be submitted again. */
export async function submitAssignment(ctx: Context, raw: Record<string, unknown>): Promise<AssignmentSubmission> {
  const { assignment } = await ownWork(ctx, raw);
  return saveOwnWork(ctx, assignment, 'SUBMITTED');
}

/** Grades a member's submitted work (GRADED); a graded submission may be graded again. */
export async function gradeSubmission(ctx: Context, raw: Record<string, unknown>): Promise<AssignmentSubmission> {
  const input = parseInput(s.gradeSubmission, raw);
  const assignment = await findAssignment(ctx, input.assignment, 'class:submissions:grade');
  const [user] = await findUsers(ctx, [input.user], 'user');
  const key = { assignmentId: assignment.id, userId: user!.id };
  const existing = await ctx.db.assignmentSubmission.findUnique({ where: { assignmentId_userId: key } });
  if (!existing || existing.status === 'STARTED') throw new ArgumentError('user', 'has not submitted this assignment', 'NOT_SUBMITTED');
  return ctx.db.$transaction(async (tx) => {
    const graded = await tx.assignmentSubmission.update({
      where: { assignmentId_userId: key },
      data: { status: 'GRADED', grade: input.grade, gradedAt: new Date() },
    });
    await audit(ctx, tx, 'class.assignment.grade', assignment.id);
    return graded;
  });
}
