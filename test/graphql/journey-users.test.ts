import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { journeySeed } from '../helpers/journey-seed.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { newId } from '../../src/ids.ts';
import type { JourneyNode } from '../../src/services/journeys/format.ts';

/** Users in journeys through GraphQL: the user-state record, the dashboard, and educators' manual changes. */

let t: TestApp;
let owner: Caller;
let student: Caller;
let stranger: Caller;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.newCaller('owner');
  student = await t.newCaller('student');
  stranger = await t.newCaller('stranger');
});
afterAll(() => t?.close());

const { newExam, publishedJourney, play, gqlOk } = journeySeed(() => t, () => owner);

const STATE = `status outcome error run step waitUntil timeStart timeEnd stepsCompleted stepsTotal stepsRemaining flags
  history { run visit step type status outcome result successful decisions { decision type output label } }
  events { run type source from { step status } to { step status } operator time }`;
const READ = `query($id: ID!, $user: ID!) { node(id: $id) { ... on Exam { journeyUser(user: $user) { ${STATE} } } } }`;
const MOVE = `mutation($input: MoveJourneyUserInput!) { moveJourneyUser(input: $input) { ${STATE} } }`;
const change = (name: string) => `mutation($input: JourneyUserChangeInput!) { ${name}(input: $input) { ${STATE} } }`;
const DASHBOARD = `query($id: ID!) { node(id: $id) { ... on Exam { journeyDashboard { journey title active version users { total active waiting error completed stopped } nodes { node type label users active waiting error } } } } }`;

async function gqlCode(query: string, variables: Record<string, unknown>, as: Caller): Promise<string> {
  const r = await t.gql(query, variables, { as });
  expect(r.body.errors?.length, JSON.stringify(r.body)).toBeGreaterThan(0);
  return r.body.errors![0].extensions.code;
}

function nodes(x: string): JourneyNode[] {
  return [
    { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'x' } },
    { node: 'x', type: 'exam', label: 'Second', config: { exam: x, complete_on: 'finish', retake: false, reuse: false }, next: { done: 'f' } },
    { node: 'f', type: 'flag', config: { name: 'level', value: 'gold' }, next: { next: 'e' } },
    { node: 'e', type: 'end', config: { outcome: 'done' }, next: {} },
  ];
}

describe('educators change a user\'s journey', () => {
  it('moves, stops, resumes and restarts, each recorded as a change of source operator', async () => {
    const start = await newExam([student]);
    const x = await newExam([]);
    await publishedJourney(start, nodes(x));
    const vars = (extra: Record<string, unknown> = {}) => ({ input: { exam: start, user: student.user.id, ...extra } });

    expect((await gqlOk(READ, { id: start, user: student.user.id }, owner)).node.journeyUser).toMatchObject({ status: null, history: [], events: [] });
    expect(await gqlCode(change('stopJourneyUser'), vars(), owner)).toBe('NOT_FOUND');

    await play(start, student, 'a');
    const read = (await gqlOk(READ, { id: start, user: student.user.id }, owner)).node.journeyUser;
    expect(read).toMatchObject({ status: 'active', run: 1, step: { node: 'x', type: 'exam' }, stepsCompleted: 1, stepsTotal: 2, stepsRemaining: 1 });

    // Refused: a stranger learns nothing; the examinee has no control; a move to no node.
    expect(await gqlCode(MOVE, vars({ to: 'e' }), stranger)).toBe('NOT_FOUND');
    expect(await gqlCode(MOVE, vars({ to: 'e' }), student)).toBe('NOT_FOUND');
    expect(await gqlCode(MOVE, vars({ to: 'nowhere' }), owner)).toBe('INVALID_ARGUMENT');
    expect(await gqlCode(change('resumeJourneyUser'), vars(), owner)).toBe('JOURNEY_CHANGE_REFUSED');

    const stopped = (await gqlOk(change('stopJourneyUser'), vars(), owner)).stopJourneyUser;
    expect(stopped).toMatchObject({ status: 'stopped', outcome: 'stopped', stepsRemaining: null });
    expect(stopped.history.map((h: any) => [h.step, h.status])).toEqual([['start', 'completed'], ['x', 'stopped']]);
    expect(await gqlCode(change('stopJourneyUser'), vars(), owner)).toBe('JOURNEY_CHANGE_REFUSED');

    const resumed = (await gqlOk(change('resumeJourneyUser'), vars(), owner)).resumeJourneyUser;
    expect(resumed).toMatchObject({ status: 'active', outcome: null, step: { node: 'x' } });

    const moved = (await gqlOk(MOVE, vars({ to: 'f' }), owner)).moveJourneyUser;
    expect(moved).toMatchObject({ status: 'completed', outcome: 'done', flags: { level: 'gold' } });
    expect(moved.history.map((h: any) => [h.step, h.status])).toEqual([['start', 'completed'], ['x', 'stopped'], ['x', 'moved'], ['e', 'completed']]);
    expect(moved.history[2].decisions).toEqual([{ decision: 'f', type: 'flag', output: 'next', label: null }]);

    const restarted = (await gqlOk(change('restartJourneyUser'), vars(), owner)).restartJourneyUser;
    expect(restarted).toMatchObject({ status: 'active', run: 2, flags: null, step: { node: 'x' }, stepsCompleted: 1 });
    expect(restarted.events.map((e: any) => [e.run, e.type, e.source, e.from, e.to, e.operator])).toEqual([
      [1, 'stop', 'operator', { step: 'x', status: 'active' }, { step: 'x', status: 'stopped' }, owner.user.id],
      [1, 'resume', 'operator', { step: 'x', status: 'stopped' }, { step: 'x', status: 'active' }, owner.user.id],
      [1, 'move', 'operator', { step: 'x', status: 'active' }, { step: 'e', status: 'completed' }, owner.user.id],
      [2, 'restart', 'operator', { step: 'e', status: 'completed' }, { step: 'x', status: 'active' }, owner.user.id],
    ]);
    expect(restarted.history.filter((h: any) => h.run === 2).map((h: any) => h.step)).toEqual(['start', 'x']);
  });
});

describe('the journey dashboard', () => {
  it('counts users per status and node in the same number of statements for 5 and 200 users', async () => {
    const start = await newExam([]);
    const x = await newExam([]);
    const journey = await publishedJourney(start, nodes(x));
    const counts: number[] = [];
    let made = 0;
    for (const n of [5, 200]) {
      // Users already at chosen places of the journey, in bulk: the statement count needs the rows, not the way in.
      const users = [];
      for (; made < n; made++) users.push({ id: newId('User'), username: `dash${made}`, email: `dash${made}@example.com`, passwordHash: 'x', firstName: 'D', lastName: String(made), fullName: `D ${made}`, displayName: `D ${made}` });
      await t.db.prisma.user.createMany({ data: users });
      await t.db.prisma.journeyUser.createMany({
        data: users.map((u, i) => ({ journeyId: journey, userId: u.id, status: i % 4 === 0 ? 'completed' : i % 4 === 1 ? 'waiting' : 'active', node: i % 4 === 0 ? 'e' : 'x' })),
      });
      const { result, count } = await countStatements(t, () => t.gql(DASHBOARD, { id: start }, { as: owner }));
      expect(result.body.errors).toBeUndefined();
      const d = result.body.data.node.journeyDashboard;
      expect(d.users.total).toBe(n);
      expect(d.nodes.find((x: any) => x.node === 'x').users).toBe(d.users.active + d.users.waiting);
      counts.push(count);
    }
    expect(counts[0]).toBe(counts[1]);
    const d = (await gqlOk(DASHBOARD, { id: start }, owner)).node.journeyDashboard;
    expect(d).toMatchObject({ journey, title: 'Onboarding', active: true, version: 1, users: { total: 200, completed: 51, waiting: 50, active: 99, error: 0, stopped: 0 } });
    expect(d.nodes.map((n: any) => [n.node, n.users])).toEqual([['start', 0], ['x', 149], ['f', 0], ['e', 0]]);
    expect((await gqlOk(DASHBOARD, { id: start }, stranger)).node).toBeNull();
  });
});
