import type { Context } from '../../context.ts';
import type { Exam } from '../../generated/prisma/client.ts';
import { canEach, heldLevels } from '../../auth/policy.ts';
import {
  JOURNEY_SCHEMA_VERSION, NODE_KEY, defaultJourneySettings, instantTypes, journeyLimits, nodeTypes, outputsOf, ruleFields,
  ruleOperators, splitSkillParam, stepTypes,
  type ConditionBranch, type ConditionRule, type JourneyGraph, type JourneyNode, type JourneySettings, type NodeConfigs,
  type NodeType, type RuleField, type RuleOperator, type SplitBranch, type WaitConfig,
} from './format.ts';

/**
 * Parsing and validating a journey graph in the portable format. Problems are collected together,
 * none stops the others, up to a bound: a graph over the node or size limit is not looked at any
 * further, and collecting stops after `journeyLimits.problems` errors, so that no graph costs more
 * than a bounded amount of work or answer. An import is refused with the problems, a draft shows
 * them as its issues, and publishing is blocked by the error-level ones. `parseJourneyGraph` is pure
 * (shape, configs, structure); `validateJourneyGraph` adds what needs the database (content,
 * departments, educators).
 */

export type IssueLevel = 'error' | 'warning';

export interface Issue {
  level: IssueLevel;
  code: IssueCode;
  /** Key of the node at fault; null for the graph or its settings. */
  node: string | null;
  /** Output of the node at fault (a condition's branch for its rules). */
  output: string | null;
  message: string;
}

/** The issue codes, stable: clients may switch on them; the reference at /api/docs lists them with these texts. */
export const issueCodes = {
  'format-invalid': 'nodes is not a list (or JSON text of one), settings not a hash, or a node not a hash',
  'schema-unsupported': 'schema is not a supported version of the format (1)',
  'limit-exceeded': 'more nodes, branches, rules, list items, educators or characters than the format allows',
  'start-missing': 'no start node',
  'start-multiple': 'more than one start node (each extra one is named)',
  'key-invalid': 'a node key is missing or not 1-32 letters, digits, - or _',
  'key-duplicate': 'two nodes share a key',
  'type-invalid': 'a node type that does not exist',
  'node-invalid': 'label, position or next of a node is malformed',
  'next-unknown': 'an output leads to a node key that is not in the graph',
  'output-unknown': 'next names an output the node does not have',
  'config-invalid': 'a config field of the node is missing, of the wrong type or out of range (rules included)',
  'settings-invalid': 'a setting is of the wrong type or out of range',
  'educator-invalid': 'an educator is not the owner or a manager of the starting exam',
  'content-not-controlled': 'a step names an exam, class or Quiz set the caller does not control and the journey does not use yet',
  'content-missing': 'a step names content the journey used that no longer exists',
  'exam-archived': 'the starting exam or an exam step is archived',
  'quiz-archived': 'a Quiz set step is archived',
  'exam-championship': 'the starting exam is a championship: championships cannot start a journey',
  'department-unknown': "a user.department value is not a department of the starting exam's organization",
  'instant-loop': 'a loop made only of instant nodes (condition, split, notify, flag, mark): it would never stop',
  unreachable: 'a node no path from the start reaches (warning)',
  'field-unknown': "the param of exam.custom is not a user data field of the starting exam, or that of user.customer_field not a configured user custom field (warning: it may be added later)",
  'output-unconnected': 'an output leads nowhere: users taking it finish with outcome completed (warning)',
} as const;
export type IssueCode = keyof typeof issueCodes;

const WARNINGS = new Set<IssueCode>(['unreachable', 'output-unconnected', 'field-unknown']);

/** Warnings inform; every other issue blocks saving and publishing. */
export const issueLevel = (code: IssueCode): IssueLevel => (WARNINGS.has(code) ? 'warning' : 'error');

/** What a caller sends: nodes and settings as native values or JSON text, and the schema version. */
export interface RawGraph {
  nodes: unknown;
  settings?: unknown;
  schema?: unknown;
}

/** What a validation found. */
export interface Findings {
  issues: Issue[];
  /** The error-level problems found. */
  problems: number;
  /** False when validation stopped before the end (a limit, or too many problems): there are at least `problems`. */
  exact: boolean;
}

export interface ParsedGraph extends Findings {
  /** The graph with defaults filled in; meaningful only where no error was found. */
  graph: JourneyGraph;
  /** Unknown fields that were ignored, as paths (`nodes[3].foo`, `settings.bar`); the first `journeyLimits.problems`. */
  ignored: string[];
}

type Raw = Record<string, unknown>;
const isHash = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const quote = (v: unknown) => (typeof v === 'string' ? `'${v.length > 64 ? `${v.slice(0, 64)}…` : v}'` : JSON.stringify(v)?.slice(0, 64) ?? String(v));

/** Informative fields of an exported node (GET adds them), accepted and ignored on import. */
const INFORMATIVE = new Set(['marker', 'title', 'content']);

/** Thrown by a full collector: what is left of the graph is not looked at. */
const FULL = Symbol('enough problems');

class Collector {
  readonly issues: Issue[] = [];
  readonly ignored: string[] = [];
  problems = 0;
  exact = true;

  add(code: IssueCode, node: string | null, output: string | null, message: string): void {
    const level = issueLevel(code);
    if (level === 'error' && ++this.problems > journeyLimits.problems) this.stop();
    this.issues.push({ level, code, node, output, message });
  }

  ignore(path: string): void {
    if (this.ignored.length < journeyLimits.problems) this.ignored.push(path);
  }

  /** A problem that makes the rest of the graph not worth looking at. */
  refuse(message: string): never {
    this.add('limit-exceeded', null, null, message);
    return this.stop();
  }

  private stop(): never {
    this.exact = false;
    throw FULL;
  }

  findings(): Findings {
    return { issues: this.issues, problems: this.problems, exact: this.exact };
  }
}

/** For the catch of checks run until the collector is full: anything else goes on. */
function whenFull(error: unknown): void {
  if (error !== FULL) throw error;
}

/** JSON text is parsed; anything else is taken as it is. A broken text is reported, not thrown. */
function fromJsonText(value: unknown, name: string, c: Collector): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    c.add('format-invalid', null, null, `${name} is not valid JSON text`);
    return undefined;
  }
}

/**
 * Reads the fields of one hash, reporting each problem against a node (and an output), and keeps
 * track of the fields read: the rest are unknown and go to the ignored list.
 */
class Fields {
  private readonly used = new Set<string>();

  constructor(
    private readonly c: Collector,
    private readonly raw: Raw,
    readonly path: string,
    readonly node: string | null,
    readonly output: string | null = null,
    private readonly what = 'config',
  ) {}

  has(name: string): boolean {
    this.used.add(name);
    return this.raw[name] !== undefined && this.raw[name] !== null;
  }

  get(name: string): unknown {
    this.used.add(name);
    return this.raw[name];
  }

  problem(code: IssueCode, message: string): void {
    this.c.add(code, this.node, this.output, this.node ? `Node '${this.node}': ${message}` : message);
  }

  /** `config.exam` for messages. */
  name(field: string): string {
    return `${this.what}.${field}`;
  }

  text(field: string, o: { min?: number; max: number; required?: boolean; fallback?: string; code?: IssueCode }): string | undefined {
    const v = this.get(field);
    if (v === undefined || v === null) {
      if (o.required) this.problem('config-invalid', `${this.name(field)} is required`);
      return o.fallback;
    }
    const t = typeof v === 'number' ? String(v) : v;
    if (typeof t !== 'string') {
      this.problem(o.code === 'settings-invalid' ? o.code : 'config-invalid', `${this.name(field)} must be text`);
      return o.fallback;
    }
    if (t.length < (o.min ?? 0)) {
      this.problem(o.code === 'settings-invalid' ? o.code : 'config-invalid', `${this.name(field)} must not be empty`);
      return o.fallback;
    }
    if (t.length > o.max) {
      this.problem('limit-exceeded', `${this.name(field)} must be at most ${o.max} characters`);
      return o.fallback;
    }
    return t;
  }

  int(field: string, o: { min: number; max: number; required?: boolean; fallback?: number; code?: IssueCode }): number | undefined {
    const v = this.get(field);
    if (v === undefined || v === null) {
      if (o.required) this.problem(o.code ?? 'config-invalid', `${this.name(field)} is required`);
      return o.fallback;
    }
    const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < o.min || n > o.max) {
      this.problem(o.code ?? 'config-invalid', `${this.name(field)} must be a whole number from ${o.min} to ${o.max}`);
      return o.fallback;
    }
    return n;
  }

  num(field: string, o: { min: number; max: number }): number | undefined {
    const v = this.get(field);
    if (v === undefined || v === null) return undefined;
    const n = typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < o.min || n > o.max) {
      this.problem('config-invalid', `${this.name(field)} must be a number from ${o.min} to ${o.max}`);
      return undefined;
    }
    return n;
  }

  bool(field: string, fallback: boolean, code: IssueCode = 'config-invalid'): boolean {
    const v = this.get(field);
    if (v === undefined || v === null) return fallback;
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === '1' || v === 1) return true;
    if (v === 'false' || v === '0' || v === 0) return false;
    this.problem(code, `${this.name(field)} must be true or false`);
    return fallback;
  }

  oneOf<const T extends string>(field: string, values: readonly T[], o: { fallback?: T; required?: boolean } = {}): T | undefined {
    const v = this.get(field);
    if (v === undefined || v === null) {
      if (o.required) this.problem('config-invalid', `${this.name(field)} is required (one of ${values.join(', ')})`);
      return o.fallback;
    }
    if (typeof v !== 'string' || !values.includes(v as T)) {
      this.problem('config-invalid', `${this.name(field)} must be one of ${values.join(', ')}, not ${quote(v)}`);
      return o.fallback;
    }
    return v as T;
  }

  /** Fields not read are unknown: they are ignored and listed. */
  done(c: Collector, skip: ReadonlySet<string> = new Set()): void {
    for (const key of Object.keys(this.raw)) {
      if (!this.used.has(key) && !skip.has(key)) c.ignore(`${this.path}.${key}`);
    }
  }
}

// -------------------------------------------------------------------------------------------------
// Values

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_TIME = /^(\d{4})-(\d{2})-(\d{2}) ([01]\d|2[0-3]):([0-5]\d)$/;

function realDay(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(+y, +m - 1, +d));
  return date.getUTCFullYear() === +y && date.getUTCMonth() === +m - 1 && date.getUTCDate() === +d;
}

export const isDay = (v: unknown): v is string => typeof v === 'string' && ((m) => !!m && realDay(m[1]!, m[2]!, m[3]!))(DAY.exec(v));
export const isDayTime = (v: unknown): v is string => typeof v === 'string' && ((m) => !!m && realDay(m[1]!, m[2]!, m[3]!))(DAY_TIME.exec(v));
export const isTime = (v: unknown): v is string => typeof v === 'string' && HHMM.test(v);

/** An IANA time zone name Intl knows (`Europe/Vienna`, `UTC`); offsets such as `+01:00` are not names. */
export function isTimeZone(v: unknown): v is string {
  if (typeof v !== 'string' || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(v) || v.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
    return true;
  } catch {
    return false;
  }
}

function timezone(f: Fields): string {
  const v = f.get('timezone');
  if (v === undefined || v === null) return 'UTC';
  if (!isTimeZone(v)) {
    f.problem('config-invalid', `${f.name('timezone')} must be an IANA time zone name (such as Europe/Vienna), not ${quote(v)}`);
    return 'UTC';
  }
  return v;
}

// -------------------------------------------------------------------------------------------------
// Condition rules

type Kind = 'number' | 'boolean' | 'text' | 'date' | 'datetime';

/** What each rule field compares, and its range where it has one. */
const fieldKinds: Record<RuleField, { kind: Kind; min?: number; max?: number; values?: readonly string[] }> = {
  'step.result': { kind: 'number', min: 0, max: 100 },
  'step.successful': { kind: 'boolean' },
  'step.grade': { kind: 'text' },
  'step.attempts': { kind: 'number', min: 0 },
  'step.time_spent': { kind: 'number', min: 0 },
  'step.visits': { kind: 'number', min: 0 },
  'step.skill': { kind: 'number', min: 0 },
  'node.result': { kind: 'number', min: 0, max: 100 },
  'node.successful': { kind: 'boolean' },
  'node.grade': { kind: 'text' },
  'node.time_spent': { kind: 'number', min: 0 },
  'node.completed': { kind: 'boolean' },
  'node.visits': { kind: 'number', min: 0 },
  'node.skill': { kind: 'number', min: 0 },
  'exam.custom': { kind: 'text' },
  'user.gender': { kind: 'text', values: ['male', 'female', 'other'] },
  'user.customer_field': { kind: 'text' },
  'user.department': { kind: 'text' },
  'user.team': { kind: 'text' },
  'user.generated': { kind: 'boolean' },
  'journey.flag': { kind: 'text' },
  'journey.days': { kind: 'number', min: 0 },
  'journey.steps': { kind: 'number', min: 0 },
  'date.weekday': { kind: 'number', min: 1, max: 7 },
  'date.hour': { kind: 'number', min: 0, max: 23 },
  'date.date': { kind: 'date' },
  'date.datetime': { kind: 'datetime' },
};

const operatorsOf: Record<Kind, readonly RuleOperator[]> = {
  number: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not_in', 'empty', 'not_empty'],
  boolean: ['eq', 'neq', 'is_true', 'is_false', 'empty', 'not_empty'],
  text: ['eq', 'neq', 'in', 'not_in', 'contains', 'empty', 'not_empty'],
  date: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between'],
  datetime: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between'],
};

const NO_VALUE = new Set<RuleOperator>(['empty', 'not_empty', 'is_true', 'is_false']);
const PARAM_FIELDS = new Set<RuleField>(['step.skill', 'exam.custom', 'user.customer_field', 'journey.flag']);
const needsParam = (field: RuleField) => PARAM_FIELDS.has(field) || field.startsWith('node.');
const takesAggregate = (field: RuleField) => field.startsWith('node.') && field !== 'node.completed' && field !== 'node.visits';
const takesMeasure = (field: RuleField) => field === 'step.skill' || field === 'node.skill';
const aggregates = ['last', 'first', 'best', 'worst', 'average'] as const;
const measures = ['points', 'percent'] as const;

/** One scalar value of the field's kind (numbers may come as text); undefined when it is not one. */
function scalarOf(kind: Kind, v: unknown, range: { min?: number; max?: number; values?: readonly string[] }): string | number | boolean | undefined {
  switch (kind) {
    case 'number': {
      const n = typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isFinite(n)) return undefined;
      if ((range.min !== undefined && n < range.min) || (range.max !== undefined && n > range.max)) return undefined;
      return n;
    }
    case 'boolean':
      return typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined;
    case 'text': {
      const t = typeof v === 'number' ? String(v) : v;
      if (typeof t !== 'string' || t.length > journeyLimits.param) return undefined;
      return range.values && !range.values.includes(t) ? undefined : t;
    }
    case 'date':
      return isDay(v) ? v : undefined;
    case 'datetime':
      return isDayTime(v) ? v : undefined;
  }
}

const kindText = (kind: Kind, range: { min?: number; max?: number; values?: readonly string[] }) =>
  kind === 'number'
    ? `a number${range.min !== undefined && range.max !== undefined ? ` from ${range.min} to ${range.max}` : range.min !== undefined ? ` of at least ${range.min}` : ''}`
    : kind === 'boolean'
      ? 'true or false'
      : kind === 'text'
        ? range.values
          ? `one of ${range.values.join(', ')}`
          : `text of at most ${journeyLimits.param} characters`
        : kind === 'date'
          ? 'a date (YYYY-MM-DD)'
          : 'a datetime (YYYY-MM-DD HH:MM)';

function parseRule(c: Collector, raw: unknown, path: string, node: string, output: string | null, stepKeys: ReadonlySet<string>): ConditionRule | undefined {
  if (!isHash(raw)) {
    c.add('config-invalid', node, output, `Node '${node}': ${path.slice(path.indexOf('config.'))} must be a hash`);
    return undefined;
  }
  const f = new Fields(c, raw, path, node, output, path.slice(path.indexOf('config.')));
  const field = f.oneOf('field', ruleFields, { required: true });
  const operator = f.oneOf('operator', ruleOperators, { required: true });
  const rule: Partial<ConditionRule> = {};
  if (field) rule.field = field;
  if (operator) rule.operator = operator;
  const kind = field ? fieldKinds[field] : undefined;

  if (field) {
    if (needsParam(field)) {
      const param = f.text('param', { min: 1, max: journeyLimits.param, required: true });
      if (param !== undefined) {
        rule.param = param;
        // node.skill names the step and the skill: `<node key>:<skill identifier>`.
        const [key, skill] = field === 'node.skill' ? splitSkillParam(param) : [param, 'none needed'];
        if (field.startsWith('node.') && !stepKeys.has(key)) f.problem('config-invalid', `${f.name('param')} of ${field} must name a step node (start, exam, class or quiz) by its key, not ${quote(key)}`);
        else if (!skill) f.problem('config-invalid', `${f.name('param')} of node.skill must be <node key>:<skill identifier>`);
      }
    } else if (f.has('param')) f.problem('config-invalid', `${f.name('param')} does not apply to ${field}`);

    if (takesAggregate(field)) rule.aggregate = f.oneOf('aggregate', aggregates, { fallback: 'last' });
    else if (f.has('aggregate')) f.problem('config-invalid', `${f.name('aggregate')} applies only to node.* fields other than node.completed and node.visits`);

    if (takesMeasure(field)) rule.measure = f.oneOf('measure', measures, { fallback: 'points' });
    else if (f.has('measure')) f.problem('config-invalid', `${f.name('measure')} applies only to skill fields`);

    if (field === 'date.weekday') {
      if (f.has('time')) {
        const time = f.get('time');
        if (isTime(time)) rule.time = time;
        else f.problem('config-invalid', `${f.name('time')} must be HH:MM, not ${quote(time)}`);
      }
    } else if (f.has('time')) f.problem('config-invalid', `${f.name('time')} applies only to date.weekday`);
  }
  if (f.has('timezone')) rule.timezone = timezone(f);

  if (kind && operator) {
    if (!operatorsOf[kind.kind].includes(operator)) {
      f.get('value');
      f.problem('config-invalid', `${f.name('operator')} ${operator} does not apply to ${field}; use one of ${operatorsOf[kind.kind].join(', ')}`);
    } else {
      const value = parseRuleValue(f, operator, kind);
      if (value !== undefined) rule.value = value;
    }
  } else f.get('value');
  f.done(c);
  return field && operator ? (rule as ConditionRule) : undefined;
}

function parseRuleValue(f: Fields, operator: RuleOperator, kind: { kind: Kind; min?: number; max?: number; values?: readonly string[] }): unknown {
  const v = f.get('value');
  const expected = kindText(kind.kind, kind);
  if (NO_VALUE.has(operator)) {
    if (v !== undefined && v !== null) f.problem('config-invalid', `${f.name('value')} is not taken by ${operator}`);
    return undefined;
  }
  if (v === undefined || v === null) {
    f.problem('config-invalid', `${f.name('value')} is required by ${operator}`);
    return undefined;
  }
  if (operator === 'between') {
    const pair = Array.isArray(v) && v.length === 2 ? v.map((x) => scalarOf(kind.kind, x, kind)) : undefined;
    if (!pair || pair.some((x) => x === undefined)) {
      f.problem('config-invalid', `${f.name('value')} of between must be a list [min, max] of ${expected}`);
      return undefined;
    }
    if ((pair[0] as number | string) > (pair[1] as number | string)) {
      f.problem('config-invalid', `${f.name('value')} of between must be [min, max] with min not above max`);
      return undefined;
    }
    return pair;
  }
  if (operator === 'in' || operator === 'not_in') {
    if (!Array.isArray(v) || v.length === 0) {
      f.problem('config-invalid', `${f.name('value')} of ${operator} must be a non-empty list`);
      return undefined;
    }
    if (v.length > journeyLimits.listItems) {
      f.problem('limit-exceeded', `${f.name('value')} of ${operator} must have at most ${journeyLimits.listItems} items`);
      return undefined;
    }
    const items = v.map((x) => scalarOf(kind.kind, x, kind));
    if (items.some((x) => x === undefined)) {
      f.problem('config-invalid', `${f.name('value')} of ${operator} must be a list of ${expected}`);
      return undefined;
    }
    return items;
  }
  const one = scalarOf(kind.kind, v, kind);
  if (one === undefined) {
    f.problem('config-invalid', `${f.name('value')} must be ${expected}, not ${quote(v)}`);
    return undefined;
  }
  return one;
}

// -------------------------------------------------------------------------------------------------
// Configs by type

const BRANCH_KEY = NODE_KEY;

function branchesOf(f: Fields, o: { min: number; max: number }): Raw[] {
  const v = f.get('branches');
  if (!Array.isArray(v)) {
    f.problem('config-invalid', `${f.name('branches')} must be a list`);
    return [];
  }
  if (v.length > o.max) f.problem('limit-exceeded', `${f.name('branches')} must have at most ${o.max} branches`);
  else if (v.length < o.min) f.problem('config-invalid', `${f.name('branches')} must have at least ${o.min} branches`);
  const out: Raw[] = [];
  v.forEach((b, i) => {
    if (isHash(b)) out.push(b);
    else f.problem('config-invalid', `${f.name(`branches[${i}]`)} must be a hash`);
  });
  return out;
}

/** A branch key: unique in its node, a node-key-like word, not `else`. */
function branchKey(bf: Fields, seen: Set<string>, reserved?: string): string | undefined {
  const key = bf.get('key');
  if (typeof key !== 'string' || !BRANCH_KEY.test(key)) {
    bf.problem('config-invalid', `${bf.name('key')} must be 1-32 letters, digits, - or _, not ${quote(key)}`);
    return undefined;
  }
  if (key === reserved) {
    bf.problem('config-invalid', `${bf.name('key')} '${key}' is reserved for the else output`);
    return undefined;
  }
  if (seen.has(key)) {
    bf.problem('config-invalid', `${bf.name('key')} '${key}' is used by two branches`);
    return undefined;
  }
  seen.add(key);
  return key;
}

function parseConfig(c: Collector, type: NodeType, f: Fields, stepKeys: ReadonlySet<string>): NodeConfigs[NodeType] {
  const completeOn = ['finish', 'success', 'final'] as const;
  const content = (field: string) => f.text(field, { min: 1, max: 64, required: true, fallback: '' })!;
  switch (type) {
    case 'start':
      return { complete_on: f.oneOf('complete_on', completeOn, { fallback: 'finish' })! };
    case 'exam':
      return {
        exam: content('exam'),
        complete_on: f.oneOf('complete_on', completeOn, { fallback: 'finish' })!,
        retake: f.bool('retake', false),
        reuse: f.bool('reuse', false),
      };
    case 'class':
      return { class: content('class'), reuse: f.bool('reuse', false) };
    case 'quiz': {
      const config: NodeConfigs['quiz'] = { quiz: content('quiz'), min_plays: f.int('min_plays', { ...journeyLimits.minPlays, fallback: 1 })! };
      const minResult = f.num('min_result', { min: 0, max: 100 });
      if (minResult !== undefined) config.min_result = minResult;
      return config;
    }
    case 'condition': {
      const seen = new Set<string>();
      const branches: ConditionBranch[] = [];
      branchesOf(f, { min: 0, max: journeyLimits.conditionBranches }).forEach((raw, i) => {
        const bf = new Fields(c, raw, `${f.path}.branches[${i}]`, f.node, null, f.name(`branches[${i}]`));
        const key = branchKey(bf, seen, 'else');
        const branch = new Fields(c, raw, bf.path, f.node, key ?? null, bf.name('').slice(0, -1));
        const label = branch.text('label', { max: journeyLimits.label });
        const match = branch.oneOf('match', ['all', 'any'] as const, { fallback: 'all' })!;
        const rulesRaw = branch.get('rules');
        const rules: ConditionRule[] = [];
        if (!Array.isArray(rulesRaw)) branch.problem('config-invalid', `${branch.name('rules')} must be a list`);
        else {
          if (rulesRaw.length > journeyLimits.rulesPerBranch) branch.problem('limit-exceeded', `${branch.name('rules')} must have at most ${journeyLimits.rulesPerBranch} rules`);
          rulesRaw.forEach((r, j) => {
            const rule = parseRule(c, r, `${bf.path}.rules[${j}]`, f.node!, key ?? null, stepKeys);
            if (rule) rules.push(rule);
          });
        }
        // The key was read by the first reader; the second one lists the unknown fields once.
        branch.done(c, new Set(['key']));
        if (key) branches.push({ key, ...(label !== undefined ? { label } : {}), match, rules });
      });
      const elseLabel = f.text('else_label', { max: journeyLimits.label });
      return { branches, ...(elseLabel !== undefined ? { else_label: elseLabel } : {}) };
    }
    case 'split': {
      const seen = new Set<string>();
      const branches: SplitBranch[] = [];
      branchesOf(f, journeyLimits.splitBranches).forEach((raw, i) => {
        const bf = new Fields(c, raw, `${f.path}.branches[${i}]`, f.node, null, f.name(`branches[${i}]`));
        const key = branchKey(bf, seen);
        const label = bf.text('label', { max: journeyLimits.label });
        const weight = bf.int('weight', { ...journeyLimits.splitWeight, fallback: 1 })!;
        bf.done(c);
        if (key) branches.push({ key, ...(label !== undefined ? { label } : {}), weight });
      });
      return { branches };
    }
    case 'wait': {
      const mode = f.oneOf('mode', ['duration', 'date', 'weekday'] as const, { required: true });
      const tz = timezone(f);
      let wait: WaitConfig | undefined;
      if (mode === 'duration') wait = { mode, minutes: f.int('minutes', { ...journeyLimits.waitMinutes, required: true, fallback: 1 })!, timezone: tz };
      if (mode === 'date') {
        const date = f.get('date');
        if (!isDay(date) && !isDayTime(date)) f.problem('config-invalid', `${f.name('date')} must be YYYY-MM-DD HH:MM or YYYY-MM-DD, not ${quote(date)}`);
        wait = { mode, date: typeof date === 'string' ? date : '', timezone: tz };
      }
      if (mode === 'weekday') {
        const weekday = f.int('weekday', { min: 1, max: 7, required: true, fallback: 1 })!;
        const time = f.get('time');
        if (time !== undefined && time !== null && !isTime(time)) f.problem('config-invalid', `${f.name('time')} must be HH:MM, not ${quote(time)}`);
        wait = { mode, weekday, ...(isTime(time) ? { time } : {}), timezone: tz };
      }
      return wait ?? { mode: 'duration', minutes: 1, timezone: tz };
    }
    case 'notify':
      return {
        target: f.oneOf('target', ['user', 'educators'] as const, { required: true, fallback: 'user' })!,
        message: f.text('message', { min: 1, max: journeyLimits.notifyMessage, required: true, fallback: '' })!,
      };
    case 'flag':
      return {
        name: f.text('name', { min: 1, max: journeyLimits.flagText, required: true, fallback: '' })!,
        value: f.text('value', { max: journeyLimits.flagText, fallback: '' })!,
      };
    case 'mark':
      return { mode: f.oneOf('mode', ['mark', 'unmark'] as const, { fallback: 'mark' })! };
    case 'end':
      return { outcome: f.text('outcome', { min: 1, max: journeyLimits.outcome, fallback: 'completed' })! };
  }
}

// -------------------------------------------------------------------------------------------------
// Settings

/** Settings given (a hash or JSON text) merged over `base`. */
export function parseSettings(raw: unknown, base: JourneySettings, c: Collector = new Collector()): JourneySettings {
  const value = fromJsonText(raw, 'settings', c);
  const settings: JourneySettings = { ...defaultJourneySettings, ...base, educators: [...(base.educators ?? [])] };
  if (value === undefined || value === null) return settings;
  if (!isHash(value)) {
    c.add('format-invalid', null, null, 'settings must be a hash');
    return settings;
  }
  const f = new Fields(c, value, 'settings', null, null, 'settings');
  const nullableText = (field: 'title' | 'description', max: number) => {
    if (!(field in value)) return;
    if (value[field] === null) settings[field] = null;
    else {
      const t = f.text(field, { max, code: 'settings-invalid' });
      if (t !== undefined) settings[field] = t;
    }
    f.get(field);
  };
  nullableText('title', journeyLimits.title);
  nullableText('description', journeyLimits.description);
  if (f.has('max_visits')) settings.max_visits = f.int('max_visits', { ...journeyLimits.maxVisits, code: 'settings-invalid', fallback: settings.max_visits })!;
  if (f.has('restartable')) settings.restartable = f.bool('restartable', settings.restartable, 'settings-invalid');
  if (f.has('notify_user')) settings.notify_user = f.bool('notify_user', settings.notify_user, 'settings-invalid');
  if ('educators' in value) {
    const e = f.get('educators');
    const list = typeof e === 'string' ? e.split(',').map((s) => s.trim()).filter(Boolean) : e === null ? [] : e;
    if (!Array.isArray(list) || list.some((x) => typeof x !== 'string' || x.length === 0 || x.length > 64)) {
      f.problem('settings-invalid', 'settings.educators must be a list of user identification strings');
    } else {
      const unique = [...new Set(list as string[])];
      if (unique.length > journeyLimits.educators) f.problem('limit-exceeded', `settings.educators must have at most ${journeyLimits.educators} users`);
      else settings.educators = unique;
    }
  }
  f.done(c);
  return settings;
}

// -------------------------------------------------------------------------------------------------
// Nodes and the graph

function parseNodes(raw: unknown, c: Collector): JourneyNode[] {
  const value = fromJsonText(raw, 'nodes', c);
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    c.add('format-invalid', null, null, 'nodes must be a list of nodes');
    return [];
  }
  refuseOverNodeLimit(value, c);

  // Keys first: rules and next refer to them.
  const counts = new Map<string, number>();
  for (const item of value) {
    if (isHash(item) && typeof item.node === 'string' && NODE_KEY.test(item.node)) counts.set(item.node, (counts.get(item.node) ?? 0) + 1);
  }
  const stepKeys = new Set(
    value.filter((n): n is Raw => isHash(n) && typeof n.node === 'string' && stepTypes.has(n.type as NodeType)).map((n) => n.node as string),
  );

  const nodes: JourneyNode[] = [];
  const reported = new Set<string>();
  value.forEach((item, i) => {
    const path = `nodes[${i}]`;
    if (!isHash(item)) {
      c.add('format-invalid', null, null, `${path} must be a hash`);
      return;
    }
    const f = new Fields(c, item, path, null, null, path);
    const key = f.get('node');
    let nodeKey: string | null = null;
    if (typeof key !== 'string' || !NODE_KEY.test(key)) {
      c.add('key-invalid', typeof key === 'string' && key.length <= 64 ? key : null, null, `${path}.node must be 1-32 letters, digits, - or _, not ${key === undefined ? 'missing' : quote(key)}`);
    } else {
      nodeKey = key;
      if (counts.get(key)! > 1 && !reported.has(key)) {
        reported.add(key);
        c.add('key-duplicate', key, null, `The key '${key}' is used by ${counts.get(key)} nodes`);
      }
    }
    const at = nodeKey ?? path;
    const nf = new Fields(c, item, path, nodeKey, null, path);
    const type = f.get('type');
    const typeOk = typeof type === 'string' && (nodeTypes as readonly string[]).includes(type);
    if (!typeOk) c.add('type-invalid', nodeKey, null, `Node '${at}': type must be one of ${nodeTypes.join(', ')}, not ${type === undefined ? 'missing' : quote(type)}`);

    const node: { node: string; type: NodeType; label?: string; position?: { x: number; y: number }; config?: unknown; next: Record<string, string | null> } = {
      node: nodeKey ?? '',
      type: (typeOk ? type : 'end') as NodeType,
      next: {},
    };
    const label = f.get('label');
    if (label !== undefined && label !== null) {
      if (typeof label !== 'string') nf.problem('node-invalid', 'label must be text');
      else if (label.length > journeyLimits.label) nf.problem('limit-exceeded', `label must be at most ${journeyLimits.label} characters`);
      else node.label = label;
    }
    const position = f.get('position');
    if (position !== undefined && position !== null) {
      if (isHash(position) && typeof position.x === 'number' && typeof position.y === 'number' && Number.isFinite(position.x) && Number.isFinite(position.y)) {
        node.position = { x: position.x, y: position.y };
        for (const k of Object.keys(position)) if (k !== 'x' && k !== 'y') c.ignore(`${path}.position.${k}`);
      } else nf.problem('node-invalid', 'position must be a hash of numbers x and y');
    }

    const configRaw = f.get('config');
    if (typeOk) {
      const cf = new Fields(c, isHash(configRaw) ? configRaw : {}, `${path}.config`, nodeKey ?? at, null, 'config');
      if (configRaw !== undefined && configRaw !== null && !isHash(configRaw)) nf.problem('config-invalid', 'config must be a hash');
      node.config = parseConfig(c, type as NodeType, cf, stepKeys);
      cf.done(c);
    }

    const next = f.get('next');
    if (next !== undefined && next !== null) {
      if (!isHash(next)) nf.problem('node-invalid', 'next must be a hash of outputs to node keys');
      else {
        const outputs = typeOk ? outputsOf(node as JourneyNode) : [];
        for (const [output, target] of Object.entries(next)) {
          if (typeOk && !outputs.includes(output)) {
            c.add('output-unknown', nodeKey, output.slice(0, 64), `Node '${at}': ${type} has no output ${quote(output)}${outputs.length ? ` (its outputs: ${outputs.join(', ')})` : ' (it has no outputs)'}`);
            continue;
          }
          if (target === null || target === '') node.next[output] = null;
          else if (typeof target !== 'string') nf.problem('node-invalid', `next.${output} must be a node key or null`);
          else if (!counts.has(target)) c.add('next-unknown', nodeKey, output, `Node '${at}': output '${output}' leads to '${target.slice(0, 64)}', which is not a node of the graph`);
          else node.next[output] = target;
        }
      }
    }
    f.done(c, INFORMATIVE);
    if (nodeKey && typeOk) nodes.push(node as JourneyNode);
  });
  return nodes;
}

/** Start, reachability, unconnected outputs and instant loops, on nodes that parsed. */
function structureIssues(nodes: readonly JourneyNode[], c: Collector): void {
  const starts = nodes.filter((n) => n.type === 'start');
  if (starts.length === 0) c.add('start-missing', null, null, 'The journey has no start node (the starting exam)');
  for (const extra of starts.slice(1)) c.add('start-multiple', extra.node, null, `Node '${extra.node}': a journey has exactly one start node; '${starts[0]!.node}' is the first`);

  const byKey = new Map<string, JourneyNode>();
  for (const n of nodes) if (!byKey.has(n.node)) byKey.set(n.node, n);

  if (starts.length > 0) {
    const reached = new Set<string>([starts[0]!.node]);
    const queue: JourneyNode[] = [starts[0]!];
    while (queue.length) {
      const n = queue.shift()!;
      for (const target of Object.values(n.next)) {
        if (target && !reached.has(target) && byKey.has(target)) {
          reached.add(target);
          queue.push(byKey.get(target)!);
        }
      }
    }
    for (const n of byKey.values()) {
      if (!reached.has(n.node) && n.type !== 'start') c.add('unreachable', n.node, null, `Node '${n.node}' cannot be reached from the start`);
    }
  }
  for (const n of byKey.values()) {
    for (const output of outputsOf(n as JourneyNode)) {
      if (!n.next[output]) c.add('output-unconnected', n.node, output, `Node '${n.node}': output '${output}' leads nowhere; users taking it finish with outcome completed`);
    }
  }
  for (const loop of instantLoops([...byKey.values()])) {
    c.add('instant-loop', loop[0]!, null, `Nodes ${loop.map((k) => `'${k}'`).join(', ')} form a loop of instant nodes only; put a step or a wait in it`);
  }
}

/** Strongly connected sets of instant nodes that loop (Tarjan), each in graph order. */
export function instantLoops(nodes: readonly Pick<JourneyNode, 'node' | 'type' | 'next'>[]): string[][] {
  const instant = new Map(nodes.filter((n) => instantTypes.has(n.type)).map((n) => [n.node, n]));
  const order = new Map<string, number>([...instant.keys()].map((k, i) => [k, i]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  let counter = 0;
  const edges = (key: string) => Object.values(instant.get(key)!.next).filter((t): t is string => !!t && instant.has(t));

  const visit = (start: string) => {
    // Iterative, so a long chain of nodes cannot overflow the stack.
    const work: { key: string; i: number }[] = [{ key: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1]!;
      const targets = edges(top.key);
      if (top.i < targets.length) {
        const t = targets[top.i++]!;
        if (!index.has(t)) {
          index.set(t, counter);
          low.set(t, counter++);
          stack.push(t);
          onStack.add(t);
          work.push({ key: t, i: 0 });
        } else if (onStack.has(t)) low.set(top.key, Math.min(low.get(top.key)!, index.get(t)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]!.key;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.key)!));
      }
      if (low.get(top.key) === index.get(top.key)) {
        const set: string[] = [];
        let k: string;
        do {
          k = stack.pop()!;
          onStack.delete(k);
          set.push(k);
        } while (k !== top.key);
        if (set.length > 1 || edges(set[0]!).includes(set[0]!)) loops.push(set.sort((a, b) => order.get(a)! - order.get(b)!));
      }
    }
  };
  for (const key of instant.keys()) if (!index.has(key)) visit(key);
  return loops.sort((a, b) => order.get(a[0]!)! - order.get(b[0]!)!);
}

/**
 * The pure part: shape, configs, settings and structure of a graph as a caller sends it (or as it
 * is stored: a stored graph parses to itself). `base` are the settings the given ones merge over.
 */
export function parseJourneyGraph(raw: RawGraph, base: JourneySettings = defaultJourneySettings): ParsedGraph {
  const c = new Collector();
  const graph: JourneyGraph = { schema: JOURNEY_SCHEMA_VERSION, settings: { ...defaultJourneySettings, ...base }, nodes: [] };
  try {
    if (raw.schema !== undefined && raw.schema !== null && raw.schema !== '') {
      const n = typeof raw.schema === 'string' && /^\s*\d+\s*$/.test(raw.schema) ? Number(raw.schema) : raw.schema;
      if (n !== JOURNEY_SCHEMA_VERSION) c.add('schema-unsupported', null, null, `schema ${quote(raw.schema)} is not supported; the format's version is ${JOURNEY_SCHEMA_VERSION}`);
      else graph.schema = n;
    }
    graph.settings = parseSettings(raw.settings, base, c);
    graph.nodes = parseNodes(raw.nodes, c);
    structureIssues(graph.nodes, c);
  } catch (error) {
    whenFull(error);
  }
  return { graph, ...c.findings(), ignored: c.ignored };
}

/**
 * A graph being saved over the node or size limit, refused with that one problem; undefined for one
 * within them. Cheap whatever the graph (it looks at no node), so it comes before anything else.
 * (Stored graphs are not held to it again: they were within the limits when saved.)
 */
export function overLimits(raw: RawGraph): ParsedGraph | undefined {
  const c = new Collector();
  try {
    refuseOverNodeLimit(raw.nodes, c);
    if (jsonLengthOver([raw.nodes, raw.settings], journeyLimits.documentSize)) {
      c.refuse(`A journey graph is at most ${journeyLimits.documentSize} characters of JSON (nodes and settings together)`);
    }
    return undefined;
  } catch (error) {
    whenFull(error);
    return { graph: { schema: JOURNEY_SCHEMA_VERSION, settings: defaultJourneySettings, nodes: [] }, ...c.findings(), ignored: [] };
  }
}

/** Called on the nodes as given, and again once JSON text is parsed (parseNodes). */
function refuseOverNodeLimit(nodes: unknown, c: Collector): void {
  if (Array.isArray(nodes) && nodes.length > journeyLimits.nodes) c.refuse(`A journey has at most ${journeyLimits.nodes} nodes, not ${nodes.length}`);
}

/**
 * Whether a value written as JSON would be longer than `limit` characters (about: separators are
 * counted loosely), counting only until it is, so a value far over the limit costs no more than
 * one at it. A string counts as its length: JSON text is measured before it is parsed.
 */
export function jsonLengthOver(value: unknown, limit: number): boolean {
  let length = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && length <= limit) {
    const v = stack.pop();
    if (typeof v === 'string') length += v.length + 2;
    else if (Array.isArray(v)) {
      length += 2;
      for (let i = 0; i < v.length && length <= limit; i++, length++) stack.push(v[i]);
    } else if (isHash(v)) {
      length += 2;
      for (const key in v) {
        if (length > limit) break;
        length += key.length + 4;
        stack.push(v[key]);
      }
    } else length += String(v).length;
  }
  return length > limit;
}

// -------------------------------------------------------------------------------------------------
// What needs the database

type StartingExam = Pick<Exam, 'id' | 'type' | 'archived' | 'ownerId' | 'organizationId'>;

export interface ValidateOptions {
  /**
   * Content the journey already uses (keys `exam:<id>`, `class:<id>`, `quiz:<id>`): kept even when
   * the caller does not control it. Defaults to the content of the graph itself (a stored graph).
   */
  used?: ReadonlySet<string>;
}

/** The content keys a graph names: `exam:<id>`, `class:<id>`, `quiz:<id>`. */
export function contentOf(nodes: readonly JourneyNode[]): Set<string> {
  const keys = new Set<string>();
  for (const n of nodes) {
    if (n.type === 'exam') keys.add(`exam:${n.config.exam}`);
    if (n.type === 'class') keys.add(`class:${n.config.class}`);
    if (n.type === 'quiz') keys.add(`quiz:${n.config.quiz}`);
  }
  return keys;
}

/** Issues of a graph that only the database can tell: content, the starting exam, departments, educators. */
async function contentIssues(ctx: Context, exam: StartingExam, graph: JourneyGraph, options: ValidateOptions, c: Collector): Promise<void> {
  const used = options.used ?? contentOf(graph.nodes);
  const start = graph.nodes.find((n) => n.type === 'start')?.node ?? null;
  if (exam.archived) c.add('exam-archived', start, null, 'The starting exam is archived: archived exams cannot start a journey');
  if (exam.type === 'championship') c.add('exam-championship', start, null, 'The starting exam is a championship: championships cannot start a journey');

  const ids = (type: 'exam' | 'class' | 'quiz') =>
    [...new Set(graph.nodes.filter((n) => n.type === type).map((n) => (n.config as unknown as Record<string, string>)[type]!).filter(Boolean))];
  const [exams, classes, quizzes] = await Promise.all([
    ctx.db.exam.findMany({ where: { id: { in: ids('exam') } }, select: { id: true, ownerId: true, organizationId: true, archived: true } }),
    ctx.db.class.findMany({ where: { id: { in: ids('class') } }, select: { id: true, ownerId: true, organizationId: true } }),
    ctx.db.quizSet.findMany({ where: { id: { in: ids('quiz') } }, select: { id: true, ownerId: true, organizationId: true, archived: true } }),
  ]);
  const found = new Map<string, { id: string; ownerId: string; organizationId: string | null; archived?: boolean }>([
    ...exams.map((e) => [`exam:${e.id}`, e] as const),
    ...classes.map((e) => [`class:${e.id}`, e] as const),
    ...quizzes.map((e) => [`quiz:${e.id}`, e] as const),
  ]);
  const toCheck = [...found.entries()].filter(([key]) => !used.has(key));
  const allowed = await canEach(
    ctx,
    toCheck.map(([key, row]) => [`${key.slice(0, key.indexOf(':'))}:journey:step` as 'exam:journey:step', row] as const),
  );
  const controlled = new Set(toCheck.filter((_, i) => allowed[i]).map(([key]) => key));
  const nouns = { exam: 'exam', class: 'class', quiz: 'Quiz set' } as const;

  for (const n of graph.nodes) {
    if (n.type !== 'exam' && n.type !== 'class' && n.type !== 'quiz') continue;
    const id = (n.config as unknown as Record<string, string>)[n.type]!;
    if (!id) continue;
    const key = `${n.type}:${id}`;
    const row = found.get(key);
    const noun = nouns[n.type];
    if (!row) {
      if (used.has(key)) c.add('content-missing', n.node, null, `Node '${n.node}': the ${noun} '${id}' the journey uses no longer exists`);
      else c.add('content-not-controlled', n.node, null, `Node '${n.node}': no ${noun} '${id}' that you control`);
      continue;
    }
    if (!used.has(key) && !controlled.has(key)) {
      c.add('content-not-controlled', n.node, null, `Node '${n.node}': no ${noun} '${id}' that you control`);
      continue;
    }
    if (row.archived) c.add(n.type === 'quiz' ? 'quiz-archived' : 'exam-archived', n.node, null, `Node '${n.node}': the ${noun} '${id}' is archived`);
  }

  // Departments are looked up by name in the starting exam's organization.
  const departments = new Map<string, { node: string; output: string | null }[]>();
  for (const n of graph.nodes) {
    if (n.type !== 'condition') continue;
    for (const b of n.config.branches) {
      for (const r of b.rules) {
        if (r.field !== 'user.department' || r.value === undefined) continue;
        for (const v of Array.isArray(r.value) ? r.value : [r.value]) {
          const name = String(v);
          departments.set(name, [...(departments.get(name) ?? []), { node: n.node, output: b.key }]);
        }
      }
    }
  }
  if (departments.size > 0) {
    const known = exam.organizationId
      ? new Set((await ctx.db.department.findMany({ where: { organizationId: exam.organizationId, title: { in: [...departments.keys()] } }, select: { title: true } })).map((d) => d.title))
      : new Set<string>();
    for (const [name, places] of departments) {
      if (known.has(name)) continue;
      for (const p of places) {
        c.add('department-unknown', p.node, p.output, exam.organizationId
          ? `Node '${p.node}': '${name}' is not a department of the starting exam's organization`
          : `Node '${p.node}': the starting exam belongs to no organization, so it has no department '${name}'`);
      }
    }
  }

  // Fields named by rules: a warning, since a field may be added after the journey is drawn.
  const params = { exam: new Map<string, { node: string; output: string }[]>(), user: new Map<string, { node: string; output: string }[]>() };
  for (const n of graph.nodes) {
    if (n.type !== 'condition') continue;
    for (const b of n.config.branches) {
      for (const r of b.rules) {
        const map = r.field === 'exam.custom' ? params.exam : r.field === 'user.customer_field' ? params.user : undefined;
        if (map && r.param) map.set(r.param, [...(map.get(r.param) ?? []), { node: n.node, output: b.key }]);
      }
    }
  }
  const [examFields, userFields] = await Promise.all([
    params.exam.size ? ctx.db.examField.findMany({ where: { examId: exam.id, removedAt: null, label: { in: [...params.exam.keys()] } }, select: { label: true } }) : [],
    params.user.size ? ctx.db.customField.findMany({ where: { entity: 'user', key: { in: [...params.user.keys()] } }, select: { key: true } }) : [],
  ]);
  const knownFields = { exam: new Set(examFields.map((f) => f.label)), user: new Set(userFields.map((f) => f.key)) };
  for (const which of ['exam', 'user'] as const) {
    for (const [name, places] of params[which]) {
      if (knownFields[which].has(name)) continue;
      for (const p of places) {
        c.add('field-unknown', p.node, p.output, which === 'exam'
          ? `Node '${p.node}': the starting exam has no user data field '${name}'`
          : `Node '${p.node}': no user custom field '${name}' is configured`);
      }
    }
  }

  // Educators: the owner and the managers (admin holders) of the starting exam.
  const others = graph.settings.educators.filter((id) => id !== exam.ownerId);
  if (others.length > 0) {
    const users = await ctx.db.user.findMany({ where: { id: { in: others } }, select: { id: true, admin: true } });
    const levels = await Promise.all(
      users.map(async (u) => (await heldLevels(ctx, u, [{ type: 'exam', id: exam.id, ownerId: exam.ownerId, organizationId: exam.organizationId }]))[0]),
    );
    const managers = new Set(users.filter((_, i) => levels[i] === 'admin').map((u) => u.id));
    for (const id of others) {
      if (!managers.has(id)) c.add('educator-invalid', null, null, `Educator '${id}' is not the owner or a manager of the starting exam`);
    }
  }
}

/** Errors first, then warnings; each in the order found. */
const sortIssues = (issues: readonly Issue[]): Issue[] => [...issues.filter((i) => i.level === 'error'), ...issues.filter((i) => i.level === 'warning')];

/**
 * Every issue of a graph (one being saved, a stored draft, or one about to be published), errors
 * first: the pure checks and, when they ran to the end, those of the database. `base` are the
 * settings the given ones merge over. Content the graph names counts as used unless `options.used`
 * says otherwise.
 */
export async function validateJourneyGraph(
  ctx: Context,
  exam: StartingExam,
  raw: RawGraph,
  options: ValidateOptions & { base?: JourneySettings } = {},
): Promise<ParsedGraph> {
  const parsed = parseJourneyGraph(raw, options.base);
  if (!parsed.exact) return { ...parsed, issues: sortIssues(parsed.issues) };
  const c = new Collector();
  try {
    await contentIssues(ctx, exam, parsed.graph, options, c);
  } catch (error) {
    whenFull(error);
  }
  return { ...parsed, issues: sortIssues([...parsed.issues, ...c.issues]), problems: parsed.problems + c.problems, exact: c.exact };
}

export const hasErrors = (issues: readonly Issue[]) => issues.some((i) => i.level === 'error');

// -------------------------------------------------------------------------------------------------
// Rendering a stored graph for output

/** A node as GET shows it: every output in next (unconnected ones null) and the informative fields. */
export interface RenderedNode {
  node: string;
  type: NodeType;
  label: string | null;
  position: { x: number; y: number };
  config: JourneyNode['config'];
  next: Record<string, string | null>;
  /** The node's place in position order, from 1, as text: what a drawing of the graph labels it with. */
  marker: string;
  /** Title of the step's content (the starting exam for the start); null for other nodes or content gone. */
  title: string | null;
  /** Identification string of the step's content; null for other nodes. */
  content: string | null;
}

/** Auto layout for nodes without a position: columns by distance from the start, rows in graph order. */
export const LAYOUT = Object.freeze({ column: 240, row: 120 });

function layout(nodes: readonly JourneyNode[]): Map<string, { x: number; y: number }> {
  const depth = new Map<string, number>();
  const byKey = new Map(nodes.map((n) => [n.node, n]));
  const start = nodes.find((n) => n.type === 'start');
  if (start) {
    depth.set(start.node, 0);
    const queue: JourneyNode[] = [start];
    while (queue.length) {
      const n = queue.shift()!;
      for (const t of Object.values(n.next)) {
        if (t && byKey.has(t) && !depth.has(t)) {
          depth.set(t, depth.get(n.node)! + 1);
          queue.push(byKey.get(t)!);
        }
      }
    }
  }
  const last = Math.max(-1, ...depth.values()) + 1;
  const rows = new Map<number, number>();
  const positions = new Map<string, { x: number; y: number }>();
  for (const n of nodes) {
    if (n.position) continue;
    const column = depth.get(n.node) ?? last;
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    positions.set(n.node, { x: column * LAYOUT.column, y: row * LAYOUT.row });
  }
  return positions;
}

/**
 * A stored graph's nodes for output: ordered by position (x, then y, then as stored), positions
 * laid out where absent, every output listed in next, and marker, title and content added.
 * `exam` is the starting exam (the start node's content).
 */
export async function renderJourneyNodes(ctx: Context, exam: Pick<Exam, 'id' | 'title'>, nodes: readonly JourneyNode[]): Promise<RenderedNode[]> {
  const ids = (type: 'exam' | 'class' | 'quiz') => [...new Set(nodes.filter((n) => n.type === type).map((n) => (n.config as unknown as Record<string, string>)[type]!))];
  const [exams, classes, quizzes] = await Promise.all([
    ctx.db.exam.findMany({ where: { id: { in: ids('exam') } }, select: { id: true, title: true } }),
    ctx.db.class.findMany({ where: { id: { in: ids('class') } }, select: { id: true, title: true } }),
    ctx.db.quizSet.findMany({ where: { id: { in: ids('quiz') } }, select: { id: true, title: true } }),
  ]);
  const titles = new Map<string, string>([
    [`start:${exam.id}`, exam.title],
    ...exams.map((r) => [`exam:${r.id}`, r.title] as const),
    ...classes.map((r) => [`class:${r.id}`, r.title] as const),
    ...quizzes.map((r) => [`quiz:${r.id}`, r.title] as const),
  ]);
  const auto = layout(nodes);
  const placed = nodes.map((n, i) => ({ n, i, position: n.position ?? auto.get(n.node)! }));
  placed.sort((a, b) => a.position.x - b.position.x || a.position.y - b.position.y || a.i - b.i);
  return placed.map(({ n, position }, i) => {
    const content = n.type === 'start' ? exam.id : stepTypes.has(n.type) ? (n.config as unknown as Record<string, string>)[n.type]! : null;
    return {
      node: n.node,
      type: n.type,
      label: n.label ?? null,
      position,
      config: n.config,
      next: Object.fromEntries(outputsOf(n as JourneyNode).map((o) => [o, n.next[o] ?? null])),
      marker: String(i + 1),
      title: content ? (titles.get(`${n.type}:${content}`) ?? null) : null,
      content,
    };
  });
}
