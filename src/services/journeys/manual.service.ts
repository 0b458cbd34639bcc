/**
 * Manual changes by an educator (control on the starting exam): move a user to a node, stop,
 * resume, or restart their journey. Each is recorded as a change event of source `operator`.
 */
import { z } from 'zod';
import { canEach, denied } from '../../auth/policy.ts';
import type { Context } from '../../context.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { clock } from '../exams/clock.ts';
import { unknownContent } from '../content/records.ts';
import { code, oneOf, parseInput, text } from '../validation.ts';
import { move, restart, resume, stop, type EngineResult, type EngineInput } from './engine.ts';
import { manualChangeTypes, type ManualChangeType } from './format.ts';
import { applyToUsers, journeyInclude, loaded } from './runtime.ts';

export const manualChangeInput = z.object({
  exam: code(),
  user: code(),
  type: oneOf(manualChangeTypes as unknown as [ManualChangeType, ...ManualChangeType[]]),
  to: text(1, 32).optional(),
});

/** Which statuses each change applies to. */
const appliesTo: Record<ManualChangeType, readonly string[]> = {
  move: ['active', 'waiting', 'error', 'stopped', 'completed'],
  stop: ['active', 'waiting', 'error'],
  resume: ['stopped', 'error'],
  restart: ['active', 'waiting', 'error', 'stopped', 'completed'],
};

export async function changeJourneyUser(ctx: Context, raw: Record<string, unknown>): Promise<{ exam: string; user: string }> {
  const input = parseInput(manualChangeInput, raw);
  const exam = await ctx.db.exam.findFirst({ where: { id: input.exam, archived: false }, include: { journey: { include: journeyInclude } } });
  if (!exam) throw unknownContent('exam', input.exam);
  const [view, control] = await canEach(ctx, [['exam:read', exam], ['exam:users:journeys:update', exam]]);
  if (!view) throw unknownContent('exam', input.exam);
  await ctx.settings.require('journeys', ctx.viewer.user);
  if (!control) throw denied('exam:users:journeys:update');
  if (!exam.journey) throw new ArgumentError('exam', 'the exam starts no journey', 'NO_JOURNEY');
  const journey = loaded(exam.journey);
  if (!journey) throw new ArgumentError('exam', 'the journey has not been published yet: nobody is in it', 'NOT_PUBLISHED');
  if (input.type === 'move') {
    if (!input.to) throw new ArgumentError('to', 'is required', 'MISSING_ARGUMENT');
    if (!journey.graph.nodes.some((n) => n.node === input.to)) throw new ArgumentError('to', `'${input.to}' is not a node of the published journey`);
  } else if (input.to !== undefined) throw new ArgumentError('to', `applies only to a move`, 'ARGUMENT_CONFLICT');
  const now = clock.now();
  await ctx.db.$transaction(async (tx) => {
    // Read under its lock: a timer run (SKIP LOCKED) leaves the user to this change.
    const [user] = await tx.$queryRaw<Array<Prisma.JourneyUserGetPayload<object>>>`SELECT * FROM "JourneyUser" WHERE "journeyId" = ${journey.id} AND "userId" = ${input.user} FOR UPDATE`;
    if (!user) throw new ArgumentError('user', `user '${input.user}' has not entered the journey`, 'NOT_FOUND');
    if (!appliesTo[input.type].includes(user.status)) {
      throw new ArgumentError('type', `a ${input.type} does not apply to a user whose journey is ${user.status}`, 'JOURNEY_CHANGE_REFUSED');
    }
    const operation = (e: EngineInput): EngineResult =>
      input.type === 'move' ? move(e, input.to!) : input.type === 'stop' ? stop(e) : input.type === 'resume' ? resume(e) : restart(e);
    const [applied] = await applyToUsers(tx, journey, [{ userId: user.userId, row: user }], operation, now);
    const after = applied?.result.state;
    await tx.journeyEvent.create({
      data: {
        id: newId('JourneyEvent'), journeyId: journey.id, userId: user.userId, run: after?.run ?? user.run, type: input.type, source: 'operator',
        fromNode: user.node, fromStatus: user.status, toNode: after?.node ?? user.node, toStatus: after?.status ?? user.status, operatorId: ctx.viewer.user.id, time: now,
      },
    });
  });
  return { exam: exam.id, user: input.user };
}
