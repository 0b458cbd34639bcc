import type { Context } from '../../context.ts';
import type { AssignmentSubmission, ClassAssignment } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { assertMay } from '../../auth/policy.ts';
import { audit } from '../audit/audit.service.ts';
import { findUsers } from '../users/access.ts';
import { asRelation, type Selection } from '../selection.ts';
import { parseInput } from '../validation.ts';
import * as s from './classes.schemas.ts';
import { findAssignment, visibleSubmissionsWhere, type AssignmentSelection } from './access.ts';
import { isOpen } from './assignments.service.ts';
import { onClassProgress } from '../journeys/runtime.ts';

/** Submissions: STARTED (work begun; stands for "files uploaded"), SUBMITTED, GRADED. */

type SubmissionSelection = Selection<'AssignmentSubmission'>;

/** Submissions the viewer sees, oldest first, as a relation loaded with the assignment (GraphQL). */
export async function visibleSubmissionsQuery(ctx: Context) {
  return { where: await visibleSubmissionsWhere(ctx), orderBy: [{ createdAt: 'asc' as const }, { userId: 'asc' as const }] };
}

/** The caller's own work on an open assignment of a class it is an active member of. */
async function ownWork(ctx: Context, raw: Record<string, unknown>, query: AssignmentSelection): Promise<{ assignment: ClassAssignment; existing: AssignmentSubmission | null }> {
  const assignment = await findAssignment(ctx, parseInput(s.assignmentRef, raw).assignment, 'read', query);
  const me = ctx.viewer.user.id;
  const membership = await ctx.db.classMember.findUnique({ where: { classId_userId: { classId: assignment.classId, userId: me } } });
  assertMay(ctx.viewer.user, 'class:assignments:work', membership);
  if (!isOpen(assignment)) throw new ArgumentError('assignment', 'accepts no work now: it is inactive, not started yet or over', 'ASSIGNMENT_INACTIVE');
  const existing = await ctx.db.assignmentSubmission.findUnique({ where: { assignmentId_userId: { assignmentId: assignment.id, userId: me } } });
  if (existing && existing.status !== 'STARTED') throw new ArgumentError('assignment', 'was already submitted', 'ALREADY_SUBMITTED');
  return { assignment, existing };
}

/** Saves the caller's work; answers the assignment as it is afterwards, with what `query` selects. */
async function saveOwnWork(ctx: Context, assignment: ClassAssignment, status: 'STARTED' | 'SUBMITTED', query: AssignmentSelection): Promise<ClassAssignment> {
  const key = { assignmentId: assignment.id, userId: ctx.viewer.user.id };
  const data = status === 'SUBMITTED' ? { status, submittedAt: new Date() } : { status };
  return ctx.db.$transaction(async (tx) => {
    const saved = await tx.assignmentSubmission.upsert({
      where: { assignmentId_userId: key },
      create: { ...key, ...data },
      update: data,
      include: { assignment: asRelation(query) },
    });
    await audit(ctx, tx, status === 'SUBMITTED' ? 'class.assignment.submit' : 'class.assignment.start', assignment.id);
    if (status === 'SUBMITTED') await onClassProgress(tx, [assignment.classId], [key.userId]);
    return saved.assignment;
  });
}

/** Begins work on an assignment (STARTED); starting again changes nothing. Answers the assignment. */
export async function startSubmission(ctx: Context, raw: Record<string, unknown>, query: AssignmentSelection = {}): Promise<ClassAssignment> {
  const { assignment, existing } = await ownWork(ctx, raw, query);
  return existing ? assignment : saveOwnWork(ctx, assignment, 'STARTED', query);
}

/** Hands the work in (SUBMITTED), started or not; once submitted it cannot be submitted again. Answers the assignment. */
export async function submitAssignment(ctx: Context, raw: Record<string, unknown>, query: AssignmentSelection = {}): Promise<ClassAssignment> {
  const { assignment } = await ownWork(ctx, raw, {});
  return saveOwnWork(ctx, assignment, 'SUBMITTED', query);
}

/** Grades a member's submitted work (GRADED); a graded submission may be graded again. */
export async function gradeSubmission(ctx: Context, raw: Record<string, unknown>, query: SubmissionSelection = {}): Promise<AssignmentSubmission> {
  const input = parseInput(s.gradeSubmission, raw);
  const assignment = await findAssignment(ctx, input.assignment, 'class:submissions:grade');
  // The grader sees the class's members; any other user is unknown.
  const [user] = await findUsers(ctx, [input.user], 'user', { classMemberships: { some: { classId: assignment.classId } } });
  const key = { assignmentId: assignment.id, userId: user!.id };
  const existing = await ctx.db.assignmentSubmission.findUnique({ where: { assignmentId_userId: key } });
  if (!existing || existing.status === 'STARTED') throw new ArgumentError('user', 'has not submitted this assignment', 'NOT_SUBMITTED');
  return ctx.db.$transaction(async (tx) => {
    const graded = await tx.assignmentSubmission.update({
      ...query,
      where: { assignmentId_userId: key },
      data: { status: 'GRADED', grade: input.grade, gradedAt: new Date() },
    });
    await audit(ctx, tx, 'class.assignment.grade', assignment.id);
    await onClassProgress(tx, [assignment.classId], [key.userId]);
    return graded;
  });
}

