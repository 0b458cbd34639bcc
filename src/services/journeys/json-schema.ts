import { NODE_KEY, journeyLimits, nodeTypes, ruleFields, ruleOperators } from './format.ts';

/**
 * The JSON Schema (draft 2020-12) of the portable journey format, served at
 * /api/journey.schema.json and named by the `$schema` of GET `exam:journey:graph`. Written once
 * from the types and limits of format.ts (it uses their constants); it describes the shape an
 * editor can check offline. What only the service can tell (content, departments, reachability,
 * loops, references between nodes) is reported by PUT as issues.
 */

/** Where the service serves it (the `$schema` of GET `exam:journey:graph`). */
export const JOURNEY_SCHEMA_PATH = '/api/journey.schema.json';

const L = journeyLimits;
const key = { type: 'string', pattern: NODE_KEY.source };
const text = (max: number, min = 0) => ({ type: 'string', minLength: min, maxLength: max });
const label = text(L.label);
const tz = { type: 'string', description: 'IANA time zone name, default UTC', maxLength: 64 };
const hhmm = { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' };
const completeOn = { enum: ['finish', 'success', 'final'] };
const scalar = { type: ['string', 'number', 'boolean'] };

const rule = {
  type: 'object',
  required: ['field', 'operator'],
  properties: {
    field: { enum: [...ruleFields] },
    param: { ...text(L.param, 1), description: 'needed by step.skill, node.* fields (a step node key), exam.custom, user.customer_field, journey.flag' },
    operator: { enum: [...ruleOperators] },
    value: {
      description: 'between: [min, max] inclusive; in / not_in: a list of at most 64; empty, not_empty, is_true, is_false: none',
      anyOf: [scalar, { type: 'array', items: scalar, minItems: 1, maxItems: L.listItems }],
    },
    aggregate: { enum: ['last', 'first', 'best', 'worst', 'average'], default: 'last', description: 'node.* fields except node.completed and node.visits' },
    measure: { enum: ['points', 'percent'], default: 'points', description: 'skill fields' },
    time: { ...hhmm, description: 'date.weekday only' },
    timezone: tz,
  },
};

const configs: Record<(typeof nodeTypes)[number], Record<string, unknown>> = {
  start: { type: 'object', properties: { complete_on: { ...completeOn, default: 'finish' } } },
  exam: {
    type: 'object',
    required: ['exam'],
    properties: { exam: text(64, 1), complete_on: { ...completeOn, default: 'finish' }, retake: { type: 'boolean', default: false }, reuse: { type: 'boolean', default: false } },
  },
  class: { type: 'object', required: ['class'], properties: { class: text(64, 1), reuse: { type: 'boolean', default: false } } },
  quiz: {
    type: 'object',
    required: ['quiz'],
    properties: {
      quiz: text(64, 1),
      min_result: { type: 'number', minimum: 0, maximum: 100, description: 'percent' },
      min_plays: { type: 'integer', minimum: L.minPlays.min, maximum: L.minPlays.max, default: 1 },
    },
  },
  condition: {
    type: 'object',
    required: ['branches'],
    properties: {
      branches: {
        type: 'array',
        maxItems: L.conditionBranches,
        items: {
          type: 'object',
          required: ['key', 'rules'],
          properties: {
            key: { ...key, not: { const: 'else' } },
            label,
            match: { enum: ['all', 'any'], default: 'all' },
            rules: { type: 'array', maxItems: L.rulesPerBranch, items: rule },
          },
        },
      },
      else_label: label,
    },
  },
  split: {
    type: 'object',
    required: ['branches'],
    properties: {
      branches: {
        type: 'array',
        minItems: L.splitBranches.min,
        maxItems: L.splitBranches.max,
        items: {
          type: 'object',
          required: ['key'],
          properties: { key, label, weight: { type: 'integer', minimum: L.splitWeight.min, maximum: L.splitWeight.max, default: 1 } },
        },
      },
    },
  },
  wait: {
    type: 'object',
    required: ['mode'],
    properties: {
      mode: { enum: ['duration', 'date', 'weekday'] },
      minutes: { type: 'integer', minimum: L.waitMinutes.min, maximum: L.waitMinutes.max, description: 'mode duration' },
      date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}( ([01]\\d|2[0-3]):[0-5]\\d)?$', description: 'mode date: YYYY-MM-DD HH:MM in the node timezone, or YYYY-MM-DD' },
      weekday: { type: 'integer', minimum: 1, maximum: 7, description: 'mode weekday: 1 Monday to 7 Sunday' },
      time: { ...hhmm, description: 'mode weekday' },
      timezone: tz,
    },
  },
  notify: { type: 'object', required: ['target', 'message'], properties: { target: { enum: ['user', 'educators'] }, message: text(L.notifyMessage, 1) } },
  flag: { type: 'object', required: ['name'], properties: { name: text(L.flagText, 1), value: text(L.flagText) } },
  mark: { type: 'object', properties: { mode: { enum: ['mark', 'unmark'], default: 'mark' } } },
  end: { type: 'object', properties: { outcome: { ...text(L.outcome, 1), default: 'completed', description: 'completed, failed or custom text' } } },
};

/** One node of the graph (PUT `exam:journey:graph` describes each item of `nodes` with it). */
export const journeyNodeJsonSchema = Object.freeze({
  type: 'object',
  required: ['node', 'type'],
  properties: {
    node: key,
    type: { enum: [...nodeTypes] },
    label: { type: ['string', 'null'], maxLength: L.label },
    position: { type: 'object', required: ['x', 'y'], properties: { x: { type: 'number' }, y: { type: 'number' } } },
    config: { type: 'object' },
    next: { type: 'object', additionalProperties: { anyOf: [key, { type: 'null' }] }, description: 'output -> next node key; missing or null: unconnected' },
    marker: { description: 'informative, ignored on import' },
    title: { description: 'informative, ignored on import' },
    content: { description: 'informative, ignored on import' },
  },
  allOf: nodeTypes.map((type) => ({ if: { properties: { type: { const: type } } }, then: { properties: { config: configs[type] } } })),
});

/** The journey's settings, every key optional (PUT `exam:journey:graph` merges them over the current ones). */
export const journeySettingsJsonSchema = Object.freeze({
  type: 'object',
  properties: {
    title: { type: ['string', 'null'], maxLength: L.title },
    description: { type: ['string', 'null'], maxLength: L.description },
    max_visits: { type: 'integer', minimum: L.maxVisits.min, maximum: L.maxVisits.max, default: L.maxVisits.default, description: 'a user visiting a node more often stops with outcome loop-limit' },
    restartable: { type: 'boolean', default: false },
    notify_user: { type: 'boolean', default: false },
    educators: { type: 'array', items: text(64, 1), maxItems: L.educators, uniqueItems: true, description: 'user identification strings: the owner and managers of the starting exam; the owner when none' },
  },
});

const journeyJsonSchema = Object.freeze({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Portable journey format',
  description: 'An exam journey: settings and a graph of nodes (schema 1). Unknown fields are ignored on import.',
  type: 'object',
  required: ['nodes'],
  properties: {
    $schema: { type: 'string' },
    schema: { const: 1, default: 1 },
    settings: journeySettingsJsonSchema,
    nodes: { type: 'array', maxItems: L.nodes, items: journeyNodeJsonSchema },
  },
});

/** The schema as served: one text, made once. */
let served: string | undefined;
export const journeyJsonSchemaText = () => (served ??= JSON.stringify(journeyJsonSchema, null, 2));
