import type { Context } from '../../context.ts';
import type { AssignmentSubmission, Class, ClassAssignment, Prisma } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import * as s from './classes.schemas.ts';
import { findAssignment, findClass, type AssignmentSelection } from './access.ts';
import { assertDateOrder, classLink } from './classes.service.ts';

/** Assignments of a class: whoever sees the class sees them; changing them needs modify on it. */

export type AssignmentStatus = 'INACTIVE' | 'ACTIVE' | 'STARTED' | 'SUBMITTED' | 'GRADED';
export const assignmentStatuses = ['INACTIVE', 'ACTIVE', 'STARTED', 'SUBMITTED', 'GRADED'] as const satisfies readonly AssignmentStatus[];

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

export const assignmentLink = (ctx: Context, a: Pick<ClassAssignment, 'id' | 'classId'>) =>
  `${classLink(ctx, a.classId)}/assignments/${a.id}`;

export type AssignmentWithStatus = ClassAssignment & { status: AssignmentStatus };

const byStart: Prisma.ClassAssignmentOrderByWithRelationInput[] = [{ starts: 'asc' }, { id: 'asc' }];

/** A class's assignments by start, as a relation loaded with the class (GraphQL). */
export const classAssignmentsQuery = { orderBy: byStart };

/**
 * The status of each assignment for the viewer, in their order, with one lookup of its own
 * submissions (GraphQL loads it apart from the assignments' other submissions, which it filters
 * by another rule).
 */
export async function statusesFor(ctx: Context, assignments: readonly ClassAssignment[]): Promise<AssignmentStatus[]> {
  const own = await ctx.db.assignmentSubmission.findMany({
    where: { userId: ctx.viewer.user.id, assignmentId: { in: assignments.map((a) => a.id) } },
    select: { assignmentId: true, status: true },
  });
  const now = new Date();
  return assignments.map((a) => assignmentStatus(a, own.find((s) => s.assignmentId === a.id), now));
}

/** A class's assignments by start, each with its status for the caller. */
export async function listAssignments(ctx: Context, raw: Record<string, unknown>): Promise<{ class: Class; assignments: AssignmentWithStatus[] }> {
  const cls = await findClass(ctx, parseInput(s.classRef, raw).class, 'read');
  const rows = await ctx.db.classAssignment.findMany({
    where: { classId: cls.id },
    include: { submissions: { where: { userId: ctx.viewer.user.id } } },
    orderBy: byStart,
  });
  const now = new Date();
  return { class: cls, assignments: rows.map(({ submissions, ...a }) => ({ ...a, status: assignmentStatus(a, submissions[0], now) })) };
}

export async function getAssignment(ctx: Context, raw: Record<string, unknown>): Promise<ClassAssignment> {
  return findAssignment(ctx, parseInput(s.assignmentRef, raw).assignment, 'read');
}

export async function createAssignment(ctx: Context, raw: Record<string, unknown>, query: AssignmentSelection = {}): Promise<ClassAssignment> {
  const { class: code, ...input } = parseInput(s.createAssignment, raw);
  assertDateOrder(input.starts, input.ends, 'ends', 'must be after starts');
  const cls = await findClass(ctx, code, 'class:assignments:update');
  return ctx.db.$transaction(async (tx) => {
    const created = await tx.classAssignment.create({ ...query, data: { id: newId('ClassAssignment'), classId: cls.id, ...input } });
    await audit(ctx, tx, 'class.assignment.create', created.id);
    return created;
  });
}

export async function updateAssignment(ctx: Context, raw: Record<string, unknown>, query: AssignmentSelection = {}): Promise<ClassAssignment> {
  const { assignment: code, ...fields } = parseInput(s.updateAssignment, raw);
  const current = await findAssignment(ctx, code, 'class:assignments:update');
  const changesEnd = fields.ends !== undefined;
  assertDateOrder(fields.starts ?? current.starts, fields.ends ?? current.ends, changesEnd ? 'ends' : 'starts', changesEnd ? 'must be after starts' : 'must be before ends');
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.classAssignment.update({ ...query, where: { id: current.id }, data: fields });
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
