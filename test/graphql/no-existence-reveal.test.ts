import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputType,
} from 'graphql';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { buildWorld, kinds as idKinds, masked, unknownId, type Kind, type World } from '../helpers/worlds.ts';
import { schema } from '../../src/graphql/schema.ts';

/**
 * The GraphQL face of test/rest/no-existence-reveal.test.ts: every query and mutation taking an
 * identification string of a known kind (as an argument, or a field of its `input`) is called by a
 * caller of another organization with the probed id naming (a) a record of another world it may
 * not see and (b) nothing, every other argument from its own world. The two answers must be the
 * same (data, error messages with the id masked, codes, arguments), and (b) NOT_FOUND naming the
 * probed argument. `node`/`nodes` are held to the same rule by node-visibility.test.ts.
 */

let t: TestApp;
let home: World;
let foreign: World;

beforeAll(async () => {
  t = await createTestApp();
  home = await buildWorld(t, 'home');
  foreign = await buildWorld(t, 'foreign');
});
afterAll(async () => t?.close());

/** Root fields whose `id` names the record the field is named after. */
const byFieldName = (field: string): Kind | undefined => {
  const kind = field.replace(/^(delete|update)/, '').replace(/^./, (c) => c.toLowerCase());
  return kind in idKinds ? (kind as Kind) : undefined;
};

/** The kind an ID argument names; undefined for one this sweep does not know (not probed). */
function kindOf(field: string, argument: string): Kind | undefined {
  const onExam = /exam/i.test(field);
  const named: Record<string, Kind | undefined> = {
    users: 'user',
    leaders: 'user',
    organizations: 'organization',
    classes: 'class',
    questions: 'question',
    copyQuestions: 'quiz',
    copySettings: onExam ? 'exam' : 'quiz',
    source: onExam ? 'exam' : 'quiz',
    id: byFieldName(field),
    // contentType is set to the kind probed (see below).
    content: undefined,
  };
  if (argument in named) return named[argument];
  return argument in idKinds ? (argument as Kind) : undefined;
}

type Slot = GraphQLArgument | GraphQLInputField;

/** Values of plain slots whose rule a generic value breaks. */
const plainByName: Record<string, unknown> = {
  ends: '2031-01-01T00:00:00Z',
  end: '2031-01-01T00:00:00Z',
  color: '#123456',
  triggerEvent: 'api',
  url: 'http://service.test/login/unknown',
  image: 'https://images.example.com/probe.png',
  endpoint: 'https://hooks.example.com/probe',
};

/** The content types a field's `contentType` argument accepts that this sweep has records of. */
function contentKinds(field: GraphQLField<unknown, unknown>): Kind[] {
  const arg = field.args.find((a) => a.name === 'contentType');
  const type = arg && getNamedType(arg.type);
  if (!type || !isEnumType(type)) return [];
  return type.getValues().map((v) => v.value as string).filter((k): k is Kind => k in idKinds);
}

const isIdSlot = (slot: Slot) => getNamedType(slot.type).name === 'ID';

/** A value for a required slot that is not probed: from the caller's world, or a plain valid value. */
function plainValue(field: GraphQLField<unknown, unknown>, slot: Slot, world: World, kind?: Kind): unknown {
  const type = slot.type as GraphQLInputType;
  const list = isListType(isNonNullType(type) ? type.ofType : type);
  const named = getNamedType(type);
  let value: unknown;
  if (named.name === 'ID') {
    const k = slot.name === 'content' ? contentOf(field, kind) : kindOf(field.name, slot.name);
    if (!k) return undefined;
    value = world.ids[k];
  } else if (slot.name === 'contentType') value = contentOf(field, kind);
  else if (slot.name === 'department') value = world.department;
  else if (slot.name in plainByName && !isEnumType(named)) value = plainByName[slot.name];
  else if (isEnumType(named)) value = named.getValues()[0]!.value;
  else if (named.name === 'String') value = 'Probe';
  else if (named.name === 'Int' || named.name === 'Float') value = 1;
  else if (named.name === 'Boolean') value = false;
  else if (named.name === 'DateTime') value = '2030-01-01T08:00:00Z';
  else if (named.name === 'Date') value = '2030-01-01';
  else if (named.name === 'EmailAddress') value = 'probe@example.com';
  else if (named.name === 'JSON' || named.name === 'JSONObject') value = {};
  else return undefined;
  return list ? [value] : value;
}

/** The content type of a call: the kind probed when it is one, else the first the field accepts. */
const contentOf = (field: GraphQLField<unknown, unknown>, kind?: Kind): Kind | undefined =>
  kind && contentKinds(field).includes(kind) ? kind : contentKinds(field)[0];

/** One probe: a root field, the path of the probed slot (`arg` or `input.field`), its kind. */
interface Probe {
  operation: 'query' | 'mutation';
  field: GraphQLField<unknown, unknown>;
  path: [string] | [string, string];
  kind: Kind;
}

const inputOf = (field: GraphQLField<unknown, unknown>) => {
  const arg = field.args.find((a) => a.name === 'input');
  const type = arg && getNamedType(arg.type);
  return arg && type && isInputObjectType(type) ? { arg, fields: Object.values(type.getFields()) } : undefined;
};

function probesOf(operation: 'query' | 'mutation'): Probe[] {
  const root = operation === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
  const out: Probe[] = [];
  for (const field of Object.values(root.getFields())) {
    if (field.name === 'node' || field.name === 'nodes') continue;
    const kinds = (slot: Slot) => (slot.name === 'content' ? contentKinds(field) : [kindOf(field.name, slot.name)]);
    for (const a of field.args.filter(isIdSlot)) for (const kind of kinds(a)) if (kind) out.push({ operation, field, path: [a.name], kind });
    const input = inputOf(field);
    for (const f of input?.fields.filter(isIdSlot) ?? []) for (const kind of kinds(f)) if (kind) out.push({ operation, field, path: [input!.arg.name, f.name], kind });
  }
  return out;
}

/** The variables of a call by `world`'s caller naming `value` in the probed slot; null when a required slot has no value. */
function variablesOf(probe: Probe, value: string, world: World): Record<string, unknown> | null {
  const fill = (slots: readonly Slot[], probed: string | undefined) => {
    const values: Record<string, unknown> = {};
    for (const slot of slots) {
      if (slot.name === probed) values[slot.name] = isListType(isNonNullType(slot.type) ? slot.type.ofType : slot.type) ? [value] : value;
      else if (isNonNullType(slot.type) || slot.name === 'contentType') {
        const v = plainValue(probe.field, slot, world, probe.kind);
        if (v === undefined) return null;
        values[slot.name] = v;
      }
    }
    return values;
  };
  const input = inputOf(probe.field);
  const args = probe.field.args.filter((a) => a !== input?.arg);
  const top = fill(args, probe.path.length === 1 ? probe.path[0] : undefined);
  if (!top) return null;
  if (input) {
    const inner = fill(input.fields, probe.path.length === 2 ? probe.path[1] : undefined);
    if (!inner) return null;
    top[input.arg.name] = inner;
  }
  return top;
}

function documentOf(probe: Probe, variables: Record<string, unknown>): string {
  const args = probe.field.args.filter((a) => a.name in variables);
  const declared = args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const passed = args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const selection = isLeafType(getNamedType(probe.field.type)) ? '' : ' { __typename }';
  return `${probe.operation}${declared ? `(${declared})` : ''} { ${probe.field.name}${passed ? `(${passed})` : ''}${selection} }`;
}

const answerOf = (body: { data?: unknown; errors?: { message: string; extensions?: { code?: string; argument?: string } }[] }, id: string) =>
  masked({ data: body.data ?? null, errors: (body.errors ?? []).map((e) => ({ message: e.message, code: e.extensions?.code, argument: e.extensions?.argument })) }, id);

/**
 * Probes whose unknown-id answer is not NOT_FOUND, and why; for them the two answers must still be
 * the same.
 */
const otherUnknownAnswers = new Set([
  // An administrator's list: any other caller gets an empty one, whoever it names.
  'query notifications user (user)',
  // A leader must be a member: any other user, an id of nothing included, is not one.
  'mutation createDepartment input.leaders (user)',
  'mutation updateDepartment input.leaders (user)',
  // Refused before the id is looked at: for administrators only, or for a finished play only.
  'mutation setFeature user (user)',
  'mutation gradeAnswer input.question (question)',
  // The move names a node of the published journey, which the worlds' journeys have none of.
  'mutation moveJourneyUser input.user (user)',
]);

const nameOf = (p: Probe) => `${p.operation} ${p.field.name} ${p.path.join('.')} (${p.kind})`;

describe('GraphQL: an id the caller may not see answers as an id of nothing', () => {
  const probes = [...probesOf('query'), ...probesOf('mutation')];

  it('probes the fields named in the rule, and many more', () => {
    const names = new Set(probes.map((p) => p.field.name));
    for (const name of ['question', 'assignQuestions', 'loginLink', 'createLoginLink', 'user', 'organization', 'setQuestionExternalId', 'grantPermission']) {
      expect(names, name).toContain(name);
    }
    expect(probes.length).toBeGreaterThan(60);
  });

  it('for a caller of another organization', async () => {
    const reveals: string[] = [];
    const unreached: string[] = [];
    let sent = 0;
    for (const probe of probes) {
      const existing = home.ids[probe.kind];
      const nothing = unknownId(probe.kind);
      const a = variablesOf(probe, existing, foreign);
      const b = variablesOf(probe, nothing, foreign);
      if (!a || !b) continue;
      sent++;
      const seen = answerOf((await t.gql(documentOf(probe, a), a, { as: foreign.caller })).body, existing);
      const unknown = answerOf((await t.gql(documentOf(probe, b), b, { as: foreign.caller })).body, nothing) as { errors: { code?: string; argument?: string }[] };
      if (JSON.stringify(seen) !== JSON.stringify(unknown)) reveals.push(`${nameOf(probe)}: existing ${JSON.stringify(seen)} / unknown ${JSON.stringify(unknown)}`);
      else if (unknown.errors[0]?.code !== 'NOT_FOUND' && !otherUnknownAnswers.has(nameOf(probe))) unreached.push(`${nameOf(probe)}: ${JSON.stringify(unknown)}`);
    }
    expect(reveals).toEqual([]);
    expect(unreached).toEqual([]);
    expect(sent).toBeGreaterThan(60);
  }, 300_000);
});
