import type { Context } from '../../context.ts';
import type { Exam, Prisma, User } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { assertCan, userPolicy } from '../../auth/policy.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import type { Window } from '../selection.ts';
import { restoreArchivedResults } from '../plays/results.service.ts';
import { findExam } from './access.ts';
import { unknownContent } from '../content/records.ts';
import * as s from './exams.schemas.ts';

/**
 * Examinees. Adding and removing takes users the caller may read (a user it may not read is
 * unknown to it: NOT_FOUND, as for an id of nothing). Removing an examinee keeps its results;
 * adding one again restores its archived result (the results domain owns that part).
 */

/** The examinees of an exam the viewer may see, by name: the contract list, or a GraphQL connection's window. */
export async function examineesOf(ctx: Context, examId: string, window: Window<'User'> = {}): Promise<User[]> {
  return ctx.db.user.findMany({
    ...window,
    where: { examEntries: { some: { examId } } },
    orderBy: [{ fullName: 'asc' }, { id: 'asc' }],
  });
}

export async function listExamUsers(ctx: Context, raw: Record<string, unknown>): Promise<{ exam: Exam; users: User[] }> {
  const exam = await findExam(ctx, parseInput(s.examRef, raw).exam, 'exam:users:read');
  return { exam, users: await examineesOf(ctx, exam.id) };
}

/**
 * The exam `code` once the viewer may read its examinees and `user` is one of them (what a login
 * link into the exam needs). An exam the viewer may not see is unknown; a user not on it is
 * NOT_FOUND naming `exam`.
 */
export async function examOfExaminee(ctx: Context, code: string, user: Pick<User, 'id'>): Promise<Exam> {
  const exam = await findExam(ctx, code, 'exam:users:read');
  const entry = await ctx.db.examUser.findUnique({ where: { examId_userId: { examId: exam.id, userId: user.id } } });
  if (!entry) throw new ArgumentError('exam', `the user is not on exam '${code}'`, 'NOT_FOUND');
  return exam;
}

/** The address an examinee lands on from a login link into an exam: the exam's page. */
export const examPagePath = (examId: string) => `/exam/${encodeURIComponent(examId)}`;

/** Users named by identification strings that the viewer may read, without repeats. */
async function readableUsers(ctx: Context, codes: string[]): Promise<User[]> {
  const ids = [...new Set(codes.map((c) => (c === 'me' ? ctx.viewer.user.id : c)))];
  const where: Prisma.UserWhereInput = { AND: [{ id: { in: ids } }, userPolicy.readWhere(ctx.viewer)] };
  const found = new Map((await ctx.db.user.findMany({ where })).map((u) => [u.id, u]));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw new ArgumentError('users', `no user with identification string '${missing}'`, 'NOT_FOUND');
  return ids.map((id) => found.get(id)!);
}

export interface ExamineesChange {
  exam: Exam;
  /** How many were added or removed (those already on, or not on, the exam do not count). */
  changed: number;
}

export async function addExamUsers(ctx: Context, raw: Record<string, unknown>): Promise<ExamineesChange> {
  const input = parseInput(s.examUsers, raw);
  const exam = await findExam(ctx, input.exam, 'exam:users:update');
  const users = await readableUsers(ctx, input.users);
  const changed = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.examUser.createMany({ data: users.map((u) => ({ examId: exam.id, userId: u.id })), skipDuplicates: true });
    // Adding an examinee again restores its archived result (States and transitions).
    await restoreArchivedResults(tx, exam, users.map((u) => u.id));
    await audit(ctx, tx, 'exam.users.add', exam.id);
    return count;
  });
  return { exam, changed };
}

export async function removeExamUsers(ctx: Context, raw: Record<string, unknown>): Promise<ExamineesChange> {
  const input = parseInput(s.examUsers, raw);
  const exam = await findExam(ctx, input.exam, 'exam:users:update');
  const users = await readableUsers(ctx, input.users);
  const changed = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.examUser.deleteMany({ where: { examId: exam.id, userId: { in: users.map((u) => u.id) } } });
    await audit(ctx, tx, 'exam.users.remove', exam.id);
    return count;
  });
  return { exam, changed };
}

/** The examinees of an exam at hand (a GraphQL parent), for a viewer with report permission on it. */
export async function examineesFor(ctx: Context, exam: Exam, window: Window<'User'> = {}): Promise<User[]> {
  await assertCan(ctx, 'exam:users:read', exam, unknownContent('exam', exam.id));
  return examineesOf(ctx, exam.id, window);
}
