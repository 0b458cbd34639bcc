import { builder } from '../builder.ts';
import * as journeyUsers from '../../services/journeys/journey-users.service.ts';
import { changeJourneyUser } from '../../services/journeys/manual.service.ts';
import type { JourneySummary } from '../../services/journeys/journey-users.service.ts';

/**
 * Users in journeys: `Exam.journeyUser` (the user-state record), `Exam.journeyDashboard` (users
 * per status and per node) and the educators' manual changes (move, stop, resume, restart).
 */

type Rec = Record<string, any>;
const get = <T>(key: string) => (r: Rec) => (r[key] ?? null) as T | null;

const DecisionType = builder.objectRef<Rec>('JourneyDecision').implement({
  description: 'An instant node passed after a visit: condition, split, notify, flag or mark.',
  fields: (t) => ({
    decision: t.string({ description: 'The node key.', resolve: (d) => d.decision }),
    type: t.string({ resolve: (d) => d.type }),
    title: t.string({ nullable: true, resolve: get<string>('title') }),
    output: t.string({ nullable: true, description: 'The output taken.', resolve: get<string>('output') }),
    label: t.string({ nullable: true, description: "The branch's label.", resolve: get<string>('label') }),
  }),
});

const VisitType = builder.objectRef<Rec>('JourneyVisit').implement({
  description: 'A visit of a node by the user in a run.',
  fields: (t) => ({
    run: t.int({ resolve: (v) => v.run }),
    visit: t.int({ description: 'From 1 within the run.', resolve: (v) => v.visit }),
    step: t.string({ description: 'The node key.', resolve: (v) => v.step }),
    type: t.string({ resolve: (v) => v.type }),
    title: t.string({ nullable: true, resolve: get<string>('title') }),
    content: t.string({ nullable: true, description: 'The exam, class or Quiz set of a step.', resolve: get<string>('content') }),
    outcome: t.string({ nullable: true, description: 'The output taken (an end node: its outcome).', resolve: get<string>('outcome') }),
    status: t.string({ description: 'active, waiting, completed, moved, stopped or error.', resolve: (v) => v.status }),
    timeStart: t.field({ type: 'DateTime', resolve: (v) => v.time_start }),
    timeEnd: t.field({ type: 'DateTime', nullable: true, resolve: get<Date>('time_end') }),
    timeSpent: t.int({ nullable: true, description: 'Minutes, once ended.', resolve: get<number>('time_spent') }),
    result: t.float({ nullable: true, description: 'Percent.', resolve: get<number>('result') }),
    successful: t.boolean({ nullable: true, resolve: get<boolean>('successful') }),
    grade: t.string({ nullable: true, resolve: get<string>('grade') }),
    play: t.string({ nullable: true, resolve: get<string>('play') }),
    skills: t.field({ type: 'JSONObject', nullable: true, description: 'Keyed by skill identifier.', resolve: get<Rec>('skills') }),
    decisions: t.field({ type: [DecisionType], resolve: (v) => v.decisions }),
  }),
});

const PlaceType = builder.objectRef<Rec>('JourneyPlace').implement({
  fields: (t) => ({
    step: t.string({ nullable: true, resolve: get<string>('step') }),
    status: t.string({ nullable: true, resolve: get<string>('status') }),
  }),
});

const ChangeType = builder.objectRef<Rec>('JourneyChange').implement({
  description: 'A manual change: by an educator (source operator) or by publishing a version without the user\'s node (source publish).',
  fields: (t) => ({
    run: t.int({ resolve: (e) => e.run }),
    type: t.string({ description: 'move, stop, resume or restart.', resolve: (e) => e.type }),
    source: t.string({ description: 'operator or publish.', resolve: (e) => e.source }),
    from: t.field({ type: PlaceType, resolve: (e) => e.from }),
    to: t.field({ type: PlaceType, resolve: (e) => e.to }),
    operator: t.string({ nullable: true, resolve: get<string>('operator') }),
    time: t.field({ type: 'DateTime', resolve: (e) => e.time }),
  }),
});

const StateType = builder.objectRef<Rec>('JourneyUserState').implement({
  description: "A user's place in an exam's journey (the journey user-state record).",
  fields: (t) => ({
    user: t.id({ resolve: (r) => r.user }),
    journey: t.string({ nullable: true, description: "The journey's title.", resolve: get<string>('journey') }),
    status: t.string({ nullable: true, description: 'active, waiting, error, completed or stopped; null: not entered yet.', resolve: get<string>('status') }),
    outcome: t.string({ nullable: true, resolve: get<string>('outcome') }),
    error: t.string({ nullable: true, resolve: get<string>('error') }),
    run: t.int({ nullable: true, resolve: get<number>('run') }),
    step: t.field({ type: 'JSONObject', nullable: true, description: 'The current step, with time_start.', resolve: get<Rec>('step') }),
    waitUntil: t.field({ type: 'DateTime', nullable: true, resolve: get<Date>('wait_until') }),
    timeStart: t.field({ type: 'DateTime', nullable: true, resolve: get<Date>('time_start') }),
    timeEnd: t.field({ type: 'DateTime', nullable: true, resolve: get<Date>('time_end') }),
    stepsCompleted: t.int({ nullable: true, resolve: get<number>('steps_completed') }),
    stepsTotal: t.int({ nullable: true, resolve: get<number>('steps_total') }),
    stepsRemaining: t.int({ nullable: true, description: 'A lower bound on the shortest path; null when not running or no end is reachable.', resolve: get<number>('steps_remaining') }),
    flags: t.field({ type: 'JSONObject', nullable: true, resolve: get<Rec>('flags') }),
    history: t.field({ type: [VisitType], resolve: (r) => r.history ?? [] }),
    events: t.field({ type: [ChangeType], resolve: (r) => r.events ?? [] }),
  }),
});

const CountsType = builder.objectRef<JourneySummary['users']>('JourneyUserCounts').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    active: t.exposeInt('active'),
    waiting: t.exposeInt('waiting'),
    error: t.exposeInt('error'),
    completed: t.exposeInt('completed'),
    stopped: t.exposeInt('stopped'),
  }),
});

const NodeCountType = builder.objectRef<JourneySummary['nodes'][number]>('JourneyNodeUsers').implement({
  description: 'A node of the published version with the users standing on it.',
  fields: (t) => ({
    node: t.exposeString('node'),
    type: t.exposeString('type'),
    label: t.exposeString('label', { nullable: true }),
    users: t.exposeInt('users'),
    active: t.exposeInt('active'),
    waiting: t.exposeInt('waiting'),
    error: t.exposeInt('error'),
  }),
});

const DashboardType = builder.objectRef<JourneySummary>('JourneyDashboard').implement({
  description: "The journey's users per status and per node (a constant number of statements whatever the number of users).",
  fields: (t) => ({
    journey: t.exposeID('journey'),
    title: t.exposeString('title', { nullable: true }),
    active: t.exposeBoolean('active'),
    version: t.exposeInt('version'),
    published: t.field({ type: 'DateTime', nullable: true, resolve: (d) => d.published }),
    users: t.field({ type: CountsType, resolve: (d) => d.users }),
    nodes: t.field({ type: [NodeCountType], resolve: (d) => d.nodes }),
  }),
});

builder.prismaObjectFields('Exam', (t) => ({
  journeyUser: t.field({
    type: StateType,
    description: "A user's place in the journey this exam starts (the user themselves, or report on the exam).",
    args: { user: t.arg.id({ required: true }) },
    resolve: (exam, args, ctx) => journeyUsers.getJourneyUser(ctx, { exam: exam.id, user: String(args.user) }),
  }),
  journeyDashboard: t.field({
    type: DashboardType,
    description: 'Users per status and per node of the journey this exam starts (report on the exam).',
    resolve: (exam, _args, ctx) => journeyUsers.getJourneySummary(ctx, { exam: exam.id }),
  }),
}));

const ChangeInput = builder.inputType('JourneyUserChangeInput', {
  fields: (t) => ({
    exam: t.id({ required: true, description: 'The starting exam.' }),
    user: t.id({ required: true }),
  }),
});
const MoveInput = builder.inputType('MoveJourneyUserInput', {
  fields: (t) => ({
    exam: t.id({ required: true, description: 'The starting exam.' }),
    user: t.id({ required: true }),
    to: t.string({ required: true, description: 'A node key of the published journey.' }),
  }),
});

/** A manual change of one user, answered with the user's state afterwards (`to`: a move's node). */
const change = (type: 'move' | 'stop' | 'resume' | 'restart') => (_root: unknown, { input }: { input: { exam: string | number; user: string | number; to?: string } }, ctx: Parameters<typeof changeJourneyUser>[0]) =>
  changeJourneyUser(ctx, { exam: String(input.exam), user: String(input.user), type, ...(input.to !== undefined ? { to: input.to } : {}) }).then((r) => journeyUsers.getJourneyUser(ctx, r));

builder.mutationFields((t) => ({
  moveJourneyUser: t.field({
    type: StateType,
    description: 'Moves a user to a node of the published journey (control on the exam); recorded as a change of source operator.',
    args: { input: t.arg({ type: MoveInput, required: true }) },
    resolve: change('move'),
  }),
  stopJourneyUser: t.field({ type: StateType, description: "Stops a running user's journey.", args: { input: t.arg({ type: ChangeInput, required: true }) }, resolve: change('stop') }),
  resumeJourneyUser: t.field({ type: StateType, description: 'Resumes a stopped or error user on their node.', args: { input: t.arg({ type: ChangeInput, required: true }) }, resolve: change('resume') }),
  restartJourneyUser: t.field({ type: StateType, description: 'Starts a new run from the start node.', args: { input: t.arg({ type: ChangeInput, required: true }) }, resolve: change('restart') }),
}));
