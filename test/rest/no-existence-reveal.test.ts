import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type RpcResult, type TestApp } from '../helpers/app.ts';
import { seed } from '../helpers/seed.ts';
import { END, START } from '../helpers/exam-seed.ts';
import { buildWorld, masked, unknownId, type Kind, type World } from '../helpers/worlds.ts';
import { operations, type Argument, type Operation } from '../../src/rest/operations.ts';

/**
 * No answer tells an existing id the caller may not see from an id of nothing. For every operation
 * of the catalogue and every identification string it takes, a caller calls it with all other
 * arguments from its own world and the probed one naming (a) a record of another world it may not
 * see and (b) nothing; the two answers must be the same (status, headers, body, the id masked), and
 * (b) must be the unknown-id answer: 403 NOT_FOUND naming the probed argument. New operations are
 * covered as they enter the catalogue; an argument of a kind this test does not know fails it.
 */

let t: TestApp;
/** Owns the records probed. */
let home: World;
/** Owner and administrator of another organization. */
let foreign: World;
/** A plain member of home's organization (no role, no content level), with a world of its own. */
let insider: World;

beforeAll(async () => {
  t = await createTestApp();
  home = await buildWorld(t, 'home');
  foreign = await buildWorld(t, 'foreign');
  insider = await buildWorld(t, 'insider');
  await seed(t).admin.addMembers(home.ids.organization, [insider.caller]);
});
afterAll(async () => t?.close());

/** The kind of record an identification-string argument names; undefined for one this test does not know. */
function kindOf(op: Operation, argument: string): Kind | undefined {
  const onExam = op.endpoint.startsWith('exam');
  const named: Record<string, Kind> = {
    users: 'user',
    leaders: 'user',
    organizations: 'organization',
    classes: 'class',
    questions: 'question',
    copy_questions: 'quiz',
    copy_settings: onExam ? 'exam' : 'quiz',
    source: onExam ? 'exam' : 'quiz',
  };
  if (argument in named) return named[argument];
  return argument in home.ids ? (argument as Kind) : undefined;
}

/** Values for the other required arguments: valid for the caller, so only the probed id can be refused. */
function plainValue(op: Operation, argument: Argument, world: World): unknown {
  const values: Record<string, unknown> = {
    permission: 'view',
    title: 'Probe',
    first_name: 'Probe',
    last_name: 'Caller',
    group: 'Probe',
    url: `${BASE_URL}/login/unknown`,
    department: world.department,
    trigger_event: 'api',
    endpoint: 'https://hooks.example.com/probe',
    image: 'https://images.example.com/probe.png',
    color: 'red',
    summary: 'Probe',
    nodes: '[]',
    id: 'probe-external-id',
    start: START,
    end: END,
    type: op.endpoint === 'question' ? 'generic' : 'custom',
    content: 'Probe',
    answer: 'a',
    grades: JSON.stringify([{ grade: 'fail' }, { threshold: 50, grade: 'pass' }]),
  };
  if (!(argument.name in values)) throw new Error(`no value for the required argument '${argument.name}': add one`);
  return values[argument.name];
}

/**
 * Probes whose unknown-id answer is not 403 NOT_FOUND naming the argument, and why; for them the
 * two answers must still be the same.
 */
const otherUnknownAnswers: Record<string, string> = {
  // A leader must be a member: any other user, an id of nothing included, is not one.
  'POST organization:department leaders': '403 NOT_A_MEMBER',
  'PATCH organization:department leaders': '403 NOT_A_MEMBER',
  // The results of a user in an exam or Quiz set the caller reports on: none for a user it cannot see.
  'GET quiz:results:user user': '200 null',
  'GET exam:results:user user': '200 null',
};

const idArguments = (op: Operation) => op.arguments.filter((a) => a.format === 'code');

/** The arguments of a call by `world`'s caller that names `value` in `probed`. */
function callArgs(op: Operation, probed: Argument, value: string, world: World): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const a of op.arguments) {
    if (a === probed) args[a.name] = value;
    else if (a.format === 'code' && a.required) args[a.name] = world.ids[kindOf(op, a.name)!];
    else if (a.required) args[a.name] = plainValue(op, a, world);
  }
  return args;
}

const answer = (r: RpcResult, id: string) => masked({ status: r.status, code: r.code, error: r.error, body: r.body }, id);

interface Probe {
  op: Operation;
  argument: Argument;
  kind: Kind;
}

const probes: Probe[] = operations.flatMap((op) => idArguments(op).map((argument) => ({ op, argument, kind: undefined as unknown as Kind })));

it('every identification-string argument of the catalogue names a kind this sweep knows', () => {
  const unknown = probes.filter((p) => !kindOf(p.op, p.argument.name)).map((p) => `${p.op.method} ${p.op.endpoint} ${p.argument.name}`);
  expect(unknown).toEqual([]);
  expect(probes.length).toBeGreaterThan(150);
});

/**
 * Runs every probe as `world`'s caller on home's records of the kinds `hidden` from it, and answers
 * the probes whose two answers differ or whose unknown-id answer is not NOT_FOUND naming the argument.
 */
async function sweep(world: World, hidden: (kind: Kind) => boolean) {
  const reveals: string[] = [];
  const unreached: string[] = [];
  for (const { op, argument } of probes) {
    const kind = kindOf(op, argument.name)!;
    if (!hidden(kind)) continue;
    const name = `${op.method} ${op.endpoint} ${argument.name}`;
    const existing = home.ids[kind];
    const nothing = unknownId(kind);
    const a = await t.rpc(op.method, op.endpoint, callArgs(op, argument, existing, world), { as: world.caller });
    const b = await t.rpc(op.method, op.endpoint, callArgs(op, argument, nothing, world), { as: world.caller });
    const seen = answer(a, existing);
    const unknown = answer(b, nothing);
    const brief = (r: RpcResult, id: string) => `${r.status} ${r.code} ${r.error?.replaceAll(id, '<id>')}`;
    if (JSON.stringify(seen) !== JSON.stringify(unknown)) reveals.push(`${name}: existing ${brief(a, existing)} / unknown ${brief(b, nothing)}`);
    else if (name in otherUnknownAnswers) {
      if (`${b.status} ${b.code}` !== otherUnknownAnswers[name]) unreached.push(`${name}: ${brief(b, nothing)}`);
    } else if (b.status !== 403 || b.code !== 'NOT_FOUND' || b.body?.error?.argument !== argument.name) unreached.push(`${name}: ${brief(b, nothing)}`);
  }
  return { reveals, unreached };
}

describe('REST: an id the caller may not see answers as an id of nothing', () => {
  it('for a caller of another organization', async () => {
    const { reveals, unreached } = await sweep(foreign, () => true);
    expect(reveals).toEqual([]);
    expect(unreached).toEqual([]);
  }, 300_000);

  it('for a member of the organization without role or content level', async () => {
    // It sees the organization and, as a member, its competencies: those stay PERMISSION_DENIED where refused.
    const { reveals, unreached } = await sweep(insider, (kind) => kind !== 'organization' && kind !== 'competency');
    expect(reveals).toEqual([]);
    expect(unreached).toEqual([]);
  }, 300_000);
});
