import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { newExam } from '../helpers/exam-settings-seed.ts';
import { createContext } from '../../src/create-context.ts';
import { RateLimiter } from '../../src/rate-limit.ts';
import { saveJourneyGraph } from '../../src/services/journeys/graph.service.ts';
import { JourneyInvalidError } from '../../src/errors.ts';

/**
 * A journey graph far over its limits (10,000 nodes, where 200 are allowed) is refused at once on
 * both faces, with a short answer: at most 100 issues and a count, while the service keeps answering.
 */

let t: TestApp;
let me: Caller;
beforeAll(async () => {
  t = await createTestApp();
  me = await t.newCaller('jb-owner');
});
afterAll(async () => t?.close());

/** 10,000 nodes with a problem each (an unknown type), about 0.9 MB of JSON. */
const tenThousand = Array.from({ length: 10_000 }, (_, i) => ({ node: `n${i}`, type: 'portal', label: `Node ${i}`, position: { x: i, y: i }, next: { next: `n${i + 1}` } }));

const SAVE = 'mutation ($input: SaveJourneyGraphInput!) { saveJourneyGraph(input: $input) { journey { id } } }';

interface Refusal {
  message: string;
  issues: { level: string; code: string }[];
  problems: number;
  exact: boolean;
}

/** A refusal lists at most 100 issues and says how many problems there are at least. */
function expectBounded(refusal: Refusal, size: number) {
  expect(refusal.issues.length).toBeGreaterThan(0);
  expect(refusal.issues.length).toBeLessThanOrEqual(100);
  expect(refusal.problems).toBeGreaterThanOrEqual(refusal.issues.filter((i) => i.level === 'error').length);
  expect(refusal.exact).toBe(false);
  expect(refusal.message).toMatch(new RegExp(`^The journey graph has at least ${refusal.problems} problems?, nothing was saved: `));
  // The answer of the issue report was 5-6 MB; this one is a few KB at most.
  expect(size).toBeLessThan(20_000);
}

async function live(): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await t.app.fetch(new Request(`${BASE_URL}/health/live`));
  await response.text();
  return { status: response.status, ms: performance.now() - started };
}

describe('a journey graph over its limits', () => {
  it('is refused by the service in milliseconds, before any node is looked at', async () => {
    const exam = await newExam(t, me);
    const ctx = await createContext(t.platform, new RateLimiter({ perSecond: 0, perMinute: 0 }), {
      headers: new Headers({ authorization: `Bearer ${me.app}:${me.secret}` }),
      args: {},
      requestId: 'bounds-test',
    });
    const call = async () => {
      const started = performance.now();
      const error = await saveJourneyGraph(ctx, { exam, nodes: tenThousand }).then(() => undefined, (e: unknown) => e);
      return { error, ms: performance.now() - started };
    };
    // The best of three: the machine running the tests is shared and busy; full validation of
    // these nodes took 0.5-4.5 s every time.
    const runs = [await call(), await call(), await call()];
    const { error } = runs[0]!;
    expect(Math.min(...runs.map((r) => r.ms))).toBeLessThan(200);
    expect(error).toBeInstanceOf(JourneyInvalidError);
    const refusal = { message: (error as JourneyInvalidError).message, ...(error as JourneyInvalidError).extra } as Refusal;
    expect(refusal.issues).toEqual([{ level: 'error', code: 'limit-exceeded', node: null, output: null, message: 'A journey has at most 200 nodes, not 10000' }]);
    expect(refusal.problems).toBe(1);
    expectBounded(refusal, JSON.stringify(refusal).length);
  });

  it('is refused on both faces, four at once, while /health/live answers; nothing is saved', async () => {
    const exam = await newExam(t, me);
    const headers = { authorization: `Bearer ${me.app}:${me.secret}`, 'content-type': 'application/json' };
    const rest = () => t.app.fetch(new Request(`${BASE_URL}/api/exam:journey:graph`, { method: 'PUT', headers, body: JSON.stringify({ exam, nodes: tenThousand }) }));
    const restText = () =>
      t.app.fetch(new Request(`${BASE_URL}/api/exam:journey:graph`, { method: 'PUT', headers: { authorization: headers.authorization }, body: new URLSearchParams({ exam, nodes: JSON.stringify(tenThousand) }) }));
    const graphql = () => t.app.fetch(new Request(`${BASE_URL}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: SAVE, variables: { input: { exam, nodes: tenThousand } } }) }));

    const calls = [rest(), restText(), graphql(), graphql()];
    const health = live();
    const [responses, healthy] = await Promise.all([Promise.all(calls), health]);
    expect(healthy.status).toBe(200);
    // Generous for a shared, loaded machine; full validation held it for seconds.
    expect(healthy.ms).toBeLessThan(2000);

    for (const response of responses.slice(0, 2)) {
      const text = await response.text();
      expect(response.status).toBe(403);
      expect(response.headers.get('service-api-error-code')).toBe('JOURNEY_INVALID');
      expect(response.headers.get('service-api-error')).toMatch(/^The journey graph has at least 1 problem, nothing was saved: A journey (has at most 200 nodes|graph is at most 500000 characters)/);
      const { error } = JSON.parse(text) as { error: Refusal & { status: number; code: string } };
      expect(error).toMatchObject({ status: 403, code: 'JOURNEY_INVALID', problems: 1, exact: false });
      expectBounded(error, text.length);
    }
    for (const response of responses.slice(2)) {
      const text = await response.text();
      const { errors, data } = JSON.parse(text) as { errors: { message: string; extensions: Refusal & { code: string; status: number } }[]; data: unknown };
      expect(errors).toHaveLength(1);
      expect(data).toBeNull();
      expect(errors[0]!.extensions).toMatchObject({ code: 'JOURNEY_INVALID', status: 403, problems: 1, exact: false });
      expect(errors[0]!.extensions.issues.map((i) => i.code)).toEqual(['limit-exceeded']);
      expectBounded({ ...errors[0]!.extensions, message: errors[0]!.message }, text.length);
    }
    expect(await t.db.prisma.journey.count({ where: { examId: exam } })).toBe(0);
  });

  it('over the size limit within the node limit, is refused before its nodes are looked at', async () => {
    const exam = await newExam(t, me);
    // 200 nodes with labels far over their own limit: the size is what is reported, not 200 labels.
    const heavy = Array.from({ length: 200 }, (_, i) => ({ node: `n${i}`, type: i === 0 ? 'start' : 'end', label: 'x'.repeat(3000) }));
    const r = await t.rpc('PUT', 'exam:journey:graph', { exam, nodes: heavy }, { as: me, encoding: 'json' });
    expect(r.status).toBe(403);
    expect(r.body.error.issues).toEqual([
      { level: 'error', code: 'limit-exceeded', node: null, output: null, message: 'A journey graph is at most 500000 characters of JSON (nodes and settings together)' },
    ]);
    expect(r.body.error).toMatchObject({ problems: 1, exact: false });
    const gql = await t.gql(SAVE, { input: { exam, nodes: JSON.stringify(heavy) } }, { as: me });
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'JOURNEY_INVALID', problems: 1, exact: false, issues: [{ code: 'limit-exceeded' }] });
    expect(await t.db.prisma.journey.count({ where: { examId: exam } })).toBe(0);
  });

  it('with more than 100 problems, is refused with the first 100 and "at least 101" on both faces', async () => {
    const exam = await newExam(t, me);
    // 200 nodes of an unknown type: 200 problems, and more to find beyond them.
    const nodes = Array.from({ length: 200 }, (_, i) => ({ node: `n${i}`, type: 'portal' }));
    const r = await t.rpc('PUT', 'exam:journey:graph', { exam, nodes }, { as: me, encoding: 'json' });
    expect(r.status).toBe(403);
    expect(r.code).toBe('JOURNEY_INVALID');
    expect(r.body.error.issues).toHaveLength(100);
    expect(r.body.error.issues.every((i: { code: string; node: string }, n: number) => i.code === 'type-invalid' && i.node === `n${n}`)).toBe(true);
    expect(r.body.error).toMatchObject({ problems: 101, exact: false });
    expect(r.error).toMatch(/^The journey graph has at least 101 problems, nothing was saved: Node 'n0': type must be one of /);

    const gql = await t.gql(SAVE, { input: { exam, nodes } }, { as: me });
    const extensions = gql.body.errors?.[0]?.extensions;
    expect(extensions).toMatchObject({ code: 'JOURNEY_INVALID', problems: 101, exact: false });
    expect(extensions.issues).toEqual(r.body.error.issues);
    expect(await t.db.prisma.journey.count({ where: { examId: exam } })).toBe(0);
  });

  it('within the limits, has its problems counted exactly', async () => {
    const exam = await newExam(t, me);
    const nodes = [{ node: 'start', type: 'start', next: { done: 'a' } }, ...Array.from({ length: 5 }, (_, i) => ({ node: i ? `a${i}` : 'a', type: 'portal' }))];
    const r = await t.rpc('PUT', 'exam:journey:graph', { exam, nodes }, { as: me, encoding: 'json' });
    expect(r.body.error).toMatchObject({ code: 'JOURNEY_INVALID', problems: 5, exact: true });
    expect(r.body.error.issues.filter((i: { level: string }) => i.level === 'error')).toHaveLength(5);
    expect(r.body.error.message).toMatch(/^The journey graph has 5 problems, nothing was saved: .*; …$/);
  });
});
