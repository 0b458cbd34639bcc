import { describe, expect, it } from 'vitest';
import {
  advance, applyOperator, emptyState, fieldValue, move, pickBranch, restart, resume, stepsCompleted, stepsRemaining,
  stop, waitEnd, type EngineFacts, type EngineInput, type ExamFact, type JourneyState, type PlayFact, type Visit,
} from './engine.ts';
import { defaultJourneySettings, type ConditionRule, type JourneyGraph, type JourneyNode } from './format.ts';

const T0 = new Date('2030-01-07T10:00:00Z'); // a Monday
const at = (iso: string) => new Date(iso);
const later = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

function graph(nodes: JourneyNode[], settings: Partial<JourneyGraph['settings']> = {}): JourneyGraph {
  return { schema: 1, settings: { ...defaultJourneySettings, ...settings }, nodes };
}
const start = (next: string | null = null, complete_on: 'finish' | 'success' | 'final' = 'finish'): JourneyNode =>
  ({ node: 'start', type: 'start', config: { complete_on }, next: { done: next } });
const end = (node: string, outcome = 'completed'): JourneyNode => ({ node, type: 'end', config: { outcome }, next: {} });

function play(id: string, minutes: number, percent: number, extra: Partial<PlayFact> = {}): PlayFact {
  return { play: id, timeStart: later(minutes - 5), timeEnd: later(minutes), finished: true, percent, points: percent / 10, successful: percent >= 50, grade: percent >= 50 ? 'pass' : 'fail', ...extra };
}
const exam = (plays: PlayFact[], extra: Partial<ExamFact> = {}): ExamFact => ({ plays, attemptsLeft: null, closed: false, changesAt: null, ...extra });

function facts(extra: Partial<EngineFacts> = {}): EngineFacts {
  return {
    user: { id: 'u1', timezone: 'UTC', gender: 'female', customerFields: { region: 'North' }, departments: ['Sales', 'Support'], teams: ['Blue'], generated: false },
    startExam: 'E0', examCustom: { seat: '12' },
    exams: { E0: exam([play('p0', 0, 80)]) }, quizzes: {}, classes: {}, ...extra,
  };
}

function run(g: JourneyGraph, f: EngineFacts, now = T0, state: JourneyState = emptyState, visits: Visit[] = []) {
  return advance({ graph: g, state, visits, facts: f, now });
}

describe('entering', () => {
  it.each([
    ['finish: any finished play', 'finish', [play('p0', 0, 10)], true],
    ['finish: an open play is not enough', 'finish', [{ ...play('p0', 0, 10), finished: false, timeEnd: null }], false],
    ['success: a failed play is not enough', 'success', [play('p0', 0, 10)], false],
    ['success: a passed play', 'success', [play('p0', 0, 10), play('p1', 5, 90)], true],
    ['final: failed with attempts left', 'final', [play('p0', 0, 10)], false],
  ] as const)('%s', (_name, completeOn, plays, enters) => {
    const r = run(graph([start(null, completeOn)]), facts({ exams: { E0: exam([...plays]) } }));
    expect(r.state.status).toBe(enters ? 'completed' : null);
  });

  it('final: failed with no attempts left enters with the last result', () => {
    const r = run(graph([start('e', 'final'), end('e')]), facts({ exams: { E0: exam([play('p0', 0, 10)], { attemptsLeft: 0 }) } }));
    expect(r.state).toMatchObject({ status: 'completed', outcome: 'completed', run: 1 });
    expect(r.visits[0]).toMatchObject({ node: 'start', status: 'completed', play: 'p0', result: 10, successful: false, output: 'done' });
  });

  it('an unconnected start finishes with outcome completed', () => {
    const r = run(graph([start(null)]), facts());
    expect(r.state).toMatchObject({ status: 'completed', outcome: 'completed', timeEnd: T0 });
    expect(r.effects).toContainEqual({ type: 'finished', status: 'completed', outcome: 'completed' });
  });
});

describe('node types', () => {
  const examStep = (config: Partial<{ complete_on: 'finish' | 'success' | 'final'; retake: boolean; reuse: boolean }> = {}): JourneyNode =>
    ({ node: 'x', type: 'exam', config: { exam: 'E1', complete_on: 'finish', retake: false, reuse: false, ...config }, next: { done: 'end' } });

  it('exam: entering enrolls and waits for a result after the visit began', () => {
    const g = graph([start('x'), examStep(), end('end')]);
    const first = run(g, facts({ exams: { E0: exam([play('p0', 0, 80)]), E1: exam([play('old', -10, 90)]) } }));
    expect(first.state).toMatchObject({ status: 'active', node: 'x' });
    expect(first.effects).toContainEqual({ type: 'enroll-exam', node: 'x', exam: 'E1', retake: false });
    const second = run(g, facts({ exams: { E0: exam([play('p0', 0, 80)]), E1: exam([play('old', -10, 90), play('p1', 30, 40)]) } }), later(31), first.state, first.visits);
    expect(second.state).toMatchObject({ status: 'completed', outcome: 'completed' });
    expect(second.visits[1]).toMatchObject({ node: 'x', type: 'exam', status: 'completed', play: 'p1', result: 40 });
  });

  it('exam with reuse: a result from before the visit completes it at once', () => {
    const g = graph([start('x'), examStep({ reuse: true }), end('end')]);
    const r = run(g, facts({ exams: { E0: exam([play('p0', 0, 80)]), E1: exam([play('old', -10, 90)]) } }));
    expect(r.state.status).toBe('completed');
    expect(r.visits[1]!.play).toBe('old');
  });

  it.each([
    ['success waits past a failure', 'success', [play('p1', 10, 30)], { attemptsLeft: 2 }, 'active', null],
    ['success: failed and no attempts left', 'success', [play('p1', 10, 30)], { attemptsLeft: 0 }, 'error', 'attempts-exhausted'],
    ['success: the exam closed', 'success', [play('p1', 10, 30)], { closed: true }, 'error', 'content-closed'],
    ['final: closed with a result completes', 'final', [play('p1', 10, 30)], { closed: true }, 'completed', null],
    ['final: closed without a result', 'final', [], { closed: true }, 'error', 'content-closed'],
    ['success: no attempts left but a play still open', 'success', [play('p1', 10, 30), { ...play('p2', 20, 0), finished: false, timeEnd: null }], { attemptsLeft: 0 }, 'active', null],
    ['success: failed and the results viewing period began', 'success', [play('p1', 10, 30)], { locked: true }, 'error', 'content-locked'],
    ['success: locked but a play still open', 'success', [{ ...play('p2', 20, 0), finished: false, timeEnd: null }], { locked: true }, 'active', null],
    ['final: locked with a result completes', 'final', [play('p1', 10, 30)], { locked: true }, 'completed', null],
    ['final: locked without a result', 'final', [], { locked: true }, 'error', 'content-locked'],
    ['content archived', 'finish', [], { problem: 'content-archived' as const }, 'error', 'content-archived'],
    ['content locked', 'finish', [], { problem: 'content-locked' as const }, 'error', 'content-locked'],
  ] as const)('exam: %s', (_n, completeOn, plays, extra, status, error) => {
    const g = graph([start('x'), examStep({ complete_on: completeOn }), end('end')]);
    const r = run(g, facts({ exams: { E0: exam([play('p0', 0, 80)]), E1: exam([...plays], extra) } }));
    expect(r.state.status).toBe(status);
    expect(r.state.error).toBe(error);
    if (status === 'error') expect(r.visits[1]!.status).toBe('error');
  });

  it('exam: missing content is content-invalid', () => {
    const r = run(graph([start('x'), examStep(), end('end')]), facts());
    expect(r.state).toMatchObject({ status: 'error', error: 'content-invalid', node: 'x' });
  });

  it('exam: the engine looks again at the end of the exam period', () => {
    const g = graph([start('x'), examStep({ complete_on: 'final' }), end('end')]);
    const r = run(g, facts({ exams: { E0: exam([play('p0', 0, 80)]), E1: exam([], { changesAt: at('2030-02-01T00:00:00Z') }) } }));
    expect(r.state).toMatchObject({ status: 'active', dueAt: at('2030-02-01T00:00:00Z') });
  });

  it.each([
    ['one play below min_result', [play('q1', 10, 40)], 1, 50, false],
    ['one play reaching min_result', [play('q1', 10, 60)], 1, 50, true],
    ['min_plays not reached', [play('q1', 10, 60)], 2, undefined, false],
    ['min_plays reached, best counts', [play('q1', 10, 60), play('q2', 20, 20)], 2, 50, true],
    ['plays before the visit do not count', [play('q0', -30, 100)], 1, undefined, false],
  ] as const)('quiz: %s', (_n, plays, minPlays, minResult, done) => {
    const g = graph([start('q'), { node: 'q', type: 'quiz', config: { quiz: 'Q1', min_plays: minPlays, min_result: minResult }, next: { done: null } }]);
    const r = run(g, facts({ quizzes: { Q1: { plays: [...plays] } } }));
    expect(r.state.status).toBe(done ? 'completed' : 'active');
    if (done) expect(r.visits[1]!.result).toBe(60);
  });

  it.each([
    ['completed after the visit', { membership: 'active', progress: 100, completedAt: later(10) }, false, true, 'completed', null],
    ['completed before, no reuse', { membership: 'active', progress: 100, completedAt: later(-10) }, false, true, 'active', null],
    ['completed before, reuse', { membership: 'active', progress: 100, completedAt: later(-10) }, true, true, 'completed', null],
    ['not progressive', { membership: 'active', progress: null, completedAt: null }, false, true, 'error', 'class-not-progressive'],
    ['membership removed later', { membership: 'missing', progress: 40, completedAt: null }, false, false, 'error', 'class-membership-missing'],
    ['membership expired later', { membership: 'expired', progress: 40, completedAt: null }, false, false, 'error', 'class-membership-expired'],
    ['not yet a member on entry: enrolled', { membership: 'missing', progress: 0, completedAt: null }, false, true, 'active', null],
    ['an expired membership on entry is not renewed', { membership: 'expired', progress: 0, completedAt: null }, false, true, 'error', 'enroll-failed'],
    ['an unapproved membership on entry is not approved', { membership: 'refused', progress: 0, completedAt: null }, false, true, 'error', 'enroll-failed'],
    ['membership unapproved later', { membership: 'refused', progress: 40, completedAt: null }, false, false, 'error', 'class-membership-missing'],
  ] as const)('class: %s', (_n, fact, reuse, fresh, status, error) => {
    const g = graph([start('c'), { node: 'c', type: 'class', config: { class: 'C1', reuse }, next: { done: null } }]);
    const f = facts({ classes: { C1: { ...fact } } });
    let r = run(g, fresh ? f : facts({ classes: { C1: { membership: 'active', progress: 0, completedAt: null } } }));
    if (!fresh) r = run(g, f, later(20), r.state, r.visits);
    expect(r.effects.some((e) => e.type === 'enroll-class') || !fresh).toBe(true);
    expect(r.state.status).toBe(status);
    expect(r.state.error).toBe(error);
  });

  it('class: the engine looks again when the membership expires', () => {
    const g = graph([start('c'), { node: 'c', type: 'class', config: { class: 'C1', reuse: false }, next: { done: null } }]);
    const r = run(g, facts({ classes: { C1: { membership: 'active', progress: 0, completedAt: null, expiresAt: later(90) } } }));
    expect(r.state).toMatchObject({ status: 'active', node: 'c', dueAt: later(90) });
  });

  it('split: the same user, node and visit always take the same branch, spread by weight', () => {
    const branches = [{ key: 'a', weight: 1 }, { key: 'b', weight: 3 }, { key: 'z', weight: 0 }];
    const counts: Record<string, number> = { a: 0, b: 0, z: 0 };
    for (let i = 0; i < 4000; i++) counts[pickBranch(branches, `u${i}`, 's', 1, 1).key]!++;
    expect(counts.z).toBe(0);
    expect(counts.b! / 4000).toBeGreaterThan(0.7);
    expect(counts.b! / 4000).toBeLessThan(0.8);
    expect(pickBranch(branches, 'u7', 's', 1, 1)).toBe(pickBranch(branches, 'u7', 's', 1, 1));
    const g = graph([start('s'), { node: 's', type: 'split', config: { branches: [{ key: 'a', weight: 1 }, { key: 'b', weight: 1, label: 'B' }] }, next: { a: 'ea', b: 'eb' } }, end('ea', 'A'), end('eb', 'B')]);
    const r1 = run(g, facts());
    const r2 = run(g, facts());
    expect(r1.state.outcome).toBe(r2.state.outcome);
    expect(r1.visits[0]!.decisions[0]).toMatchObject({ decision: 's', type: 'split', output: r1.state.outcome === 'A' ? 'a' : 'b' });
  });

  it('notify, flag and mark run at once and are recorded as decisions of the step before', () => {
    const g = graph([
      start('n'),
      { node: 'n', type: 'notify', label: 'Tell', config: { target: 'educators', message: 'Passed' }, next: { next: 'f' } },
      { node: 'f', type: 'flag', config: { name: 'level', value: 'gold' }, next: { next: 'm' } },
      { node: 'm', type: 'mark', config: { mode: 'mark' }, next: { next: 'end' } },
      end('end', 'done-well'),
    ]);
    const r = run(g, facts());
    expect(r.effects).toContainEqual({ type: 'notify', node: 'n', target: 'educators', message: 'Passed' });
    expect(r.state).toMatchObject({ status: 'completed', outcome: 'done-well', flags: { level: 'gold' }, marks: ['m'] });
    expect(r.visits[0]!.decisions.map((d) => [d.decision, d.type, d.output])).toEqual([['n', 'notify', 'next'], ['f', 'flag', 'next'], ['m', 'mark', 'next']]);
    expect(r.visits[1]).toMatchObject({ node: 'end', type: 'end', status: 'completed', output: 'done-well' });
  });

  it('unmark clears the marks', () => {
    const g = graph([start('m'), { node: 'm', type: 'mark', config: { mode: 'unmark' }, next: { next: null } }]);
    const r = run(g, facts(), T0, { ...emptyState, marks: ['x'] });
    expect(r.state.marks).toEqual([]);
  });

  it('end: failed and custom outcomes', () => {
    expect(run(graph([start('e'), end('e', 'failed')]), facts()).state.outcome).toBe('failed');
    expect(run(graph([start('e'), end('e', 'needs coaching')]), facts()).state.outcome).toBe('needs coaching');
  });

  it('wait: the user waits until the computed time, then goes on', () => {
    const g = graph([start('w'), { node: 'w', type: 'wait', config: { mode: 'duration', minutes: 90 }, next: { next: 'end' } }, end('end')]);
    const r = run(g, facts());
    expect(r.state).toMatchObject({ status: 'waiting', node: 'w', waitUntil: later(90), dueAt: later(90) });
    expect(run(g, facts(), later(89), r.state, r.visits).state.status).toBe('waiting');
    const done = run(g, facts(), later(90), r.state, r.visits);
    expect(done.state).toMatchObject({ status: 'completed', waitUntil: null, dueAt: null });
    expect(done.visits[1]).toMatchObject({ node: 'w', status: 'completed', timeEnd: later(90) });
  });
});

describe('wait end', () => {
  it.each([
    ['duration', { mode: 'duration', minutes: 1440 }, '2030-01-07T10:00:00Z', 'UTC', '2030-01-08T10:00:00Z'],
    ['date with time in the node zone', { mode: 'date', date: '2030-03-01 09:30', timezone: 'Europe/Berlin' }, '2030-01-07T10:00:00Z', 'UTC', '2030-03-01T08:30:00Z'],
    ['date with time across the summer change', { mode: 'date', date: '2030-04-01 09:30', timezone: 'Europe/Berlin' }, '2030-01-07T10:00:00Z', 'UTC', '2030-04-01T07:30:00Z'],
    ['date only: start of day in the user zone', { mode: 'date', date: '2030-03-01' }, '2030-01-07T10:00:00Z', 'America/New_York', '2030-03-01T05:00:00Z'],
    ['weekday later this week', { mode: 'weekday', weekday: 3, time: '08:00' }, '2030-01-07T10:00:00Z', 'UTC', '2030-01-09T08:00:00Z'],
    ['weekday: today, time already past', { mode: 'weekday', weekday: 1, time: '08:00' }, '2030-01-07T10:00:00Z', 'UTC', '2030-01-14T08:00:00Z'],
    ['weekday: today, time still ahead', { mode: 'weekday', weekday: 1, time: '12:00' }, '2030-01-07T10:00:00Z', 'UTC', '2030-01-07T12:00:00Z'],
    ['weekday without time, in a zone', { mode: 'weekday', weekday: 7, timezone: 'Asia/Tokyo' }, '2030-01-07T10:00:00Z', 'UTC', '2030-01-12T15:00:00Z'],
  ] as const)('%s', (_n, config, from, userTz, expected) => {
    expect(waitEnd(config as never, at(from), userTz).toISOString()).toBe(at(expected).toISOString());
  });
});

describe('rule operators', () => {
  it.each([
    ['eq number', 70, 'eq', 70, true], ['eq number text', 70, 'eq', '70', true], ['eq text case', 'Gold', 'eq', 'gold', true],
    ['neq', 70, 'neq', 71, true], ['neq missing', null, 'neq', 1, true],
    ['gt', 70, 'gt', 69.5, true], ['gt equal', 70, 'gt', 70, false], ['gte', 70, 'gte', 70, true],
    ['lt', 70, 'lt', 80, true], ['lte', 70, 'lte', 69, false],
    ['between inside', 50, 'between', [50, 60], true], ['between upper', 60, 'between', [50, 60], true], ['between outside', 61, 'between', [50, 60], false],
    ['between malformed', 55, 'between', [50], false],
    ['in', 'b', 'in', ['a', 'b'], true], ['in missing', null, 'in', ['a'], false], ['not_in', 'c', 'not_in', ['a', 'b'], true], ['not_in missing', null, 'not_in', ['a'], true],
    ['contains text', 'North East', 'contains', 'east', true], ['contains list', ['Sales', 'Support'], 'contains', 'support', true],
    ['eq list member', ['Sales'], 'eq', 'sales', true], ['in list', ['Sales'], 'in', ['HR', 'Sales'], true], ['not_in list', ['Sales'], 'not_in', ['HR'], true],
    ['empty null', null, 'empty', undefined, true], ['empty text', '', 'empty', undefined, true], ['empty list', [], 'empty', undefined, true],
    ['not_empty', 'x', 'not_empty', undefined, true], ['not_empty null', null, 'not_empty', undefined, false],
    ['is_true', true, 'is_true', undefined, true], ['is_true text', 'true', 'is_true', undefined, true], ['is_true null', null, 'is_true', undefined, false],
    ['is_false', false, 'is_false', undefined, true], ['is_false null', null, 'is_false', undefined, false],
    ['gt missing', null, 'gt', 1, false], ['eq boolean', true, 'eq', 'true', true], ['gt text vs number', 'abc', 'gt', 5, true],
  ] as const)('%s', (_n, actual, op, value, expected) => {
    expect(applyOperator(actual as never, op, value)).toBe(expected);
  });

  it('date.datetime compares instants', () => {
    expect(applyOperator(at('2030-01-07T10:00:00Z').getTime(), 'gte', '2030-01-07 10:00', true)).toBe(true);
    expect(applyOperator(at('2030-01-07T10:00:00Z').getTime(), 'lt', '2030-01-07T09:00:00+00:00', true)).toBe(false);
    expect(applyOperator(at('2030-01-07T10:00:00Z').getTime(), 'between', ['2030-01-01', '2030-02-01'], true)).toBe(true);
  });
});

describe('rule fields', () => {
  const examFact = exam([play('p0', 0, 80)]);
  const visits: Visit[] = [
    { run: 1, visit: 1, node: 'start', type: 'start', status: 'completed', output: 'done', timeStart: later(-10), timeEnd: later(0), play: 'p0', result: 80, successful: true, grade: 'B', skills: { alg: { points: 4, percent: 80 } }, decisions: [] },
    { run: 1, visit: 2, node: 'x', type: 'exam', status: 'completed', output: 'done', timeStart: later(0), timeEnd: later(30), play: 'p1', result: 40, successful: false, grade: 'D', skills: { alg: { points: 1, percent: 20 } }, decisions: [{ decision: 'c', type: 'condition', title: null, output: 'else', label: null }] },
    { run: 1, visit: 3, node: 'x', type: 'exam', status: 'completed', output: 'done', timeStart: later(40), timeEnd: later(100), play: 'p2', result: 90, successful: true, grade: 'A', skills: { alg: { points: 5, percent: 100 } }, decisions: [] },
  ];
  const g = graph([start('x'), { node: 'x', type: 'exam', config: { exam: 'E1', complete_on: 'finish', retake: true, reuse: false }, next: { done: 'c' } }, { node: 'c', type: 'condition', config: { branches: [] }, next: { else: 'x' } }]);
  const f = facts({ exams: { E0: examFact, E1: exam([play('p1', 20, 40), play('p1b', 25, 45), play('p2', 90, 90)]) } });
  const state: JourneyState = { ...emptyState, status: 'active', run: 1, node: 'c', timeStart: later(-10), flags: { level: 'gold' } };
  const scope = { state, visits, facts: f, now: at('2030-01-09T15:30:00Z'), nodes: new Map(g.nodes.map((n) => [n.node, n])), visitCount: (k: string) => visits.filter((v) => v.node === k).length + visits.flatMap((v) => v.decisions).filter((d) => d.decision === k).length };
  const value = (rule: Partial<ConditionRule>) => fieldValue({ operator: 'eq', ...rule } as ConditionRule, scope);

  it.each([
    ['step.result', {}, 90], ['step.successful', {}, true], ['step.grade', {}, 'A'], ['step.attempts', {}, 1],
    ['step.time_spent', {}, 60], ['step.visits', {}, 2], ['step.skill', { param: 'alg' }, 5], ['step.skill', { param: 'alg', measure: 'percent' }, 100],
    ['node.result', { param: 'x' }, 90], ['node.result', { param: 'x', aggregate: 'first' }, 40], ['node.result', { param: 'x', aggregate: 'best' }, 90],
    ['node.result', { param: 'x', aggregate: 'worst' }, 40], ['node.result', { param: 'x', aggregate: 'average' }, 65],
    ['node.successful', { param: 'x', aggregate: 'best' }, true], ['node.successful', { param: 'x', aggregate: 'worst' }, false], ['node.successful', { param: 'x', aggregate: 'first' }, false],
    ['node.grade', { param: 'x', aggregate: 'worst' }, 'D'], ['node.grade', { param: 'x' }, 'A'],
    ['node.time_spent', { param: 'x', aggregate: 'best' }, 30], ['node.time_spent', { param: 'x', aggregate: 'average' }, 45],
    ['node.completed', { param: 'x' }, true], ['node.completed', { param: 'nope' }, false], ['node.visits', { param: 'x' }, 2], ['node.visits', { param: 'c' }, 1],
    ['node.skill', { param: 'x:alg', aggregate: 'average', measure: 'percent' }, 60], ['node.skill', { param: 'start:alg' }, 4],
    ['exam.custom', { param: 'seat' }, '12'], ['exam.custom', { param: 'none' }, null],
    ['user.gender', {}, 'female'], ['user.customer_field', { param: 'region' }, 'North'], ['user.department', {}, ['Sales', 'Support']],
    ['user.team', {}, ['Blue']], ['user.generated', {}, false],
    ['journey.flag', { param: 'level' }, 'gold'], ['journey.flag', { param: 'other' }, null], ['journey.days', {}, 2], ['journey.steps', {}, 2],
    ['date.weekday', {}, 3], ['date.weekday', { time: '16:00' }, 2], ['date.weekday', { timezone: 'Pacific/Kiritimati' }, 4],
    ['date.hour', {}, 15], ['date.hour', { timezone: 'Asia/Kolkata' }, 21], ['date.date', {}, '2030-01-09'], ['date.date', { timezone: 'Pacific/Kiritimati' }, '2030-01-10'],
    ['date.datetime', {}, at('2030-01-09T15:30:00Z').getTime()],
  ] as const)('%s %j', (field, rule, expected) => {
    expect(value({ field, ...rule } as Partial<ConditionRule>)).toEqual(expected);
  });

  it('no step yet: step fields are missing', () => {
    const none = { ...scope, visits: [] };
    expect(fieldValue({ field: 'step.result', operator: 'eq' }, none)).toBeNull();
    expect(stepsCompleted([])).toBe(0);
  });
});

describe('condition nodes', () => {
  const cond = (match: 'all' | 'any', rules: ConditionRule[]): JourneyNode => ({
    node: 'c', type: 'condition', config: { branches: [{ key: 'hi', label: 'High', match, rules }, { key: 'mid', match: 'all', rules: [{ field: 'step.result', operator: 'gte', value: 50 }] }], else_label: 'Low' },
    next: { hi: 'eh', mid: 'em', else: 'el' },
  });
  const g = (match: 'all' | 'any', rules: ConditionRule[]) => graph([start('c'), cond(match, rules), end('eh', 'high'), end('em', 'mid'), end('el', 'low')]);
  it.each([
    ['all true', 'all', [{ field: 'step.result', operator: 'gte', value: 70 }, { field: 'user.gender', operator: 'eq', value: 'female' }], 'high'],
    ['all, one false: the next branch', 'all', [{ field: 'step.result', operator: 'gte', value: 70 }, { field: 'user.gender', operator: 'eq', value: 'male' }], 'mid'],
    ['any, one true', 'any', [{ field: 'step.result', operator: 'gte', value: 95 }, { field: 'user.team', operator: 'contains', value: 'blue' }], 'high'],
    ['no rules under all: matches', 'all', [], 'high'],
  ] as const)('%s', (_n, match, rules, outcome) => {
    expect(run(g(match, rules as never), facts()).state.outcome).toBe(outcome);
  });

  it('else when nothing matches, with its label', () => {
    const r = run(g('all', [{ field: 'step.result', operator: 'gt', value: 99 }]), facts({ exams: { E0: exam([play('p0', 0, 20)]) } }));
    expect(r.state.outcome).toBe('low');
    expect(r.visits[0]!.decisions[0]).toMatchObject({ decision: 'c', type: 'condition', output: 'else', label: 'Low' });
  });
});

describe('loops, errors and manual changes', () => {
  const loop = graph([
    start('x'),
    { node: 'x', type: 'exam', config: { exam: 'E1', complete_on: 'finish', retake: true, reuse: false }, next: { done: 'c' } },
    { node: 'c', type: 'condition', config: { branches: [{ key: 'ok', match: 'all', rules: [{ field: 'step.successful', operator: 'is_true' }] }] }, next: { ok: 'end', else: 'x' } },
    end('end'),
  ], { max_visits: 2 });

  it('max_visits stops a loop with outcome loop-limit', () => {
    let plays: PlayFact[] = [];
    const f = () => facts({ exams: { E0: exam([play('p0', 0, 80)]), E1: exam(plays) } });
    let r = run(loop, f());
    for (let i = 1; i <= 3 && r.state.status === 'active'; i++) {
      plays = [...plays, play(`f${i}`, i * 10, 10)];
      r = run(loop, f(), later(i * 10), r.state, r.visits);
    }
    expect(r.state).toMatchObject({ status: 'stopped', outcome: 'loop-limit' });
    expect(r.visits.filter((v) => v.node === 'x')).toHaveLength(2);
  });

  it('an instant-only cycle stops at the limit', () => {
    const g = graph([start('a'), { node: 'a', type: 'flag', config: { name: 'n', value: 'v' }, next: { next: 'b' } }, { node: 'b', type: 'mark', config: { mode: 'mark' }, next: { next: 'a' } }], { max_visits: 3 });
    const r = run(g, facts());
    expect(r.state).toMatchObject({ status: 'stopped', outcome: 'loop-limit' });
    expect(r.visits[0]!.decisions).toHaveLength(6);
  });

  it('a move closes the visit as moved and enters the target; stop, resume and restart', () => {
    const f = facts({ exams: { E0: exam([play('p0', 0, 80)]), E1: exam([]) } });
    const r = run(loop, f);
    const input = (x: typeof r, now: Date): EngineInput => ({ graph: loop, state: x.state, visits: x.visits, facts: f, now });
    const moved = move(input(r, later(5)), 'end');
    expect(moved.visits[1]).toMatchObject({ node: 'x', status: 'moved' });
    expect(moved.state).toMatchObject({ status: 'completed', outcome: 'completed', node: 'end' });

    const stopped = stop(input(r, later(5)));
    expect(stopped.state).toMatchObject({ status: 'stopped', outcome: 'stopped' });
    expect(stopped.visits[1]!.status).toBe('stopped');
    const resumed = resume(input(stopped, later(6)));
    expect(resumed.state).toMatchObject({ status: 'active', node: 'x', outcome: null, timeEnd: null });
    expect(resumed.visits.map((v) => v.status)).toEqual(['completed', 'stopped', 'active']);

    const restarted = restart(input(resumed, later(7)));
    expect(restarted.state).toMatchObject({ run: 2, status: 'active', node: 'x', flags: {} });
    expect(restarted.visits.map((v) => [v.run, v.visit, v.node])).toEqual([[2, 1, 'start'], [2, 2, 'x']]);
    expect(restarted.touched.map((v) => [v.run, v.visit, v.status])).toEqual([[1, 3, 'stopped'], [2, 1, 'completed'], [2, 2, 'active']]);
  });

  it('completed, stopped and error users are left alone by advance', () => {
    for (const status of ['completed', 'stopped', 'error'] as const) {
      const s: JourneyState = { ...emptyState, status, run: 1, node: 'x' };
      expect(run(loop, facts(), T0, s).state).toEqual(s);
    }
  });
});

describe('steps remaining', () => {
  it('counts the fewest steps to an end, the current one included', () => {
    const g = graph([
      start('c'),
      { node: 'c', type: 'condition', config: { branches: [{ key: 'long', match: 'all', rules: [] }] }, next: { long: 'a', else: 'b' } },
      { node: 'a', type: 'exam', config: { exam: 'E1', complete_on: 'finish', retake: false, reuse: false }, next: { done: 'b' } },
      { node: 'b', type: 'quiz', config: { quiz: 'Q', min_plays: 1 }, next: { done: 'w' } },
      { node: 'w', type: 'wait', config: { mode: 'duration', minutes: 5 }, next: { next: 'end' } },
      end('end'),
    ]);
    const s = (node: string, status: JourneyState['status'] = 'active'): JourneyState => ({ ...emptyState, status, run: 1, node });
    expect(stepsRemaining(g, s('c'))).toBe(1);
    expect(stepsRemaining(g, s('a'))).toBe(2);
    expect(stepsRemaining(g, s('w', 'waiting'))).toBe(0);
    expect(stepsRemaining(g, s('a', 'completed'))).toBeNull();
    const noEnd = graph([start('x'), { node: 'x', type: 'exam', config: { exam: 'E', complete_on: 'finish', retake: true, reuse: false }, next: { done: 'x' } }]);
    expect(stepsRemaining(noEnd, s('x'))).toBeNull();
  });
});
