/**
 * The portable journey format (schema 1): the shape a journey is exported and imported in, and the
 * shape the engine walks. Types only, plus the facts every reader needs (limits, which outputs a
 * node has, which nodes are instant); parsing and validation live in `graph-validation.ts`, moving
 * users in `engine.ts`.
 */

export const JOURNEY_SCHEMA_VERSION = 1;

export const journeyLimits = Object.freeze({
  nodes: 200,
  /** Nodes and settings together, as characters of JSON: checked before any node is. */
  documentSize: 500_000,
  /** Error-level problems collected before validation stops; also the most issues (and ignored fields) a refusal lists. */
  problems: 100,
  nodeKey: 32,
  label: 64,
  title: 255,
  description: 1024,
  maxVisits: { min: 1, max: 50, default: 5 },
  educators: 10,
  conditionBranches: 16,
  rulesPerBranch: 16,
  splitBranches: { min: 2, max: 16 },
  splitWeight: { min: 0, max: 1000 },
  listItems: 64,
  param: 64,
  flagText: 64,
  notifyMessage: 500,
  outcome: 64,
  minPlays: { min: 1, max: 100 },
  waitMinutes: { min: 1, max: 525_600 },
});

/** 1-32 letters, digits, `-` or `_`. */
export const NODE_KEY = /^[A-Za-z0-9_-]{1,32}$/;

export interface JourneySettings {
  title: string | null;
  description: string | null;
  /** 1-50; a user visiting a node more often stops with outcome `loop-limit`. */
  max_visits: number;
  restartable: boolean;
  notify_user: boolean;
  /** User identification strings (the owner and managers of the starting exam); empty: the owner. */
  educators: string[];
}

export const defaultJourneySettings: JourneySettings = Object.freeze({
  title: null,
  description: null,
  max_visits: journeyLimits.maxVisits.default,
  restartable: false,
  notify_user: false,
  educators: [],
}) as JourneySettings;

/** When an exam step (or the start) counts as completed. */
export type CompleteOn = 'finish' | 'success' | 'final';

export type Aggregate = 'last' | 'first' | 'best' | 'worst' | 'average';
export type Measure = 'points' | 'percent';

export const ruleFields = [
  'step.result', 'step.successful', 'step.grade', 'step.attempts', 'step.time_spent', 'step.visits', 'step.skill',
  'node.result', 'node.successful', 'node.grade', 'node.time_spent', 'node.completed', 'node.visits', 'node.skill',
  'exam.custom',
  'user.gender', 'user.customer_field', 'user.department', 'user.team', 'user.generated',
  'journey.flag', 'journey.days', 'journey.steps',
  'date.weekday', 'date.hour', 'date.date', 'date.datetime',
] as const;
export type RuleField = (typeof ruleFields)[number];

export const ruleOperators = [
  'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not_in', 'contains', 'empty', 'not_empty', 'is_true', 'is_false',
] as const;
export type RuleOperator = (typeof ruleOperators)[number];

export interface ConditionRule {
  field: RuleField;
  /** Needed by step.skill, node.* fields, exam.custom, user.customer_field, journey.flag (at most 64). */
  param?: string;
  operator: RuleOperator;
  /** between: [min, max] inclusive; in / not_in: a list of at most 64; empty, not_empty, is_true, is_false: none. */
  value?: unknown;
  /** node.* fields except node.completed and node.visits; default last. */
  aggregate?: Aggregate;
  /** Skill fields; default points. */
  measure?: Measure;
  /** HH:MM, date.weekday only. */
  time?: string;
  /** IANA name, default UTC. */
  timezone?: string;
}

/** `node.skill` names both the step and the skill: `<node key>:<skill identifier>` (a node key has no colon). */
export function splitSkillParam(param: string): [string, string] {
  const at = param.indexOf(':');
  return at < 0 ? [param, ''] : [param.slice(0, at), param.slice(at + 1)];
}

export interface ConditionBranch {
  key: string;
  label?: string;
  match: 'all' | 'any';
  rules: ConditionRule[];
}

export interface SplitBranch {
  key: string;
  label?: string;
  weight: number;
}

export type WaitConfig =
  | { mode: 'duration'; minutes: number; timezone?: string }
  /** `YYYY-MM-DD HH:MM` in the node timezone, or `YYYY-MM-DD`: the start of that day in each user's timezone. */
  | { mode: 'date'; date: string; timezone?: string }
  /** 1 Monday .. 7 Sunday, optional HH:MM (default 00:00). */
  | { mode: 'weekday'; weekday: number; time?: string; timezone?: string };

export interface NodeConfigs {
  start: { complete_on: CompleteOn };
  exam: { exam: string; complete_on: CompleteOn; retake: boolean; reuse: boolean };
  class: { class: string; reuse: boolean };
  quiz: { quiz: string; min_result?: number; min_plays: number };
  condition: { branches: ConditionBranch[]; else_label?: string };
  split: { branches: SplitBranch[] };
  wait: WaitConfig;
  notify: { target: 'user' | 'educators'; message: string };
  flag: { name: string; value: string };
  mark: { mode: 'mark' | 'unmark' };
  /** completed, failed or custom text of at most 64; default completed. */
  end: { outcome: string };
}

export type NodeType = keyof NodeConfigs;
export const nodeTypes = ['start', 'exam', 'class', 'quiz', 'condition', 'split', 'notify', 'flag', 'mark', 'wait', 'end'] as const satisfies readonly NodeType[];

export interface JourneyNodeOf<T extends NodeType> {
  node: string;
  type: T;
  label?: string;
  position?: { x: number; y: number };
  config: NodeConfigs[T];
  /** Each output of the node to the key of the next node; missing or null: unconnected (finishes with completed). */
  next: Record<string, string | null>;
}

export type JourneyNode = { [T in NodeType]: JourneyNodeOf<T> }[NodeType];

export interface JourneyGraph {
  schema: number;
  settings: JourneySettings;
  nodes: JourneyNode[];
}

/** Steps hold a user until the content is completed; the start is the starting exam. */
export const stepTypes = new Set<NodeType>(['start', 'exam', 'class', 'quiz']);
/** Instant nodes run at once: a loop made only of them would never stop. */
export const instantTypes = new Set<NodeType>(['condition', 'split', 'notify', 'flag', 'mark']);

/** The outputs a node has, in the order the format lists them. */
export function outputsOf(node: Pick<JourneyNode, 'type' | 'config'>): string[] {
  switch (node.type) {
    case 'start':
    case 'exam':
    case 'class':
    case 'quiz':
      return ['done'];
    case 'condition':
      return [...(node.config as NodeConfigs['condition']).branches.map((b) => b.key), 'else'];
    case 'split':
      return (node.config as NodeConfigs['split']).branches.map((b) => b.key);
    case 'notify':
    case 'flag':
    case 'mark':
    case 'wait':
      return ['next'];
    case 'end':
      return [];
  }
}

/** Statuses of a user in a journey (null: not entered yet). */
export const journeyUserStatuses = ['active', 'waiting', 'error', 'completed', 'stopped'] as const;
export type JourneyUserStatus = (typeof journeyUserStatuses)[number];

/** Statuses of one visit of a step. */
export const visitStatuses = ['active', 'waiting', 'completed', 'moved', 'stopped', 'error'] as const;
export type VisitStatus = (typeof visitStatuses)[number];

export const journeyErrorCodes = [
  'content-invalid', 'content-archived', 'content-locked', 'content-closed', 'class-not-progressive',
  'class-membership-missing', 'class-membership-expired', 'attempts-exhausted', 'enroll-failed', 'error',
] as const;
export type JourneyErrorCode = (typeof journeyErrorCodes)[number];

export const manualChangeTypes = ['move', 'stop', 'resume', 'restart'] as const;
export type ManualChangeType = (typeof manualChangeTypes)[number];
