/**
 * The journey runtime: loads what the engine needs for a batch of users, runs the engine, and
 * writes what it decided in the caller's transaction, with a constant number of statements per
 * batch (not per user): user states and visits through one bulk insert and one bulk update each,
 * enrollments through one insert each, one timer job per distinct due time.
 */
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import { groupBy } from '../group-by.ts';
import { datetime } from '../../dates.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { SystemContext } from '../../jobs/system.ts';
import { defineTask } from '../../jobs/task.ts';
import { clock } from '../exams/clock.ts';
import { runSettingsOf } from '../exams/settings-status.ts';
import { pastDeadline } from '../exams/status.ts';
import { contactOf, enqueueMessage } from '../notifications/notifications.service.ts';
import { recordJourneyRequirements } from '../plays/competency-progress.ts';
import type { SkillPoints } from '../plays/scoring.ts';
import { skillPointsOfPlays } from '../plays/skill-points.ts';
import { enqueueEvent } from '../webhooks/events.ts';
import {
  advance, emptyState, restart, startCompleted,
  type EngineFacts, type EngineInput, type EngineResult, type ExamFact, type JourneyState, type PlayFact, type Visit,
} from './engine.ts';
import type { JourneyErrorCode, JourneyGraph, JourneyNode, JourneyUserStatus, NodeType, VisitStatus } from './format.ts';

type Tx = Prisma.TransactionClient;

export interface LoadedJourney {
  id: string;
  examId: string;
  enabled: boolean;
  version: number;
  graph: JourneyGraph;
  exam: { id: string; title: string; organizationId: string | null; ownerId: string };
}

type JourneyRow = Prisma.JourneyGetPayload<{ include: { exam: { select: { id: true; title: true; organizationId: true; ownerId: true } } } }>;

export function loaded(row: JourneyRow): LoadedJourney | null {
  if (!row.published || row.version === 0) return null;
  return { id: row.id, examId: row.examId, enabled: row.enabled, version: row.version, graph: row.published as unknown as JourneyGraph, exam: row.exam };
}

export const journeyInclude = { exam: { select: { id: true, title: true, organizationId: true, ownerId: true } } } as const;

type UserRow = Prisma.JourneyUserGetPayload<object>;
type VisitRow = Prisma.JourneyVisitGetPayload<object>;

export function stateOf(row: UserRow | null | undefined): JourneyState {
  if (!row) return emptyState;
  return {
    status: row.status as JourneyUserStatus, outcome: row.outcome, error: row.error as JourneyErrorCode | null, run: row.run, node: row.node,
    waitUntil: row.waitUntil, dueAt: row.dueAt, flags: (row.flags ?? {}) as Record<string, string>, marks: row.marks,
    timeStart: row.timeStart, timeEnd: row.timeEnd,
  };
}

export function visitOf(row: VisitRow): Visit {
  return {
    run: row.run, visit: row.visit, node: row.node, type: row.type as NodeType, status: row.status as VisitStatus, output: row.output,
    timeStart: row.timeStart, timeEnd: row.timeEnd, play: row.playId, result: row.result, successful: row.successful, grade: row.grade,
    skills: (row.skills ?? null) as Visit['skills'], decisions: (row.decisions ?? []) as unknown as Visit['decisions'],
  };
}

// ---------------------------------------------------------------------------------------------
// Facts

const percentOf = (p: { pointsTotal: number; pointsCorrect: number }) => (p.pointsTotal > 0 ? Math.round((p.pointsCorrect / p.pointsTotal) * 10_000) / 100 : null);

/**
 * When an exam lets plays start, for the engine: attempts are unlimited until the deadline (none
 * left after it); from the start of the results viewing period (REVIEW) it is locked; at its end
 * it closes. `changesAt` is the next of these moments still to come.
 */
function examWindow(exam: { deadline: Date | null; end: Date }, reviewFrom: Date | null, now: Date): Pick<ExamFact, 'attemptsLeft' | 'locked' | 'closed' | 'changesAt'> {
  const t = now.getTime();
  // No new play after the deadline, so the engine looks again just past it.
  const afterDeadline = exam.deadline && new Date(exam.deadline.getTime() + 1);
  const moments = [reviewFrom, afterDeadline, exam.end].filter((d): d is Date => d !== null && d.getTime() > t);
  return {
    attemptsLeft: pastDeadline(exam, now) ? 0 : null,
    locked: reviewFrom !== null && t >= reviewFrom.getTime(),
    closed: exam.end.getTime() <= t,
    changesAt: moments.length ? new Date(Math.min(...moments.map((d) => d.getTime()))) : null,
  };
}

/** A finished play's skills for the rules, keyed by identifier; absent when its questions have none. */
function skillFacts(points: Map<string, SkillPoints> | undefined): PlayFact['skills'] {
  if (!points?.size) return undefined;
  return Object.fromEntries([...points].map(([identifier, p]) => [
    identifier,
    // A skill without points to score counts 100%, as a play does.
    { points: p.points, percent: p.pointsMaximum > 0 ? Math.round((p.points / p.pointsMaximum) * 10_000) / 100 : 100 },
  ]));
}

/** The engine's facts for each of `userIds`, in a fixed number of queries. */
async function loadFacts(tx: Tx, journey: LoadedJourney, userIds: string[], now: Date): Promise<Map<string, EngineFacts>> {
  const nodes = journey.graph.nodes;
  const examIds = [...new Set([journey.examId, ...nodes.flatMap((n) => (n.type === 'exam' ? [n.config.exam] : []))])];
  const quizIds = [...new Set(nodes.flatMap((n) => (n.type === 'quiz' ? [n.config.quiz] : [])))];
  const classIds = [...new Set(nodes.flatMap((n) => (n.type === 'class' ? [n.config.class] : [])))];
  const [users, members, fieldValues, plays, exams, quizzes, classes, classMembers, submissions] = await Promise.all([
    tx.user.findMany({ where: { id: { in: userIds } }, select: { id: true, timezone: true, gender: true, customFields: true, generated: true } }),
    journey.exam.organizationId
      ? tx.organizationMember.findMany({ where: { organizationId: journey.exam.organizationId, userId: { in: userIds } }, select: { userId: true, department: { select: { title: true } } } })
      : Promise.resolve([]),
    tx.examFieldValue.findMany({ where: { userId: { in: userIds }, field: { examId: journey.examId } }, select: { userId: true, value: true, field: { select: { id: true, label: true } } } }),
    tx.play.findMany({
      where: { userId: { in: userIds }, archived: false, OR: [{ examId: { in: examIds } }, ...(quizIds.length ? [{ examId: null, quizId: { in: quizIds } }] : [])] },
      orderBy: [{ timeStart: 'asc' }, { id: 'asc' }],
      select: { id: true, userId: true, examId: true, quizId: true, status: true, evaluated: true, timeStart: true, timeEnd: true, pointsTotal: true, pointsCorrect: true, successful: true, grade: true, questionIds: true },
    }),
    tx.exam.findMany({ where: { id: { in: examIds } }, select: { id: true, archived: true, deadline: true, end: true } }),
    quizIds.length ? tx.quizSet.findMany({ where: { id: { in: quizIds } }, select: { id: true, archived: true } }) : Promise.resolve([]),
    classIds.length ? tx.class.findMany({ where: { id: { in: classIds } }, select: { id: true, assignments: { where: { active: true }, select: { id: true } } } }) : Promise.resolve([]),
    classIds.length ? tx.classMember.findMany({ where: { classId: { in: classIds }, userId: { in: userIds } }, select: { classId: true, userId: true, approved: true, expiresAt: true } }) : Promise.resolve([]),
    classIds.length
      ? tx.assignmentSubmission.findMany({ where: { userId: { in: userIds }, assignment: { classId: { in: classIds }, active: true }, status: { in: ['SUBMITTED', 'GRADED'] } }, select: { userId: true, submittedAt: true, gradedAt: true, updatedAt: true, assignment: { select: { classId: true } } } })
      : Promise.resolve([]),
  ]);
  const [skillsOf, runSettings] = await Promise.all([
    skillPointsOfPlays(tx, plays.filter((p) => p.status === 'finished'), 'identifier'),
    runSettingsOf({ db: tx }, examIds),
  ]);
  const examById = new Map(exams.map((e) => [e.id, e]));
  const quizById = new Map(quizzes.map((q) => [q.id, q]));
  const classById = new Map(classes.map((c) => [c.id, c]));
  const valuesOf = groupBy(fieldValues, (v) => v.userId);
  const playsOf = groupBy(plays, (p) => p.userId!);
  const membersOf = groupBy(members, (m) => m.userId);
  const classMembersOf = groupBy(classMembers, (m) => m.userId);
  const submissionsOf = groupBy(submissions, (m) => m.userId);
  const facts = new Map<string, EngineFacts>();
  for (const u of users) {
    const custom: Record<string, string> = {};
    for (const v of valuesOf.get(u.id) ?? []) { custom[v.field.label] = v.value; custom[v.field.id] = v.value; }
    const mine = playsOf.get(u.id) ?? [];
    const fact = (p: (typeof mine)[number]): PlayFact => ({
      play: p.id, timeStart: p.timeStart, timeEnd: p.timeEnd, finished: p.status === 'finished',
      percent: p.status === 'finished' ? percentOf(p) : null, points: p.status === 'finished' ? p.pointsCorrect : null,
      successful: p.successful, grade: p.grade, skills: skillFacts(skillsOf.get(p.id)),
    });
    const examFacts: Record<string, ExamFact | undefined> = {};
    for (const id of examIds) {
      const exam = examById.get(id);
      if (!exam) continue;
      examFacts[id] = {
        plays: mine.filter((p) => p.examId === id).map(fact), ...examWindow(exam, runSettings.get(id)!.viewResultsStart, now),
        problem: exam.archived ? 'content-archived' : null,
      };
    }
    const quizFacts: EngineFacts['quizzes'] = {};
    for (const id of quizIds) {
      const quiz = quizById.get(id);
      if (quiz) quizFacts[id] = { plays: mine.filter((p) => p.examId === null && p.quizId === id).map(fact), problem: quiz.archived ? 'content-archived' : null };
    }
    const classFacts: EngineFacts['classes'] = {};
    for (const id of classIds) {
      const cls = classById.get(id);
      if (!cls) continue;
      const member = (classMembersOf.get(u.id) ?? []).find((m) => m.classId === id);
      const done = (submissionsOf.get(u.id) ?? []).filter((s) => s.assignment.classId === id);
      const total = cls.assignments.length;
      const progress = total === 0 ? null : Math.min(100, Math.round((done.length / total) * 100));
      const times = done.map((s) => (s.submittedAt ?? s.gradedAt ?? s.updatedAt).getTime());
      classFacts[id] = {
        membership: !member ? 'missing' : !member.approved ? 'refused' : member.expiresAt && member.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active',
        progress, completedAt: progress === 100 && times.length ? new Date(Math.max(...times)) : null, expiresAt: member?.expiresAt ?? null,
      };
    }
    facts.set(u.id, {
      user: {
        id: u.id, timezone: u.timezone, gender: u.gender, customerFields: (u.customFields ?? {}) as Record<string, string>,
        departments: (membersOf.get(u.id) ?? []).filter((m) => m.department).map((m) => m.department!.title), teams: [], generated: u.generated,
      },
      startExam: journey.examId, examCustom: custom, exams: examFacts, quizzes: quizFacts, classes: classFacts,
    });
  }
  return facts;
}

// ---------------------------------------------------------------------------------------------
// Running the engine over a batch

export type Operation = (input: EngineInput, user: UserRow | null) => EngineResult | null;

export interface Applied {
  userId: string;
  before: UserRow | null;
  result: EngineResult;
}

/**
 * Runs `operation` for each user (null row: not in the journey yet) and writes the outcome. Users
 * must be locked (or claimed) by the caller. Answers what changed, per user.
 */
export async function applyToUsers(tx: Tx, journey: LoadedJourney, users: Array<{ userId: string; row: UserRow | null }>, operation: Operation, now: Date): Promise<Applied[]> {
  if (users.length === 0) return [];
  const ids = users.map((u) => u.userId);
  const [facts, visitRows] = await Promise.all([
    loadFacts(tx, journey, ids, now),
    tx.journeyVisit.findMany({ where: { journeyId: journey.id, userId: { in: ids } }, orderBy: [{ run: 'asc' }, { visit: 'asc' }] }),
  ]);
  const visitIds = new Map(visitRows.map((v) => [`${v.userId}:${v.run}:${v.visit}`, v.id]));
  const visitsOf = groupBy(visitRows, (v) => v.userId);
  const applied: Applied[] = [];
  for (const { userId, row } of users) {
    const f = facts.get(userId);
    if (!f) continue;
    const state = stateOf(row);
    const visits = (visitsOf.get(userId) ?? []).filter((v) => v.run === state.run).map(visitOf);
    const result = operation({ graph: journey.graph, state, visits, facts: f, now }, row);
    if (result) applied.push({ userId, before: row, result });
  }
  await persist(tx, journey, applied, visitIds, now);
  return applied;
}

const json = (x: unknown) => JSON.stringify(x);

async function persist(tx: Tx, journey: LoadedJourney, applied: Applied[], visitIds: Map<string, string>, now: Date): Promise<void> {
  const changed = applied.filter((a) => a.result.touched.length || a.before === null || JSON.stringify(stateOf(a.before)) !== JSON.stringify(a.result.state));
  if (changed.length === 0) return;
  const userRecord = (userId: string, s: JourneyState) => ({
    userId, status: s.status!, outcome: s.outcome, error: s.error, run: s.run, node: s.node, waitUntil: s.waitUntil, dueAt: s.dueAt,
    flags: s.flags, marks: s.marks, timeStart: s.timeStart ?? now, timeEnd: s.timeEnd,
  });
  const fresh = changed.filter((a) => a.before === null && a.result.state.status !== null);
  const existing = changed.filter((a) => a.before !== null);
  if (fresh.length) {
    await tx.journeyUser.createMany({ data: fresh.map((a) => ({ journeyId: journey.id, ...userRecord(a.userId, a.result.state) })) });
  }
  if (existing.length) {
    await tx.$executeRawUnsafe(
      `UPDATE "JourneyUser" AS j SET "status" = x."status", "outcome" = x."outcome", "error" = x."error", "run" = x."run", "node" = x."node",
         "waitUntil" = x."waitUntil", "dueAt" = x."dueAt", "flags" = x."flags", "marks" = x."marks", "timeStart" = x."timeStart", "timeEnd" = x."timeEnd", "updatedAt" = $3
       FROM jsonb_to_recordset($1::jsonb) AS x("userId" text, "status" text, "outcome" text, "error" text, "run" int, "node" text,
         "waitUntil" timestamp(3), "dueAt" timestamp(3), "flags" jsonb, "marks" text[], "timeStart" timestamp(3), "timeEnd" timestamp(3))
       WHERE j."journeyId" = $2 AND j."userId" = x."userId"`,
      json(existing.map((a) => userRecord(a.userId, a.result.state))), journey.id, now,
    );
  }
  const creates: Array<Record<string, unknown>> = [];
  const updates: Array<Record<string, unknown>> = [];
  for (const a of changed) {
    for (const v of a.result.touched) {
      const key = `${a.userId}:${v.run}:${v.visit}`;
      const data = {
        run: v.run, visit: v.visit, node: v.node, type: v.type, status: v.status, output: v.output, timeStart: v.timeStart, timeEnd: v.timeEnd,
        playId: v.play, result: v.result, successful: v.successful, grade: v.grade, skills: v.skills, decisions: v.decisions,
      };
      const id = visitIds.get(key);
      if (id) updates.push({ id, ...data });
      else {
        const newIdOf = newId('JourneyVisit');
        visitIds.set(key, newIdOf);
        creates.push({ id: newIdOf, journeyId: journey.id, userId: a.userId, ...data });
      }
    }
  }
  if (creates.length) {
    // One INSERT from a JSON array: far cheaper than a parameter per column per row.
    await tx.$executeRawUnsafe(
      `INSERT INTO "JourneyVisit" ("id", "journeyId", "userId", "run", "visit", "node", "type", "status", "output", "timeStart", "timeEnd", "playId", "result", "successful", "grade", "skills", "decisions")
       SELECT x."id", x."journeyId", x."userId", x."run", x."visit", x."node", x."type", x."status", x."output", x."timeStart", x."timeEnd", x."playId", x."result", x."successful", x."grade", x."skills", COALESCE(x."decisions", '[]'::jsonb)
       FROM jsonb_to_recordset($1::jsonb) AS x("id" text, "journeyId" text, "userId" text, "run" int, "visit" int, "node" text, "type" text, "status" text, "output" text,
         "timeStart" timestamp(3), "timeEnd" timestamp(3), "playId" text, "result" double precision, "successful" boolean, "grade" text, "skills" jsonb, "decisions" jsonb)`,
      json(creates),
    );
  }
  if (updates.length) {
    await tx.$executeRawUnsafe(
      `UPDATE "JourneyVisit" AS v SET "status" = x."status", "output" = x."output", "timeEnd" = x."timeEnd", "playId" = x."playId", "result" = x."result",
         "successful" = x."successful", "grade" = x."grade", "skills" = x."skills", "decisions" = x."decisions"
       FROM jsonb_to_recordset($1::jsonb) AS x("id" text, "status" text, "output" text, "timeEnd" timestamp(3), "playId" text, "result" double precision,
         "successful" boolean, "grade" text, "skills" jsonb, "decisions" jsonb)
       WHERE v."id" = x."id"`,
      json(updates),
    );
  }
  await applyEffects(tx, journey, changed);
}

async function applyEffects(tx: Tx, journey: LoadedJourney, applied: Applied[]): Promise<void> {
  const examUsers: Array<{ examId: string; userId: string }> = [];
  const classMembers: Array<{ classId: string; userId: string }> = [];
  const messages: Array<{ userId: string; target: 'user' | 'educators'; message: string }> = [];
  const finished: Applied[] = [];
  const due = new Set<number>();
  for (const a of applied) {
    for (const e of a.result.effects) {
      if (e.type === 'enroll-exam') examUsers.push({ examId: e.exam, userId: a.userId });
      else if (e.type === 'enroll-class') classMembers.push({ classId: e.class, userId: a.userId });
      else if (e.type === 'notify') messages.push({ userId: a.userId, target: e.target, message: e.message });
      else if (e.type === 'finished' && e.status === 'completed') finished.push(a);
    }
    const d = a.result.state.dueAt;
    if (d && d.getTime() !== a.before?.dueAt?.getTime()) due.add(d.getTime());
  }
  if (examUsers.length) await tx.examUser.createMany({ data: examUsers, skipDuplicates: true });
  if (classMembers.length) await tx.classMember.createMany({ data: classMembers, skipDuplicates: true });
  if (messages.length) await notify(tx, journey, messages);
  if (finished.length) {
    await announceCompleted(tx, journey, finished);
    await recordJourneyRequirements(tx, journey.examId, finished.map((a) => ({ userId: a.userId, outcome: a.result.state.outcome, timeEnd: a.result.state.timeEnd })));
  }
  for (const at of due) await scheduleTimer(tx, journey.id, new Date(at));
}

async function notify(tx: Tx, journey: LoadedJourney, messages: Array<{ userId: string; target: 'user' | 'educators'; message: string }>): Promise<void> {
  const educatorIds = journey.graph.settings.educators?.length ? journey.graph.settings.educators : [journey.exam.ownerId];
  const people = await tx.user.findMany({ where: { id: { in: [...new Set([...messages.map((m) => m.userId), ...educatorIds])] } }, select: { id: true, email: true, phone: true, displayName: true } });
  const byId = new Map(people.map((p) => [p.id, p]));
  const subject = journey.graph.settings.title || journey.exam.title;
  for (const m of messages) {
    const recipients = m.target === 'user' ? [m.userId] : educatorIds;
    for (const id of recipients) {
      const person = byId.get(id);
      const contact = person && contactOf(person);
      if (!contact) continue;
      const about = byId.get(m.userId);
      const body = m.target === 'user' ? m.message : `${about?.displayName ?? m.userId}: ${m.message}`;
      await enqueueMessage(tx, { ...contact, subject, body, userId: id });
    }
  }
}

async function announceCompleted(tx: Tx, journey: LoadedJourney, finished: Applied[]): Promise<void> {
  const organizationId = journey.exam.organizationId;
  if (!organizationId) return;
  const members = await tx.organizationMember.findMany({ where: { organizationId, userId: { in: finished.map((a) => a.userId) } }, select: { userId: true } });
  const memberIds = new Set(members.map((m) => m.userId));
  for (const a of finished) {
    if (!memberIds.has(a.userId)) continue;
    const s = a.result.state;
    await enqueueEvent(tx, {
      organizationId, event: 'journey-completed', userId: a.userId,
      data: { exam: journey.examId, journey: journey.graph.settings.title ?? null, user: a.userId, run: s.run, outcome: s.outcome, time_start: datetime(s.timeStart), time_end: datetime(s.timeEnd) },
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Timers

/** One job per journey and due time: 10,000 users waiting on one node make one job. */
async function scheduleTimer(tx: Tx, journeyId: string, at: Date): Promise<void> {
  await enqueue(tx, journeyTimers, { journey: journeyId, at: at.toISOString() }, { runAt: at, dedupeKey: `${journeyId}:${at.toISOString()}` });
}

/** Users claimed per transaction by a timer run. */
export const TIMER_BATCH = 1000;

/**
 * Moves the users of a journey whose due time has come, in batches: each batch is claimed with
 * `FOR UPDATE SKIP LOCKED` in its own transaction and written before the commit, so several
 * instances share the work, a user is moved once, and a crash leaves the batch for the next run.
 */
export async function runDueUsers(ctx: Pick<SystemContext, 'db'>, journeyId: string, now: Date): Promise<number> {
  let moved = 0;
  for (;;) {
    const count = await ctx.db.$transaction(async (tx) => {
      const row = await tx.journey.findUnique({ where: { id: journeyId }, include: journeyInclude });
      const journey = row && loaded(row);
      if (!journey) return 0;
      const claimed = await tx.$queryRawUnsafe<UserRow[]>(
        `SELECT * FROM "JourneyUser" WHERE "journeyId" = $1 AND "dueAt" <= $2 AND "status" IN ('active', 'waiting')
         ORDER BY "dueAt", "userId" LIMIT ${TIMER_BATCH} FOR UPDATE SKIP LOCKED`,
        journeyId, now,
      );
      if (claimed.length === 0) return 0;
      // The engine sets the next due time; those it leaves alone are not due again.
      const applied = await applyToUsers(tx, journey, claimed.map((r) => ({ userId: r.userId, row: r })), (input) => advance(input), now);
      const rescheduled = new Set(applied.filter((a) => a.result.state.dueAt).map((a) => a.userId));
      const untouched = claimed.filter((c) => !rescheduled.has(c.userId));
      if (untouched.length) await tx.journeyUser.updateMany({ where: { journeyId, userId: { in: untouched.map((c) => c.userId) }, dueAt: { lte: now } }, data: { dueAt: null } });
      return claimed.length;
    }, { timeout: 120_000 });
    moved += count;
    if (count < TIMER_BATCH) return moved;
  }
}

export const journeyTimers = defineTask('journeys.timers', z.object({ journey: z.string(), at: z.string() }), async (ctx: SystemContext, { journey, at }) => {
  const now = clock.now();
  // Claimed by the database clock a moment before this one reaches the time: try again shortly.
  if (new Date(at).getTime() > now.getTime()) throw new Error(`journey ${journey} timers are not due until ${at}`);
  return runDueUsers(ctx, journey, now);
});

// ---------------------------------------------------------------------------------------------
// Results arriving

/**
 * Moves on the users (of `userIds`) whose current step `concerns` says a change touched, one
 * journey at a time. Their rows are locked first: a timer run (SKIP LOCKED) or a manual change
 * waits or skips. In the transaction that made the change.
 */
async function moveUsersOnSteps(tx: Tx, userIds: string[], concerns: (node: JourneyNode, journey: LoadedJourney) => boolean, now: Date): Promise<void> {
  const locked = await tx.$queryRaw<unknown[]>`SELECT "journeyId" FROM "JourneyUser" WHERE "userId" IN (${Prisma.join(userIds)}) AND "status" = 'active' ORDER BY "journeyId", "userId" FOR UPDATE`;
  // Users on no journey (most users finishing a play) have nothing to move.
  if (locked.length === 0) return;
  const rows = await tx.journeyUser.findMany({ where: { userId: { in: userIds }, status: 'active' }, include: { journey: { include: journeyInclude } } });
  for (const rowsOfJourney of groupBy(rows, (r) => r.journeyId).values()) {
    const journey = loaded(rowsOfJourney[0]!.journey);
    if (!journey) continue;
    const users = rowsOfJourney
      .filter((row) => { const node = journey.graph.nodes.find((n) => n.node === row.node); return node !== undefined && concerns(node, journey); })
      .map(({ journey: _j, ...row }) => ({ userId: row.userId, row }));
    await applyToUsers(tx, journey, users, (input) => advance(input), now);
  }
}

/**
 * Class work changed (a submission handed in or graded, memberships added or removed): users of
 * `userIds` on a step of one of `classIds` move on. In the transaction of the change.
 */
export async function onClassProgress(tx: Tx, classIds: string[], userIds: string[]): Promise<void> {
  if (classIds.length === 0 || userIds.length === 0) return;
  const classes = new Set(classIds);
  await moveUsersOnSteps(tx, userIds, (node) => node.type === 'class' && classes.has(node.config.class), clock.now());
}

/**
 * A play of a user settled (finished, or graded): users on a step of its exam or Quiz set move on,
 * and a user completing a journey's starting exam enters it (again, in a new run, when the journey
 * is restartable and the user finished it). In the transaction that settles the play.
 */
export async function onPlaySettled(tx: Tx, play: { userId: string | null; examId: string | null; quizId: string }): Promise<void> {
  if (!play.userId) return;
  const userId = play.userId;
  const now = clock.now();
  await moveUsersOnSteps(tx, [userId], (node, journey) =>
    (node.type === 'start' && play.examId === journey.examId)
    || (node.type === 'exam' && node.config.exam === play.examId)
    || (node.type === 'quiz' && play.examId === null && node.config.quiz === play.quizId), now);
  const starting = play.examId ? await tx.journey.findUnique({ where: { examId: play.examId }, include: journeyInclude }) : null;
  const journey = starting && loaded(starting);
  if (!journey || !journey.enabled) return;
  // Two plays settling at once must not both let the user in: entering is one at a time per user
  // and journey (a user without a row has nothing to lock), and the second sees the first's row.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`journey-entry:${journey.id}:${userId}`}, 0))`;
  const mine = await tx.journeyUser.findUnique({ where: { journeyId_userId: { journeyId: journey.id, userId } } });
  if (mine && !(journey.graph.settings.restartable && (mine.status === 'completed' || mine.status === 'stopped'))) return;
  const start = journey.graph.nodes.find((n) => n.type === 'start');
  if (!start || start.type !== 'start') return;
  await applyToUsers(tx, journey, [{ userId, row: mine }], (input) => {
    if (!mine) return advance(input);
    // A restartable journey: the new result alone must complete the start.
    const newest = input.facts.exams[journey.examId]?.plays.filter((p) => p.timeEnd && mine.timeEnd && p.timeEnd > mine.timeEnd) ?? [];
    const fact = input.facts.exams[journey.examId];
    if (!fact || !startCompleted(start.config.complete_on, { ...fact, plays: newest })) return null;
    return restart(input);
  }, now);
}
