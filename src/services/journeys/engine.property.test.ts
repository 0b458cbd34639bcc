import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advance, emptyState, stepsRemaining, type EngineFacts, type PlayFact } from './engine.ts';
import { defaultJourneySettings, journeyUserStatuses, stepTypes, type JourneyGraph, type JourneyNode, type NodeType } from './format.ts';

const T0 = Date.parse('2030-01-07T10:00:00Z');
const bodyTypes: NodeType[] = ['exam', 'quiz', 'class', 'condition', 'split', 'notify', 'flag', 'mark', 'wait', 'end'];

/** A random valid graph: one start, keys n0..nk, every output to a random node or unconnected. */
const graphArb = fc.integer({ min: 1, max: 10 }).chain((size) => {
  const keys = ['start', ...Array.from({ length: size }, (_, i) => `n${i}`)];
  const target = fc.option(fc.constantFrom(...keys), { nil: null, freq: 4 });
  const node = (key: string) => fc.record({
    type: fc.constantFrom(...bodyTypes),
    content: fc.constantFrom('A', 'B'),
    completeOn: fc.constantFrom('finish', 'success', 'final'),
    retake: fc.boolean(),
    threshold: fc.integer({ min: 0, max: 100 }),
    op: fc.constantFrom('gte', 'lt', 'eq', 'between', 'in', 'not_empty'),
    weights: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 2, maxLength: 3 }),
    minutes: fc.integer({ min: 1, max: 600 }),
    targets: fc.array(target, { minLength: 3, maxLength: 3 }),
  }).map((r): JourneyNode => {
    const [t0, t1, t2] = r.targets as [string | null, string | null, string | null];
    switch (r.type) {
      case 'exam': return { node: key, type: 'exam', config: { exam: r.content, complete_on: r.completeOn as 'finish', retake: r.retake, reuse: false }, next: { done: t0 } };
      case 'quiz': return { node: key, type: 'quiz', config: { quiz: r.content, min_plays: 1 + (r.threshold % 2), min_result: r.threshold > 50 ? r.threshold - 50 : undefined }, next: { done: t0 } };
      case 'class': return { node: key, type: 'class', config: { class: r.content, reuse: r.retake }, next: { done: t0 } };
      case 'condition': return {
        node: key, type: 'condition',
        config: { branches: [{ key: 'b', match: 'all', rules: [{ field: 'step.result', operator: r.op as 'gte', value: r.op === 'between' ? [r.threshold, 100] : r.op === 'in' ? [r.threshold] : r.threshold }] }] },
        next: { b: t0, else: t1 },
      };
      case 'split': return { node: key, type: 'split', config: { branches: r.weights.map((weight, i) => ({ key: `s${i}`, weight: i === 0 ? Math.max(1, weight) : weight })) }, next: Object.fromEntries(r.weights.map((_, i) => [`s${i}`, [t0, t1, t2][i] ?? null])) };
      case 'notify': return { node: key, type: 'notify', config: { target: 'user', message: 'hello' }, next: { next: t0 } };
      case 'flag': return { node: key, type: 'flag', config: { name: 'f', value: String(r.threshold) }, next: { next: t0 } };
      case 'mark': return { node: key, type: 'mark', config: { mode: r.retake ? 'mark' : 'unmark' }, next: { next: t0 } };
      case 'wait': return { node: key, type: 'wait', config: { mode: 'duration', minutes: r.minutes }, next: { next: t0 } };
      default: return { node: key, type: 'end', config: { outcome: r.retake ? 'completed' : 'failed' }, next: {} };
    }
  });
  return fc.tuple(
    fc.tuple(...keys.slice(1).map(node)),
    fc.option(fc.constantFrom(...keys.slice(1)), { nil: null }),
    fc.integer({ min: 1, max: 4 }),
  ).map(([body, first, maxVisits]): JourneyGraph => ({
    schema: 1,
    settings: { ...defaultJourneySettings, max_visits: maxVisits },
    nodes: [{ node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: first } }, ...body],
  }));
});

/** What happens between two looks of the engine: time passes, maybe a play or a class completion. */
const eventArb = fc.record({
  minutes: fc.integer({ min: 1, max: 400 }),
  kind: fc.constantFrom('exam', 'quiz', 'class', 'nothing'),
  content: fc.constantFrom('A', 'B'),
  percent: fc.integer({ min: 0, max: 100 }),
  attemptsLeft: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
  locked: fc.boolean(),
});

describe('the engine on random graphs and results', () => {
  it('keeps the visit limit, ends in a documented status, and never over-estimates the steps remaining', () => {
    fc.assert(fc.property(graphArb, fc.array(eventArb, { maxLength: 40 }), fc.string({ minLength: 1, maxLength: 8 }), (graph, events, userId) => {
      let now = T0;
      const exams: Record<string, PlayFact[]> = { E0: [{ play: 'p0', timeStart: new Date(T0 - 60_000), timeEnd: new Date(T0), finished: true, percent: 70, points: 7, successful: true, grade: null }] };
      const quizzes: Record<string, PlayFact[]> = {};
      const classes: Record<string, Date | null> = {};
      const attempts: Record<string, number | null> = {};
      const locked: Record<string, boolean> = {};
      const facts = (): EngineFacts => ({
        user: { id: userId, timezone: 'UTC', gender: null, customerFields: {}, departments: [], teams: [], generated: false },
        startExam: 'E0', examCustom: {},
        exams: { E0: { plays: exams.E0!, attemptsLeft: null, closed: false, changesAt: null }, A: { plays: exams.A ?? [], attemptsLeft: attempts.A ?? null, locked: locked.A, closed: false, changesAt: null }, B: { plays: exams.B ?? [], attemptsLeft: attempts.B ?? null, locked: locked.B, closed: false, changesAt: null } },
        quizzes: { A: { plays: quizzes.A ?? [] }, B: { plays: quizzes.B ?? [] } },
        classes: Object.fromEntries(['A', 'B'].map((c) => [c, { membership: 'active' as const, progress: classes[c] ? 100 : 50, completedAt: classes[c] ?? null }])),
      });

      let r = advance({ graph, state: emptyState, visits: [], facts: facts(), now: new Date(now) });
      const estimates: Array<{ completedBefore: number; remaining: number }> = [];
      const completedSteps = () => r.visits.filter((v) => stepTypes.has(v.type) && v.status === 'completed').length;
      const look = () => {
        const counts = new Map<string, number>();
        for (const v of r.visits) {
          counts.set(v.node, (counts.get(v.node) ?? 0) + 1);
          for (const d of v.decisions) counts.set(d.decision, (counts.get(d.decision) ?? 0) + 1);
        }
        for (const [, n] of counts) expect(n).toBeLessThanOrEqual(graph.settings.max_visits);
        expect(journeyUserStatuses).toContain(r.state.status);
        if (r.state.status === 'completed' || r.state.status === 'stopped') expect(r.state.outcome).toBeTruthy();
        if (r.state.status === 'error') expect(r.state.error).toBeTruthy();
        if (r.state.status === 'waiting') expect(r.state.waitUntil!.getTime()).toBeGreaterThan(now);
        const remaining = stepsRemaining(graph, r.state);
        if (remaining !== null) estimates.push({ completedBefore: completedSteps(), remaining });
      };
      look();
      for (const e of events) {
        if (r.state.status !== 'active' && r.state.status !== 'waiting') break;
        now += e.minutes * 60_000;
        const p: PlayFact = { play: `p${now}`, timeStart: new Date(now - 60_000), timeEnd: new Date(now), finished: true, percent: e.percent, points: e.percent / 10, successful: e.percent >= 50, grade: null };
        if (e.kind === 'exam') { (exams[e.content] ??= []).push(p); attempts[e.content] = e.attemptsLeft; locked[e.content] = e.locked; }
        if (e.kind === 'quiz') (quizzes[e.content] ??= []).push(p);
        if (e.kind === 'class') classes[e.content] = new Date(now);
        r = advance({ graph, state: r.state, visits: r.visits, facts: facts(), now: new Date(now) });
        look();
      }
      if (r.state.status === 'completed') {
        const total = completedSteps();
        for (const est of estimates) expect(total - est.completedBefore).toBeGreaterThanOrEqual(est.remaining);
      }
    }), { numRuns: 400 });
  });
});
