/**
 * Publishing a journey's draft (POST `exam:journey:publish`): the draft becomes the next version
 * users move along. Users on nodes the new version no longer has are moved to the node the remap
 * names, or stopped (empty text); each gets a change event of source `publish`.
 */
import { z } from 'zod';
import type { Context } from '../../context.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { clock } from '../exams/clock.ts';
import { code, json, parseInput } from '../validation.ts';
import { contract } from '../contract-meta.ts';
import { move, stop } from './engine.ts';
import { hasErrors, validateJourneyGraph, type Issue } from './graph-validation.ts';
import { draftOf, examJourney, hasUnpublishedChanges, publishedOf } from './graph.service.ts';
import { applyToUsers, journeyInclude, loaded } from './runtime.ts';

export const publishInput = z.object({
  exam: code(),
  remap: contract(
    json()
      .optional()
      .pipe(z.record(z.string(), z.string({ error: 'must map each removed node key to a node key or empty text' }), { error: 'must be a hash (or JSON text of one)' }).optional()),
    { type: ['hash', 'json'], description: "keyed by removed node key; value is an existing draft node key, or empty text to stop those users' journeys" },
  ),
});

/** Statuses of users still on their way (a node of theirs matters to a new version). */
const RUNNING = ['active', 'waiting', 'error'];

export interface PublishResult {
  exam: string;
  journey: string;
  active: boolean;
  version: number;
  published: Date;
  unchanged?: true;
  remapped?: Record<string, string | null>;
  issues?: Issue[];
  warning?: string;
}

const WARNING_DISABLED = 'The journey is disabled: users do not enter it until it is enabled in the exam settings';

export async function publishJourney(ctx: Context, raw: Record<string, unknown>): Promise<PublishResult> {
  const input = parseInput(publishInput, raw);
  const { exam, journey } = await examJourney(ctx, input.exam, 'exam:journey:update');
  const draft = draftOf(journey);
  const { issues } = await validateJourneyGraph(ctx, exam, draft);
  if (hasErrors(issues)) {
    const listed = issues.filter((i) => i.level === 'error').map((i) => (i.node ? `${i.node}: ${i.message}` : i.message));
    throw new ArgumentError('exam', `the draft has errors and cannot be published (${listed.join('; ')})`, 'JOURNEY_NOT_PUBLISHABLE');
  }
  const base = (j: { id: string; enabled: boolean; version: number; publishedAt: Date | null }) => ({
    exam: exam.id, journey: j.id, active: j.enabled, version: j.version, published: j.publishedAt!,
  });
  const warning = journey.enabled ? {} : { warning: WARNING_DISABLED };
  const previous = publishedOf(journey);
  if (previous && journey.version > 0 && !hasUnpublishedChanges(journey)) return { ...base(journey), unchanged: true, ...warning };

  const draftKeys = new Set(draft.nodes.map((n) => n.node));
  const removed = (previous?.nodes ?? []).map((n) => n.node).filter((k) => !draftKeys.has(k));
  const remap = input.remap ?? {};
  for (const [from, to] of Object.entries(remap)) {
    if (to !== '' && !draftKeys.has(to)) throw new ArgumentError(`remap.${from}`, `'${to}' is not a node of the draft`);
  }
  const now = clock.now();
  return ctx.db.$transaction(async (tx) => {
    // One publish at a time per journey; the users on removed nodes are read under that lock.
    await tx.$queryRaw`SELECT id FROM "Journey" WHERE id = ${journey.id} FOR UPDATE`;
    // Locked: a timer run skips them until this publish has moved them.
    const occupied = removed.length
      ? await tx.$queryRawUnsafe<Array<Prisma.JourneyUserGetPayload<object>>>(
        `SELECT * FROM "JourneyUser" WHERE "journeyId" = $1 AND "node" = ANY($2::text[]) AND "status" = ANY($3::text[]) ORDER BY "userId" FOR UPDATE`,
        journey.id, removed, RUNNING,
      )
      : [];
    const occupiedNodes = [...new Set(occupied.map((u) => u.node!))].sort();
    const lacking = occupiedNodes.filter((k) => !(k in remap));
    if (lacking.length) {
      throw new ArgumentError('remap', `users are on removed nodes without a remap entry: ${lacking.join(', ')}`, 'JOURNEY_REMAP_MISSING');
    }
    const updated = await tx.journey.update({
      where: { id: journey.id },
      data: { version: { increment: 1 }, published: draft as object, publishedAt: now },
      include: journeyInclude,
    });
    const remapped: Record<string, string | null> = {};
    if (occupied.length) {
      const next = loaded(updated)!;
      const applied = await applyToUsers(tx, next, occupied.map((row) => ({ userId: row.userId, row })), (engineInput, row) => {
        const to = remap[row!.node!]!;
        return to === '' ? stop(engineInput) : move(engineInput, to);
      }, now);
      for (const row of occupied) remapped[row.node!] = remap[row.node!] || null;
      const after = new Map(applied.map((a) => [a.userId, a.result.state]));
      await tx.journeyEvent.createMany({
        data: occupied.map((row) => ({
          id: newId('JourneyEvent'), journeyId: journey.id, userId: row.userId, run: row.run,
          type: remap[row.node!] === '' ? 'stop' : 'move', source: 'publish',
          fromNode: row.node, fromStatus: row.status, toNode: after.get(row.userId)?.node ?? null, toStatus: after.get(row.userId)?.status ?? null,
          operatorId: ctx.viewer.user.id, time: now,
        })),
      });
    }
    return {
      ...base(updated),
      ...(occupied.length ? { remapped } : {}),
      issues,
      ...warning,
    };
  });
}
