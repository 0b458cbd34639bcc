import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { newQuiz, ok as rest } from '../helpers/quiz-seed.ts';
import { grantExam, newExam, setFeature } from '../helpers/exam-settings-seed.ts';
import { expectCode, type GraphQLErrorBody } from './client.ts';

let t: TestApp;
let me: Caller;
beforeAll(async () => {
  t = await createTestApp();
  me = await t.newCaller('gql-journey-owner');
});
afterAll(async () => t?.close());

async function gqlOk(query: string, variables: Record<string, unknown> = {}, as: Caller = me) {
  const r = await t.gql(query, variables, { as });
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  return r.body.data;
}

/** The single error of a refused operation; nothing is written. */
async function gqlRefused(query: string, variables: Record<string, unknown>, as: Caller = me): Promise<GraphQLErrorBody> {
  const before = await t.db.prisma.journey.findMany({ orderBy: { id: 'asc' } });
  const r = await t.gql(query, variables, { as });
  expect(r.body.errors).toHaveLength(1);
  expect(await t.db.prisma.journey.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
  return r.body.errors![0];
}

const JOURNEY_FIELDS = 'id enabled version published draft settings issues { level code node output message } publishable unpublishedChanges publishedGraph';
const EXAM = `query ($id: ID!) { node(id: $id) { ... on Exam { journey { ${JOURNEY_FIELDS} } } } }`;
const SAVE = `mutation ($input: SaveJourneyGraphInput!) { saveJourneyGraph(input: $input) { journey { ${JOURNEY_FIELDS} } ignored } }`;
const ENABLE = `mutation ($input: SetJourneyEnabledInput!) { setJourneyEnabled(input: $input) { id enabled } }`;

const nodes = (quiz: string) => [
  { node: 'start', type: 'start', position: { x: 0, y: 0 }, next: { done: 'q' } },
  { node: 'q', type: 'quiz', position: { x: 240, y: 0 }, config: { quiz }, next: { done: null } },
];

describe('Exam.journey and saveJourneyGraph', () => {
  it('saves through the same service as PUT exam:journey:graph and reads the same draft', async () => {
    const exam = await newExam(t, me);
    const quiz = await newQuiz(t, me, { title: 'Warm-up' });
    expect((await gqlOk(EXAM, { id: exam })).node.journey).toBeNull();

    const saved = (await gqlOk(SAVE, { input: { exam, nodes: nodes(quiz), settings: { title: 'Path', extra: 1 } } })).saveJourneyGraph;
    expect(saved.ignored).toEqual(['settings.extra']);
    const j = saved.journey;
    expect(j).toMatchObject({ enabled: true, version: 0, published: null, publishable: true, unpublishedChanges: true, publishedGraph: null });
    expect(j.id).toMatch(/^jrn_/);
    expect(j.settings).toEqual({ title: 'Path', description: null, max_visits: 5, restartable: false, notify_user: false, educators: [] });
    expect(j.issues).toEqual([{ level: 'warning', code: 'output-unconnected', node: 'q', output: 'done', message: expect.any(String) }]);

    const viaRest = await rest(t, 'GET', 'exam:journey:graph', { exam }, me);
    expect(j.draft).toEqual({ schema: 1, settings: viaRest.settings, nodes: viaRest.nodes });
    expect((await gqlOk(EXAM, { id: exam })).node.journey).toEqual(j);

    // JSON text works here too; settings merge over the current ones.
    const again = (await gqlOk(SAVE, { input: { exam, nodes: JSON.stringify(nodes(quiz)), settings: '{"restartable": true}' } })).saveJourneyGraph;
    expect(again.ignored).toEqual([]);
    expect(again.journey.settings).toMatchObject({ title: 'Path', restartable: true });
  });

  it('refuses a graph with problems with every issue in extensions and saves nothing', async () => {
    const exam = await newExam(t, me);
    const e = await gqlRefused(SAVE, { input: { exam, nodes: [{ node: 'a', type: 'wait', config: { mode: 'duration', minutes: 0 } }, { node: 'a', type: 'end' }], schema: 3 } });
    expectCode(e, 'JOURNEY_INVALID');
    expect((e.extensions!.issues as { code: string }[]).map((i) => i.code)).toEqual(['schema-unsupported', 'key-duplicate', 'config-invalid', 'start-missing', 'output-unconnected']);
    expect((await gqlOk(EXAM, { id: exam })).node.journey).toBeNull();
  });

  it('switches the journey on and off with modify permission; refuses strangers as unknown and a journey that does not exist', async () => {
    const exam = await newExam(t, me);
    expectCode(await gqlRefused(ENABLE, { input: { exam, enabled: false } }), 'NO_JOURNEY');
    await gqlOk(SAVE, { input: { exam, nodes: [{ node: 's', type: 'start' }] } });
    expect((await gqlOk(ENABLE, { input: { exam, enabled: false } })).setJourneyEnabled).toMatchObject({ enabled: false });
    expect((await rest(t, 'GET', 'exam:journey:graph', { exam }, me)).active).toBe(false);
    expect((await gqlOk(ENABLE, { input: { exam, enabled: true } })).setJourneyEnabled.enabled).toBe(true);

    const viewer = await t.newCaller('gql-journey-viewer');
    await grantExam(t, exam, viewer, 'view');
    expect((await gqlOk(EXAM, { id: exam }, viewer)).node.journey.enabled).toBe(true);
    expectCode(await gqlRefused(ENABLE, { input: { exam, enabled: false } }, viewer), 'PERMISSION_DENIED');
    expectCode(await gqlRefused(SAVE, { input: { exam, nodes: [{ node: 's', type: 'start' }] } }, viewer), 'PERMISSION_DENIED');
    const stranger = await t.newCaller('gql-journey-stranger');
    expectCode(await gqlRefused(SAVE, { input: { exam, nodes: [] } }, stranger), 'NOT_FOUND');

    await setFeature(t, me, 'journeys', false);
    expect((await gqlOk(EXAM, { id: exam })).node.journey).toBeNull();
    expectCode(await gqlRefused(ENABLE, { input: { exam, enabled: false } }), 'FEATURE_DISABLED');
    await setFeature(t, me, 'journeys', true);
  });
});

describe('publishJourney', () => {
  const PUBLISH = `mutation ($input: PublishJourneyInput!) { publishJourney(input: $input) { journey { version published unpublishedChanges publishedGraph } unchanged remapped issues { code } warning } }`;

  it('publishes the draft as the next version, as POST exam:journey:publish does, and then answers unchanged', async () => {
    const exam = await newExam(t, me);
    const quiz = await newQuiz(t, me, { title: 'Warm-up' });
    await gqlOk(SAVE, { input: { exam, nodes: nodes(quiz) } });
    const first = (await gqlOk(PUBLISH, { input: { exam } })).publishJourney;
    expect(first).toMatchObject({ unchanged: false, remapped: null, issues: [{ code: 'output-unconnected' }], warning: null });
    expect(first.journey).toMatchObject({ version: 1, unpublishedChanges: false });
    expect(first.journey.published).toEqual(expect.any(String));
    expect(first.journey.publishedGraph.nodes.map((n: { node: string }) => n.node)).toEqual(['start', 'q']);
    const viaRest = await rest(t, 'GET', 'exam:journey:graph', { exam, graph: 'published' }, me);
    expect(viaRest.version).toBe(1);

    const second = (await gqlOk(PUBLISH, { input: { exam } })).publishJourney;
    expect(second).toMatchObject({ unchanged: true, journey: { version: 1 } });

    // Disabled: published, with the warning.
    await gqlOk(ENABLE, { input: { exam, enabled: false } });
    await gqlOk(SAVE, { input: { exam, nodes: [...nodes(quiz).slice(0, 1), { ...nodes(quiz)[1], label: 'Renamed' }] } });
    const third = (await gqlOk(PUBLISH, { input: { exam } })).publishJourney;
    expect(third.journey.version).toBe(2);
    expect(third.warning).toMatch(/disabled/);
  });

  it('refuses a caller who may only view the exam, and one who may not view it as for an unknown exam', async () => {
    const exam = await newExam(t, me);
    await gqlOk(SAVE, { input: { exam, nodes: nodes(await newQuiz(t, me)) } });
    const viewer = await t.newCaller('gql-publisher-viewer');
    await grantExam(t, exam, viewer, 'view');
    expectCode(await gqlRefused(PUBLISH, { input: { exam } }, viewer), 'PERMISSION_DENIED');
    const stranger = await t.newCaller('gql-publisher-stranger');
    expectCode(await gqlRefused(PUBLISH, { input: { exam } }, stranger), 'NOT_FOUND', 'exam');
  });
});
