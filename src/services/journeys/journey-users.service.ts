/**
 * Reading a user's place in a journey: the journey user-state record (REST `exam:journey:user`,
 * GraphQL `Exam.journeyUser`). The user reads their own; educators need report on the exam.
 */
import { z } from 'zod';
import type { Context } from '../../context.ts';
import type { Exam, Journey } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { userPolicy } from '../../auth/policy.ts';
import { findExam } from '../exams/access.ts';
import { assertMayList } from '../plays/results.service.ts';
import { code, parseInput } from '../validation.ts';
import { contract } from '../contract-meta.ts';
import { stepsCompleted, stepsRemaining, stepsTotal } from './engine.ts';
import type { JourneyGraph } from './format.ts';
import { renderJourneyNodes } from './graph-validation.ts';
import { draftOf, publishedOf } from './graph.service.ts';
import { stateOf, visitOf } from './runtime.ts';

const startingExam = contract(code(), { description: 'the exam the journey starts from' });

export const journeyUserInput = z.object({ exam: startingExam, user: code() });

const noJourney = () => new ArgumentError('exam', 'the exam starts no journey', 'NO_JOURNEY');

type StoredJourney = Pick<Journey, 'settings' | 'nodes' | 'published'>;

/** The graph users move along: the published version, else the draft. */
const currentGraph = (journey: StoredJourney): JourneyGraph => publishedOf(journey) ?? draftOf(journey);

/** The journey's title: the published version's, else the draft's. */
const titleOf = (journey: StoredJourney): string | null => currentGraph(journey).settings?.title ?? draftOf(journey).settings.title ?? null;

/** A user the caller may read, or an examinee of the exam (whom a report holder sees in its lists). */
async function knownUser(ctx: Context, examId: string, userId: string): Promise<boolean> {
  const where = { AND: [{ id: userId }, { OR: [userPolicy.readWhere(ctx.viewer), { examEntries: { some: { examId } } }] }] };
  return (await ctx.db.user.count({ where })) > 0;
}

/**
 * GET exam:journey:user (and GraphQL `Exam.journeyUser`), with dates as Date: the REST face writes
 * them in the contract's format. An exam the caller may not see, or one starting no journey: NOT_FOUND.
 */
export async function getJourneyUser(ctx: Context, raw: Record<string, unknown>) {
  const input = parseInput(journeyUserInput, raw);
  const exam = await ctx.db.exam.findFirst({ where: { id: input.exam, archived: false }, include: { journey: true } });
  // The user reads their own; others need report on the exam, as for its results.
  await assertMayList(ctx, 'exam', exam, input.exam, input.user);
  const { journey } = exam!;
  if (!journey) throw noJourney();
  const graph = currentGraph(journey);
  const base = { exam: exam!.id, journey: titleOf(journey), user: input.user };
  const row = await ctx.db.journeyUser.findUnique({ where: { journeyId_userId: { journeyId: journey.id, userId: input.user } } });
  if (!row) {
    // "null when the user has not entered yet" is about a user: an id of no user (or of one the
    // caller can neither read nor find among the exam's examinees) is unknown.
    if (!(await knownUser(ctx, exam!.id, input.user))) throw new ArgumentError('user', `no user with identification string '${input.user}'`, 'NOT_FOUND');
    return { ...base, status: null };
  }
  const [visitRows, eventRows] = await Promise.all([
    ctx.db.journeyVisit.findMany({ where: { journeyId: journey.id, userId: input.user }, orderBy: [{ run: 'asc' }, { visit: 'asc' }] }),
    ctx.db.journeyEvent.findMany({ where: { journeyId: journey.id, userId: input.user }, orderBy: [{ time: 'asc' }, { id: 'asc' }] }),
  ]);
  const state = stateOf(row);
  const nodes = new Map((await renderJourneyNodes(ctx, exam!, graph.nodes)).map((n) => [n.node, n]));
  const visits = visitRows.map(visitOf);
  const current = visits.filter((v) => v.run === state.run);
  const open = current.at(-1);
  const node = state.node ? nodes.get(state.node) : undefined;
  const running = state.status === 'active' || state.status === 'waiting' || state.status === 'error';
  const step = running && node
    ? { ...node, time_start: open?.node === node.node ? open.timeStart : row.updatedAt }
    : null;
  return {
    ...base,
    status: state.status,
    ...(state.status === 'completed' || state.status === 'stopped' ? { outcome: state.outcome } : {}),
    ...(state.status === 'error' ? { error: state.error } : {}),
    run: state.run,
    step,
    ...(state.status === 'waiting' && state.waitUntil ? { wait_until: state.waitUntil } : {}),
    time_start: state.timeStart,
    time_end: state.timeEnd,
    steps_completed: stepsCompleted(current),
    steps_total: stepsTotal(graph),
    steps_remaining: stepsRemaining(graph, state),
    ...(Object.keys(state.flags).length ? { flags: state.flags } : {}),
    history: visits.map((v) => {
      const n = nodes.get(v.node);
      return {
        run: v.run,
        visit: v.visit,
        step: v.node,
        ...(n ? { marker: n.marker } : {}),
        type: v.type,
        ...(n?.title ? { title: n.title } : {}),
        ...(n?.content ? { content: n.content } : {}),
        outcome: v.output,
        status: v.status,
        time_start: v.timeStart,
        time_end: v.timeEnd,
        ...(v.timeEnd ? { time_spent: Math.round((v.timeEnd.getTime() - v.timeStart.getTime()) / 60_000) } : {}),
        ...(v.result !== null ? { result: v.result } : {}),
        ...(v.successful !== null ? { successful: v.successful } : {}),
        ...(v.grade !== null ? { grade: v.grade } : {}),
        ...(v.play ? { play: v.play } : {}),
        ...(v.skills ? { skills: v.skills } : {}),
        decisions: v.decisions,
      };
    }),
    events: eventRows.map((e) => ({
      run: e.run,
      type: e.type,
      source: e.source,
      from: { step: e.fromNode, status: e.fromStatus },
      to: { step: e.toNode, status: e.toStatus },
      operator: e.operatorId,
      time: e.time,
    })),
  };
}

export const journeySummaryInput = z.object({ exam: startingExam });

export interface JourneySummary {
  exam: string;
  journey: string;
  title: string | null;
  active: boolean;
  version: number;
  published: Date | null;
  users: Record<'total' | 'active' | 'waiting' | 'error' | 'completed' | 'stopped', number>;
  nodes: Array<{ node: string; type: string; label: string | null; users: number; active: number; waiting: number; error: number }>;
}

/**
 * The journey's summary (GET exam:journey, GraphQL dashboard): users per status and, for the
 * published version's nodes, users standing on each. Two grouped counts whatever the number of users.
 */
export async function journeySummary(ctx: Pick<Context, 'db'>, journey: Pick<Journey, 'id' | 'examId' | 'enabled' | 'version' | 'publishedAt' | 'published' | 'settings' | 'nodes'>): Promise<JourneySummary> {
  const [byStatus, byNode] = await Promise.all([
    ctx.db.journeyUser.groupBy({ by: ['status'], where: { journeyId: journey.id }, _count: { _all: true } }),
    ctx.db.journeyUser.groupBy({ by: ['node', 'status'], where: { journeyId: journey.id, status: { in: ['active', 'waiting', 'error'] } }, _count: { _all: true } }),
  ]);
  const users = { total: 0, active: 0, waiting: 0, error: 0, completed: 0, stopped: 0 };
  for (const g of byStatus) {
    users.total += g._count._all;
    if (g.status in users) users[g.status as keyof typeof users] += g._count._all;
  }
  const nodes = currentGraph(journey).nodes.map((n) => {
    const here = byNode.filter((g) => g.node === n.node);
    const count = (status: string) => here.filter((g) => g.status === status).reduce((s, g) => s + g._count._all, 0);
    const [active, waiting, error] = [count('active'), count('waiting'), count('error')];
    return { node: n.node, type: n.type, label: n.label ?? null, users: active + waiting + error, active, waiting, error };
  });
  return { exam: journey.examId, journey: journey.id, title: titleOf(journey), active: journey.enabled, version: journey.version, published: journey.publishedAt, users, nodes };
}

/** GET exam:journey: view on the starting exam and report on its results (the counts are about its users). */
export async function getJourneySummary(ctx: Context, raw: Record<string, unknown>): Promise<JourneySummary> {
  const input = parseInput(journeySummaryInput, raw);
  const exam = (await findExam(ctx, input.exam, 'exam:results:read', 'exam', { include: { journey: true } })) as Exam & { journey: Journey | null };
  if (!exam.journey) throw noJourney();
  return journeySummary(ctx, exam.journey);
}
