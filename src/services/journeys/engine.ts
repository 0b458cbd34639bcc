/**
 * The journey engine: a pure, deterministic state machine. It reads a published graph, one user's
 * state and visits of the current run, the facts it needs (results of exam and Quiz plays, class
 * progress, user attributes) and the time, and returns the new state, the visits it opened or
 * closed and the effects the runtime applies (enrollments, notifications, the finish). It never
 * touches the database and never reads the clock.
 *
 * Rules the format leaves open are fixed here; the reference (/api/docs) describes them with the journey operations.
 */
import { createHash } from 'node:crypto';
import {
  defaultJourneySettings, instantTypes, outputsOf, splitSkillParam, stepTypes,
  type Aggregate, type CompleteOn, type ConditionRule, type JourneyErrorCode, type JourneyGraph, type JourneyNode,
  type JourneyNodeOf, type JourneyUserStatus, type NodeType, type VisitStatus,
} from './format.ts';

// ---------------------------------------------------------------------------------------------
// Inputs

/** One play of an exam or a Quiz set, as the engine needs it. `percent` is 0-100. */
export interface PlayFact {
  play: string;
  timeStart: Date;
  timeEnd: Date | null;
  finished: boolean;
  percent: number | null;
  points: number | null;
  successful: boolean | null;
  grade: string | null;
  /** Skill identifier -> points and percent reached in this play. */
  skills?: Record<string, { points: number; percent: number }>;
}

export interface ExamFact {
  /** The user's plays of the exam, oldest first. */
  plays: PlayFact[];
  /** Attempts the user may still start; null: unlimited. */
  attemptsLeft: number | null;
  /** No new play can start until the exam ends (its results viewing period began). */
  locked?: boolean;
  /** The exam ended (EXPIRED): its results are final. */
  closed: boolean;
  /** The next moment the exam's state changes (lock, deadline, end): the engine looks at the user again then. */
  changesAt: Date | null;
  /** Why the content cannot be used (archived, locked, ...), if so. */
  problem?: JourneyErrorCode | null;
}

export interface QuizFact {
  /** The user's practice plays of the Quiz set, oldest first. */
  plays: PlayFact[];
  problem?: JourneyErrorCode | null;
}

export interface ClassFact {
  /** refused: a membership that is not approved; neither it nor an expired one is overridden by enrolling. */
  membership: 'active' | 'missing' | 'expired' | 'refused';
  /** Progress 0-100; null: the class does not measure progress. */
  progress: number | null;
  /** When the user reached 100 %. */
  completedAt: Date | null;
  /** When the membership expires, if it does: the engine looks at the user again then. */
  expiresAt?: Date | null;
  problem?: JourneyErrorCode | null;
}

export interface UserFacts {
  id: string;
  timezone: string;
  gender: string | null;
  customerFields: Record<string, string>;
  departments: string[];
  teams: string[];
  generated: boolean;
}

export interface EngineFacts {
  user: UserFacts;
  /** The starting exam's id. */
  startExam: string;
  /** Custom exam user data of the user (field -> value). */
  examCustom: Record<string, string>;
  exams: Record<string, ExamFact | undefined>;
  quizzes: Record<string, QuizFact | undefined>;
  classes: Record<string, ClassFact | undefined>;
}

export interface JourneyState {
  status: JourneyUserStatus | null;
  outcome: string | null;
  error: JourneyErrorCode | null;
  run: number;
  node: string | null;
  waitUntil: Date | null;
  dueAt: Date | null;
  flags: Record<string, string>;
  marks: string[];
  timeStart: Date | null;
  timeEnd: Date | null;
}

export type DecisionType = 'condition' | 'split' | 'notify' | 'flag' | 'mark';

export interface Decision {
  decision: string;
  type: DecisionType;
  title: string | null;
  output: string | null;
  label: string | null;
}

export interface Visit {
  run: number;
  /** From 1 within the run. */
  visit: number;
  node: string;
  type: NodeType;
  status: VisitStatus;
  /** The output taken (an end node: its outcome). */
  output: string | null;
  timeStart: Date;
  timeEnd: Date | null;
  play: string | null;
  result: number | null;
  successful: boolean | null;
  grade: string | null;
  skills: Record<string, { points: number; percent: number }> | null;
  /** Instant nodes passed after this visit. */
  decisions: Decision[];
}

export const emptyState: JourneyState = Object.freeze({
  status: null, outcome: null, error: null, run: 0, node: null, waitUntil: null, dueAt: null,
  flags: {}, marks: [], timeStart: null, timeEnd: null,
}) as JourneyState;

// ---------------------------------------------------------------------------------------------
// Outputs

export type Effect =
  | { type: 'enroll-exam'; node: string; exam: string; retake: boolean }
  | { type: 'enroll-class'; node: string; class: string }
  | { type: 'notify'; node: string; target: 'user' | 'educators'; message: string }
  | { type: 'finished'; status: 'completed' | 'stopped'; outcome: string };

export interface EngineResult {
  state: JourneyState;
  /** Every visit of the current run after the step. */
  visits: Visit[];
  /** The visits opened or changed by this step (keyed by run and visit). */
  touched: Visit[];
  effects: Effect[];
}

export interface EngineInput {
  graph: JourneyGraph;
  state: JourneyState;
  /** The visits of the current run (older runs are history only). */
  visits: Visit[];
  facts: EngineFacts;
  now: Date;
}

// ---------------------------------------------------------------------------------------------
// The machine

class Machine {
  readonly nodes = new Map<string, JourneyNode>();
  readonly maxVisits: number;
  state: JourneyState;
  visits: Visit[];
  readonly touched = new Set<Visit>();
  readonly effects: Effect[] = [];
  /** Visits opened during this step: their membership checks wait for the enrollment. */
  private readonly fresh = new Set<Visit>();

  constructor(readonly input: EngineInput) {
    for (const n of input.graph.nodes) this.nodes.set(n.node, n);
    this.maxVisits = input.graph.settings?.max_visits ?? defaultJourneySettings.max_visits;
    this.state = { ...input.state, flags: { ...input.state.flags }, marks: [...input.state.marks] };
    this.visits = input.visits.filter((v) => v.run === input.state.run).map((v) => ({ ...v, decisions: [...v.decisions] }));
  }

  get now(): Date { return this.input.now; }
  get facts(): EngineFacts { return this.input.facts; }

  result(): EngineResult {
    return { state: this.state, visits: this.visits, touched: this.visits.filter((v) => this.touched.has(v)), effects: this.effects };
  }

  startNode(): JourneyNodeOf<'start'> | undefined {
    return this.input.graph.nodes.find((n) => n.type === 'start') as JourneyNodeOf<'start'> | undefined;
  }

  /** The open visit of the current node (active or waiting), if any. */
  openVisit(): Visit | undefined {
    const last = this.visits[this.visits.length - 1];
    return last && (last.status === 'active' || last.status === 'waiting') && last.node === this.state.node ? last : undefined;
  }

  /** How often a node was visited in this run (instant nodes count their decisions). */
  visitCount(key: string): number {
    let n = 0;
    for (const v of this.visits) {
      if (v.node === key) n++;
      for (const d of v.decisions) if (d.decision === key) n++;
    }
    return n;
  }

  touch(v: Visit): void { this.touched.add(v); }

  openVisitOf(node: JourneyNode, status: VisitStatus): Visit {
    const v: Visit = {
      run: this.state.run, visit: this.visits.length + 1, node: node.node, type: node.type, status, output: null,
      timeStart: this.now, timeEnd: null, play: null, result: null, successful: null, grade: null, skills: null, decisions: [],
    };
    this.visits.push(v);
    this.touch(v);
    this.fresh.add(v);
    this.state.node = node.node;
    return v;
  }

  closeVisit(v: Visit, status: VisitStatus, output: string | null): void {
    v.status = status;
    v.output = output;
    v.timeEnd = this.now;
    this.touch(v);
  }

  finish(status: 'completed' | 'stopped', outcome: string): void {
    Object.assign(this.state, { status, outcome, error: null, waitUntil: null, dueAt: null, timeEnd: this.now });
    this.effects.push({ type: 'finished', status, outcome });
  }

  fail(code: JourneyErrorCode, v?: Visit): void {
    if (v) this.closeVisit(v, 'error', null);
    Object.assign(this.state, { status: 'error', error: code, outcome: null, waitUntil: null, dueAt: null });
  }

  /** Takes an output of a node: the next node, or the finish when unconnected. */
  follow(node: JourneyNode, output: string): void {
    const target = node.next?.[output];
    if (target == null) return this.finish('completed', 'completed');
    this.enter(target, false);
  }

  /** Enters a node; `manual` (a move or resume) skips the visit limit for this one entry. */
  enter(key: string, manual: boolean): void {
    const node = this.nodes.get(key);
    if (!node) return this.fail('error', this.openVisit());
    if (!manual && this.visitCount(key) >= this.maxVisits) {
      this.state.node = key;
      return this.finish('stopped', 'loop-limit');
    }
    Object.assign(this.state, { status: 'active', error: null, waitUntil: null, dueAt: null });
    if (instantTypes.has(node.type)) return this.instant(node);
    if (node.type === 'end') {
      const v = this.openVisitOf(node, 'completed');
      const outcome = node.config?.outcome || 'completed';
      this.closeVisit(v, 'completed', outcome);
      return this.finish('completed', outcome);
    }
    const v = this.openVisitOf(node, node.type === 'wait' ? 'waiting' : 'active');
    if (node.type === 'exam' || node.type === 'start') {
      const exam = node.type === 'exam' ? node.config.exam : this.facts.startExam;
      const retake = node.type === 'exam' ? node.config.retake : false;
      this.effects.push({ type: 'enroll-exam', node: node.node, exam, retake });
    } else if (node.type === 'class') {
      this.effects.push({ type: 'enroll-class', node: node.node, class: node.config.class });
    }
    this.settle(node, v);
  }

  /** Looks at an open visit: completes it and moves on, or leaves the user waiting. */
  settle(node: JourneyNode, v: Visit): void {
    if (node.type === 'wait') {
      const until = waitEnd(node.config, v.timeStart, this.facts.user.timezone);
      if (until.getTime() <= this.now.getTime()) {
        this.closeVisit(v, 'completed', 'next');
        return this.follow(node, 'next');
      }
      v.status = 'waiting';
      Object.assign(this.state, { status: 'waiting', waitUntil: until, dueAt: until });
      return;
    }
    const progress = stepProgress(node, v, this.facts, this.revisit(v), this.fresh.has(v), this.now);
    if (progress.error) return this.fail(progress.error, v);
    if (!progress.done) {
      Object.assign(this.state, { status: 'active', waitUntil: null, dueAt: progress.dueAt ?? null });
      return;
    }
    Object.assign(v, { play: progress.play ?? null, result: progress.result ?? null, successful: progress.successful ?? null, grade: progress.grade ?? null, skills: progress.skills ?? null });
    this.closeVisit(v, 'completed', 'done');
    this.follow(node, 'done');
  }

  /** Whether the visit is not the first of its node in this run. */
  revisit(v: Visit): boolean {
    return this.visits.some((o) => o !== v && o.node === v.node && o.visit < v.visit);
  }

  instant(node: JourneyNode): void {
    const host = this.visits[this.visits.length - 1];
    let output: string;
    let label: string | null = null;
    switch (node.type) {
      case 'condition': {
        const hit = node.config.branches.find((b) => {
          const results = b.rules.map((r) => evaluateRule(r, this));
          return b.match === 'any' ? results.some(Boolean) : results.every(Boolean);
        });
        output = hit ? hit.key : 'else';
        label = hit ? hit.label ?? null : node.config.else_label ?? null;
        break;
      }
      case 'split': {
        const branch = pickBranch(node.config.branches, this.facts.user.id, node.node, this.state.run, this.visitCount(node.node) + 1);
        output = branch.key;
        label = branch.label ?? null;
        break;
      }
      case 'notify':
        this.effects.push({ type: 'notify', node: node.node, target: node.config.target, message: node.config.message });
        output = 'next';
        break;
      case 'flag':
        this.state.flags[node.config.name] = node.config.value;
        output = 'next';
        break;
      case 'mark':
        if (node.config.mode === 'mark') { if (!this.state.marks.includes(node.node)) this.state.marks.push(node.node); }
        else this.state.marks = [];
        output = 'next';
        break;
      default:
        output = 'next';
    }
    const decision: Decision = { decision: node.node, type: node.type as DecisionType, title: node.label ?? null, output, label };
    if (host) {
      host.decisions.push(decision);
      this.touch(host);
    }
    this.state.node = node.node;
    this.follow(node, output);
  }
}

function assertGraph(graph: JourneyGraph): void {
  if (!graph || !Array.isArray(graph.nodes)) throw new TypeError('a published journey graph is needed');
}

/**
 * Moves a user as far as the facts allow: enters the journey when the starting exam is completed
 * (a user not yet in it), completes steps whose results arrived, ends waits that are due. A
 * stopped, completed or error user is left alone (see `resume`, `restart`).
 */
export function advance(input: EngineInput): EngineResult {
  assertGraph(input.graph);
  const m = new Machine(input);
  const s = m.state;
  if (s.status === null) {
    const start = m.startNode();
    if (!start) return m.result();
    const fact = input.facts.exams[input.facts.startExam];
    if (!fact || !startCompleted(start.config.complete_on, fact)) return m.result();
    Object.assign(s, { run: Math.max(1, s.run), outcome: null, error: null, flags: {}, marks: [], timeStart: input.now, timeEnd: null });
    m.visits = [];
    m.enter(start.node, true);
    return m.result();
  }
  if (s.status !== 'active' && s.status !== 'waiting') return m.result();
  const node = s.node ? m.nodes.get(s.node) : undefined;
  const v = m.openVisit();
  if (!node || !v) {
    m.fail(node ? 'error' : 'content-invalid', v);
    return m.result();
  }
  m.settle(node, v);
  return m.result();
}

/** An educator (or publishing) moves the user to a node of the graph. */
export function move(input: EngineInput, to: string): EngineResult {
  const m = new Machine(input);
  const open = m.openVisit();
  if (open) m.closeVisit(open, 'moved', null);
  if (m.state.status === null || m.state.run === 0) Object.assign(m.state, { run: 1, timeStart: input.now });
  Object.assign(m.state, { outcome: null, timeEnd: null });
  m.enter(to, true);
  return m.result();
}

/** Stops a user's journey (by an educator, or publishing a version without the user's node). */
export function stop(input: EngineInput, outcome = 'stopped'): EngineResult {
  const m = new Machine(input);
  const open = m.openVisit();
  if (open) m.closeVisit(open, 'stopped', null);
  m.finish('stopped', outcome);
  return m.result();
}

/** Resumes a stopped or error user on the node they were on (a new visit of it). */
export function resume(input: EngineInput): EngineResult {
  const m = new Machine(input);
  const at = m.state.node && m.nodes.has(m.state.node) ? m.state.node : m.startNode()?.node;
  if (!at) return m.result();
  Object.assign(m.state, { outcome: null, timeEnd: null });
  m.enter(at, true);
  return m.result();
}

/** Starts a new run from the start node: flags and marks are cleared. */
export function restart(input: EngineInput): EngineResult {
  const m = new Machine(input);
  const open = m.openVisit();
  if (open) m.closeVisit(open, 'stopped', null);
  const closed = m.result().touched;
  const start = m.startNode();
  Object.assign(m.state, { run: m.state.run + 1, status: 'active', outcome: null, error: null, flags: {}, marks: [], timeStart: input.now, timeEnd: null, node: null });
  m.visits = [];
  if (start) m.enter(start.node, true);
  const r = m.result();
  return { ...r, touched: [...closed, ...r.touched] };
}

// ---------------------------------------------------------------------------------------------
// Steps

interface Progress {
  done: boolean;
  error?: JourneyErrorCode;
  dueAt?: Date | null;
  play?: string;
  result?: number | null;
  successful?: boolean | null;
  grade?: string | null;
  skills?: Record<string, { points: number; percent: number }> | null;
}

function fromPlay(p: PlayFact): Progress {
  return { done: true, play: p.play, result: p.percent, successful: p.successful, grade: p.grade, skills: p.skills ?? null };
}

function lastOf<T>(list: T[]): T | undefined { return list[list.length - 1]; }

function examProgress(completeOn: CompleteOn, fact: ExamFact, since: Date | null, now: Date): Progress {
  const counted = fact.plays.filter((p) => p.finished && p.timeEnd && (!since || p.timeEnd.getTime() >= since.getTime()));
  const success = lastOf(counted.filter((p) => p.successful === true));
  if (completeOn === 'finish' && counted.length) return fromPlay(lastOf(counted)!);
  if (success) return fromPlay(success);
  // With a play still open the user may yet succeed; otherwise a lock or no attempts left is final.
  const open = fact.plays.some((p) => !p.finished);
  const noAttempts = fact.attemptsLeft !== null && fact.attemptsLeft <= 0;
  const exhausted = !open && (noAttempts || fact.locked === true);
  if (completeOn === 'final' && counted.length && (exhausted || fact.closed)) return fromPlay(lastOf(counted)!);
  if (fact.closed) return { done: false, error: 'content-closed' };
  if (exhausted) return { done: false, error: noAttempts ? 'attempts-exhausted' : 'content-locked' };
  return { done: false, dueAt: fact.changesAt && fact.changesAt.getTime() > now.getTime() ? fact.changesAt : null };
}

/** Whether the starting exam's results let a user enter (any result of the exam counts). */
export function startCompleted(completeOn: CompleteOn, fact: ExamFact): boolean {
  if (fact.problem) return false;
  return examProgress(completeOn, fact, null, new Date(0)).done;
}

function stepProgress(node: JourneyNode, v: Visit, facts: EngineFacts, revisit: boolean, fresh: boolean, now: Date): Progress {
  switch (node.type) {
    case 'start':
    case 'exam': {
      const examId = node.type === 'exam' ? node.config.exam : facts.startExam;
      const fact = facts.exams[examId];
      if (!fact) return { done: false, error: 'content-invalid' };
      if (fact.problem) return { done: false, error: fact.problem };
      // The start counts any result; reuse counts results from before the visit; without retake a
      // repeated visit keeps the earlier result.
      const anyResult = node.type === 'start' || node.config.reuse || (revisit && !node.config.retake);
      return examProgress(node.config.complete_on, fact, anyResult ? null : v.timeStart, now);
    }
    case 'quiz': {
      const fact = facts.quizzes[node.config.quiz];
      if (!fact) return { done: false, error: 'content-invalid' };
      if (fact.problem) return { done: false, error: fact.problem };
      const counted = fact.plays.filter((p) => p.finished && p.timeEnd && p.timeEnd.getTime() >= v.timeStart.getTime());
      const min = node.config.min_result;
      const best = bestPlay(counted);
      if (counted.length < (node.config.min_plays ?? 1)) return { done: false };
      if (min != null && !(best && (best.percent ?? -1) >= min)) return { done: false };
      return best ? fromPlay(best) : { done: true };
    }
    case 'class': {
      const fact = facts.classes[node.config.class];
      if (!fact) return { done: false, error: 'content-invalid' };
      if (fact.problem) return { done: false, error: fact.problem };
      if (fact.progress === null) return { done: false, error: 'class-not-progressive' };
      const counts = fact.completedAt && (node.config.reuse || fact.completedAt.getTime() >= v.timeStart.getTime());
      if (counts) return { done: true, result: fact.progress, successful: true };
      // Entering adds a membership, which cannot replace an expired or unapproved one.
      if (fresh && (fact.membership === 'expired' || fact.membership === 'refused')) return { done: false, error: 'enroll-failed' };
      if (!fresh && (fact.membership === 'missing' || fact.membership === 'refused')) return { done: false, error: 'class-membership-missing' };
      if (!fresh && fact.membership === 'expired') return { done: false, error: 'class-membership-expired' };
      return { done: false, dueAt: fact.expiresAt && fact.expiresAt.getTime() > now.getTime() ? fact.expiresAt : null };
    }
    default:
      return { done: false, error: 'error' };
  }
}

function bestPlay(plays: PlayFact[]): PlayFact | undefined {
  let best: PlayFact | undefined;
  for (const p of plays) if (!best || (p.percent ?? -1) >= (best.percent ?? -1)) best = p;
  return best;
}

// ---------------------------------------------------------------------------------------------
// Split

/** The branch of a split for a user: a hash of user, node, run and visit, spread by weight. */
export function pickBranch<B extends { key: string; weight: number }>(branches: B[], userId: string, node: string, run: number, visit: number): B {
  const total = branches.reduce((s, b) => s + Math.max(0, b.weight), 0);
  const hash = createHash('sha256').update(`${userId}\u0000${node}\u0000${run}\u0000${visit}`).digest();
  const r = hash.readUInt32BE(0) / 0x1_0000_0000;
  if (total === 0) return branches[Math.floor(r * branches.length)]!;
  let at = r * total;
  for (const b of branches) {
    const w = Math.max(0, b.weight);
    if (at < w) return b;
    at -= w;
  }
  return branches.filter((b) => b.weight > 0).at(-1)!;
}

// ---------------------------------------------------------------------------------------------
// Time

interface ZonedParts { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number }

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short' });
    } catch {
      f = formatter('UTC');
    }
    formatters.set(tz, f);
  }
  return f;
}

const weekdays: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** The wall-clock fields of an instant in a time zone (an unknown zone: UTC); weekday 1 Monday .. 7 Sunday. */
export function zonedParts(at: Date, tz: string): ZonedParts {
  const parts: Record<string, string> = {};
  for (const p of formatter(tz).formatToParts(at)) parts[p.type] = p.value;
  return {
    year: Number(parts.year), month: Number(parts.month), day: Number(parts.day),
    hour: Number(parts.hour) % 24, minute: Number(parts.minute), second: Number(parts.second), weekday: weekdays[parts.weekday!] ?? 1,
  };
}

/** The instant a wall-clock time has in a time zone (a time skipped by a clock change: the instant after the gap). */
export function zonedTime(year: number, month: number, day: number, hour: number, minute: number, tz: string): Date {
  const wanted = Date.UTC(year, month - 1, day, hour, minute);
  let guess = wanted;
  for (let i = 0; i < 3; i++) {
    const p = zonedParts(new Date(guess), tz);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
    if (shown === wanted) break;
    guess += wanted - shown;
  }
  return new Date(guess);
}

function hhmm(text: string | undefined): [number, number] {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text ?? '');
  return m ? [Number(m[1]), Number(m[2])] : [0, 0];
}

/** When a wait that began at `from` ends. */
export function waitEnd(config: JourneyNodeOf<'wait'>['config'], from: Date, userTimezone: string): Date {
  const tz = config.timezone || 'UTC';
  switch (config.mode) {
    case 'duration':
      return new Date(from.getTime() + config.minutes * 60_000);
    case 'date': {
      const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}))?$/.exec(config.date);
      if (!m) return from;
      const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
      return m[4] !== undefined ? zonedTime(y, mo, d, Number(m[4]), Number(m[5]), tz) : zonedTime(y, mo, d, 0, 0, userTimezone || 'UTC');
    }
    case 'weekday': {
      const [h, mi] = hhmm(config.time);
      const p = zonedParts(from, tz);
      for (let i = 0; i <= 7; i++) {
        const day = new Date(Date.UTC(p.year, p.month - 1, p.day + i));
        const at = zonedTime(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), h, mi, tz);
        if (zonedParts(at, tz).weekday === config.weekday && at.getTime() >= from.getTime()) return at;
      }
      return from;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Conditions

type Value = number | string | boolean | string[] | null;

interface RuleScope {
  state: JourneyState;
  visits: Visit[];
  facts: EngineFacts;
  now: Date;
  nodes: Map<string, JourneyNode>;
  visitCount(key: string): number;
}

function minutes(v: Visit, now: Date): number {
  return ((v.timeEnd ?? now).getTime() - v.timeStart.getTime()) / 60_000;
}

function inVisit(p: PlayFact, v: Visit): boolean {
  return p.finished && !!p.timeEnd && p.timeEnd.getTime() >= v.timeStart.getTime() && (!v.timeEnd || p.timeEnd.getTime() <= v.timeEnd.getTime());
}

function aggregate(values: Value[], how: Aggregate, lowerIsBetter = false): Value {
  const present = values.filter((x) => x !== null && x !== undefined);
  if (!present.length) return null;
  if (how === 'first') return present[0]!;
  if (how === 'last') return present[present.length - 1]!;
  if (typeof present[0] === 'boolean') {
    const trues = present.filter((x) => x === true).length;
    if (how === 'best') return trues > 0;
    if (how === 'worst') return trues === present.length;
    return trues * 2 >= present.length;
  }
  const nums = present.map(Number).filter((x) => Number.isFinite(x));
  if (!nums.length) return present[present.length - 1]!;
  if (how === 'average') return nums.reduce((a, b) => a + b, 0) / nums.length;
  const max = Math.max(...nums);
  const min = Math.min(...nums);
  return (how === 'best') !== lowerIsBetter ? max : min;
}

/** The value a rule field has for the user now. */
export function fieldValue(rule: ConditionRule, scope: RuleScope): Value {
  const { state, visits, facts, now } = scope;
  const steps = visits.filter((v) => stepTypes.has(v.type) && v.status === 'completed');
  const step = steps[steps.length - 1];
  const param = rule.param ?? '';
  const measure = rule.measure ?? 'points';
  const skillOf = (v: Visit | undefined, skill: string): number | null => v?.skills?.[skill]?.[measure] ?? null;
  switch (rule.field) {
    case 'step.result': return step?.result ?? null;
    case 'step.successful': return step?.successful ?? null;
    case 'step.grade': return step?.grade ?? null;
    case 'step.attempts': return step ? stepAttempts(step, scope) : null;
    case 'step.time_spent': return step ? minutes(step, now) : null;
    case 'step.visits': return step ? scope.visitCount(step.node) : null;
    case 'step.skill': return skillOf(step, param);
    case 'node.completed': return visits.some((v) => v.node === param && v.status === 'completed');
    case 'node.visits': return scope.visitCount(param);
    case 'node.result':
    case 'node.successful':
    case 'node.grade':
    case 'node.time_spent':
    case 'node.skill': {
      const [key, skill] = rule.field === 'node.skill' ? splitSkillParam(param) : [param, ''];
      const of = visits.filter((v) => v.node === key && v.status === 'completed');
      const how = rule.aggregate ?? 'last';
      if (rule.field === 'node.grade') {
        if (how === 'best' || how === 'worst') {
          const ranked = of.filter((v) => v.grade !== null && v.result !== null).sort((a, b) => a.result! - b.result!);
          return (how === 'best' ? ranked[ranked.length - 1] : ranked[0])?.grade ?? null;
        }
        return aggregate(of.map((v) => v.grade), how === 'average' ? 'last' : how);
      }
      const pick = (v: Visit): Value =>
        rule.field === 'node.result' ? v.result : rule.field === 'node.successful' ? v.successful
          : rule.field === 'node.time_spent' ? minutes(v, now) : skillOf(v, skill);
      return aggregate(of.map(pick), how, rule.field === 'node.time_spent');
    }
    case 'exam.custom': return facts.examCustom[param] ?? null;
    case 'user.gender': return facts.user.gender;
    case 'user.customer_field': return facts.user.customerFields[param] ?? null;
    case 'user.department': return facts.user.departments;
    case 'user.team': return facts.user.teams;
    case 'user.generated': return facts.user.generated;
    case 'journey.flag': return state.flags[param] ?? null;
    case 'journey.days': return state.timeStart ? Math.floor((now.getTime() - state.timeStart.getTime()) / 86_400_000) : 0;
    case 'journey.steps': return stepsCompleted(visits);
    case 'date.weekday': {
      const [h, m] = hhmm(rule.time);
      return zonedParts(new Date(now.getTime() - (h * 60 + m) * 60_000), rule.timezone || 'UTC').weekday;
    }
    case 'date.hour': return zonedParts(now, rule.timezone || 'UTC').hour;
    case 'date.date': {
      const p = zonedParts(now, rule.timezone || 'UTC');
      return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
    }
    case 'date.datetime': return now.getTime();
  }
  return null;
}

function stepAttempts(step: Visit, { facts, nodes }: RuleScope): number | null {
  const config = (nodes.get(step.node)?.config ?? {}) as { exam?: string; quiz?: string };
  const plays = step.type === 'quiz' ? facts.quizzes[config.quiz ?? '']?.plays
    : step.type === 'exam' ? facts.exams[config.exam ?? '']?.plays
      : step.type === 'start' ? facts.exams[facts.startExam]?.plays : undefined;
  if (!plays) return null;
  return plays.filter((p) => inVisit(p, step)).length;
}

function toNumber(x: unknown): number | null {
  if (typeof x === 'number') return Number.isFinite(x) ? x : null;
  if (typeof x === 'boolean') return null;
  if (typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x))) return Number(x);
  return null;
}

function toInstant(x: unknown): number | null {
  if (typeof x === 'number') return x;
  if (typeof x !== 'string') return null;
  const t = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(x) || !x.includes(':') ? x : `${x.replace(' ', 'T')}Z`);
  return Number.isFinite(t) ? t : null;
}

function toBool(x: unknown): boolean | null {
  if (typeof x === 'boolean') return x;
  if (x === 'true' || x === 1 || x === '1') return true;
  if (x === 'false' || x === 0 || x === '0') return false;
  return null;
}

/** Compares a field value with a rule value: -1, 0, 1, or null when they cannot be compared. */
function compare(actual: Exclude<Value, string[] | null>, expected: unknown, datetime: boolean): number | null {
  if (datetime) {
    const b = toInstant(expected);
    return b === null ? null : Math.sign((actual as number) - b);
  }
  if (typeof actual === 'boolean') {
    const b = toBool(expected);
    return b === null ? null : actual === b ? 0 : actual ? 1 : -1;
  }
  const a = toNumber(actual);
  const b = toNumber(expected);
  if (a !== null && b !== null) return Math.sign(a - b);
  if (typeof actual === 'number' || expected === null || expected === undefined || typeof expected === 'object') return null;
  const x = String(actual).toLowerCase();
  const y = String(expected).toLowerCase();
  return x === y ? 0 : x < y ? -1 : 1;
}

/** Whether a value satisfies an operator. A missing value satisfies only empty, neq and not_in. */
export function applyOperator(actual: Value, operator: ConditionRule['operator'], expected: unknown, datetime = false): boolean {
  const isEmpty = actual === null || actual === '' || (Array.isArray(actual) && actual.length === 0);
  if (operator === 'empty') return isEmpty;
  if (operator === 'not_empty') return !isEmpty;
  if (operator === 'is_true') return toBool(Array.isArray(actual) ? null : actual) === true;
  if (operator === 'is_false') return toBool(Array.isArray(actual) ? null : actual) === false;
  const list = Array.isArray(expected) ? expected : [expected];
  if (Array.isArray(actual)) {
    const has = (x: unknown) => actual.some((a) => compare(a, x, false) === 0);
    switch (operator) {
      case 'eq': case 'contains': return has(expected);
      case 'neq': return !has(expected);
      case 'in': return list.some(has);
      case 'not_in': return !list.some(has);
      default: return false;
    }
  }
  if (actual === null) return operator === 'neq' || operator === 'not_in';
  const cmp = (x: unknown) => compare(actual, x, datetime);
  switch (operator) {
    case 'eq': return cmp(expected) === 0;
    case 'neq': return cmp(expected) !== 0;
    case 'gt': return cmp(expected) === 1;
    case 'gte': { const c = cmp(expected); return c === 0 || c === 1; }
    case 'lt': return cmp(expected) === -1;
    case 'lte': { const c = cmp(expected); return c === 0 || c === -1; }
    case 'between': {
      if (!Array.isArray(expected) || expected.length !== 2) return false;
      const lo = cmp(expected[0]);
      const hi = cmp(expected[1]);
      return (lo === 0 || lo === 1) && (hi === 0 || hi === -1);
    }
    case 'in': return list.some((x) => cmp(x) === 0);
    case 'not_in': return !list.some((x) => cmp(x) === 0);
    case 'contains': return typeof expected !== 'object' && String(actual).toLowerCase().includes(String(expected).toLowerCase());
    default: return false;
  }
}

function evaluateRule(rule: ConditionRule, m: Machine): boolean {
  const scope: RuleScope = { state: m.state, visits: m.visits, facts: m.facts, now: m.now, nodes: m.nodes, visitCount: (k) => m.visitCount(k) };
  return applyOperator(fieldValue(rule, scope), rule.operator, rule.value, rule.field === 'date.datetime');
}

// ---------------------------------------------------------------------------------------------
// Counts of the user-state record

/** Distinct exam, class and Quiz set steps completed in the run, start included. */
export function stepsCompleted(visits: Visit[]): number {
  return new Set(visits.filter((v) => stepTypes.has(v.type) && v.status === 'completed').map((v) => v.node)).size;
}

export function stepsTotal(graph: JourneyGraph): number {
  return graph.nodes.filter((n) => stepTypes.has(n.type)).length;
}

/**
 * A lower bound of the steps still to complete: the fewest exam, class and Quiz set steps on any
 * path from the user's node to an end (an end node or an unconnected output), the current step
 * included while it is not completed. Null when the user is not running or no end is reachable.
 */
export function stepsRemaining(graph: JourneyGraph, state: JourneyState): number | null {
  if ((state.status !== 'active' && state.status !== 'waiting') || !state.node) return null;
  const nodes = new Map(graph.nodes.map((n) => [n.node, n]));
  const cost = (key: string) => (stepTypes.has(nodes.get(key)?.type as NodeType) ? 1 : 0);
  if (!nodes.has(state.node)) return null;
  // 0-1 breadth-first search: dist[node] = steps counted on entering it, the node's own included.
  const dist = new Map<string, number>([[state.node, cost(state.node)]]);
  const deque: string[] = [state.node];
  let best: number | null = null;
  while (deque.length) {
    const key = deque.shift()!;
    const d = dist.get(key)!;
    const node = nodes.get(key)!;
    if (node.type === 'end') { best = best === null ? d : Math.min(best, d); continue; }
    for (const out of outputsOf(node)) {
      const target = node.next?.[out];
      if (target == null || !nodes.has(target)) { best = best === null ? d : Math.min(best, d); continue; }
      const nd = d + cost(target);
      if (nd < (dist.get(target) ?? Infinity)) {
        dist.set(target, nd);
        if (nd === d) deque.unshift(target); else deque.push(target);
      }
    }
  }
  return best;
}
