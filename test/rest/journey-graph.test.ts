import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { BASE_URL, createTestApp, type Caller, type RpcResult, type TestApp } from '../helpers/app.ts';
import { expectError, refusedUnchanged } from '../helpers/expect.ts';
import { newQuiz, ok } from '../helpers/quiz-seed.ts';
import { grantExam, newExam, setFeature } from '../helpers/exam-settings-seed.ts';
import { seed } from '../helpers/seed.ts';
import { issueCodes } from '../../src/services/journeys/graph-validation.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** Issue codes met through PUT in this file: the last test holds them to the whole list. */
const seen = new Set<string>();

async function put(exam: string | undefined, args: Record<string, unknown>, as: Caller, encoding: 'json' | 'form' = 'json') {
  const r = await t.rpc('PUT', 'exam:journey:graph', { ...(exam ? { exam } : {}), ...args }, { as, encoding });
  for (const issue of r.body?.error?.issues ?? r.body?.issues ?? []) seen.add(issue.code);
  return r;
}

/** A PUT that must succeed; its body. */
async function save(args: Record<string, unknown>, as: Caller, encoding: 'json' | 'form' = 'json') {
  const { exam, ...rest } = args as { exam: string };
  const r = await put(exam, rest, as, encoding);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  return r.body;
}
const get = (exam: string, as: Caller, graph?: string) => t.rpc('GET', 'exam:journey:graph', { exam, ...(graph ? { graph } : {}) }, { as });

/** Everything a graph call could write. */
const snapshot = async () => ({
  journeys: await t.db.prisma.journey.findMany({ orderBy: { id: 'asc' } }),
  audit: await t.db.prisma.auditEvent.count(),
});
const refused = (call: () => Promise<RpcResult>, status: number, code?: string, argument?: string) => refusedUnchanged(snapshot)(call, status, code, argument);

/** A start leading to a Quiz set step leading to an end. */
const simple = (quiz: string) => [
  { node: 'start', type: 'start', position: { x: 0, y: 0 }, next: { done: 'practice' } },
  { node: 'end', type: 'end', position: { x: 480, y: 0 }, config: { outcome: 'passed' } },
  { node: 'practice', type: 'quiz', label: 'Practice', position: { x: 240, y: 0 }, config: { quiz, min_plays: 2 }, next: { done: 'end' } },
];

async function newClass(owner: Caller, title = 'Class'): Promise<string> {
  return (await seed(t).as(owner).class({ title })).id;
}

const codesOf = (r: RpcResult) => (r.body.error.issues as { code: string }[]).map((i) => i.code);

describe('PUT and GET exam:journey:graph', () => {
  it('creates and enables the journey, and answers the draft with every documented field and JSON type', async () => {
    const me = await t.newCaller('jg-owner');
    const exam = await newExam(t, me, { title: 'Final exam' });
    const quiz = await newQuiz(t, me, { title: 'Practice set' });
    expectError(await get(exam, me), 403, 'NO_JOURNEY', 'exam');

    const body = await save({ exam, nodes: simple(quiz) }, me);
    expect(Object.keys(body)).toEqual([
      '$schema', 'schema', 'exam', 'journey', 'active', 'version', 'published', 'graph', 'unpublished_changes', 'settings', 'nodes', 'issues', 'publishable',
    ]);
    expect(body).toMatchObject({
      $schema: `${BASE_URL}/api/journey.schema.json`,
      schema: 1,
      exam,
      active: true,
      version: 0,
      published: null,
      graph: 'draft',
      unpublished_changes: true,
      settings: { title: null, description: null, max_visits: 5, restartable: false, notify_user: false, educators: [] },
      issues: [],
      publishable: true,
    });
    expect(body.journey).toMatch(/^jrn_[a-z0-9]+$/);
    // Ordered by position; every output listed; the informative fields added.
    expect(body.nodes).toEqual([
      { node: 'start', type: 'start', label: null, position: { x: 0, y: 0 }, config: { complete_on: 'finish' }, next: { done: 'practice' }, marker: '1', title: 'Final exam', content: exam },
      {
        node: 'practice', type: 'quiz', label: 'Practice', position: { x: 240, y: 0 }, config: { quiz, min_plays: 2 }, next: { done: 'end' },
        marker: '2', title: 'Practice set', content: quiz,
      },
      { node: 'end', type: 'end', label: null, position: { x: 480, y: 0 }, config: { outcome: 'passed' }, next: {}, marker: '3', title: null, content: null },
    ]);
    expect(Object.keys(body.nodes[0])).toEqual(['node', 'type', 'label', 'position', 'config', 'next', 'marker', 'title', 'content']);
    expect(await t.db.prisma.journey.findUniqueOrThrow({ where: { examId: exam } })).toMatchObject({ enabled: true, version: 0, published: null });

    const read = await ok(t, 'GET', 'exam:journey:graph', { exam }, me);
    expect(read).toEqual(body);
    expect(await ok(t, 'GET', 'exam:journey:graph', { exam, graph: 'draft' }, me)).toEqual(body);
  });

  it('refuses the published graph before the first publish, and shows it once published', async () => {
    const me = await t.newCaller('jg-published');
    const exam = await newExam(t, me);
    const quiz = await newQuiz(t, me);
    const draft = await save({ exam, nodes: simple(quiz) }, me);
    expectError(await get(exam, me, 'published'), 403, 'NOT_PUBLISHED', 'graph');
    expectError(await get(exam, me, 'latest'), 403, 'INVALID_ARGUMENT', 'graph');

    // Publishing is another operation's; here the row is what it would leave.
    const row = await t.db.prisma.journey.findUniqueOrThrow({ where: { examId: exam } });
    const publishedAt = new Date('2026-11-20T10:00:00Z');
    await t.db.prisma.journey.update({
      where: { id: row.id },
      data: { version: 1, publishedAt, published: { schema: 1, settings: row.settings as object, nodes: row.nodes as object[] } },
    });
    const published = await ok(t, 'GET', 'exam:journey:graph', { exam, graph: 'published' }, me);
    expect(Object.keys(published)).toEqual(['$schema', 'schema', 'exam', 'journey', 'active', 'version', 'published', 'graph', 'unpublished_changes', 'settings', 'nodes']);
    expect(published).toMatchObject({ graph: 'published', version: 1, published: '2026-11-20 10:00:00', unpublished_changes: false, nodes: draft.nodes });

    // A changed draft: the published graph stays, the draft has unpublished changes.
    const changed = await save({ exam, nodes: simple(quiz), settings: { title: 'Road to the final' } }, me);
    expect(changed).toMatchObject({ unpublished_changes: true, version: 1, published: '2026-11-20 10:00:00', settings: { title: 'Road to the final' } });
    expect(await ok(t, 'GET', 'exam:journey:graph', { exam, graph: 'published' }, me)).toMatchObject({ settings: { title: null }, unpublished_changes: true });
  });

  it('takes nodes and settings as JSON text in a form, merges settings over the current ones, and lays out nodes without a position', async () => {
    const me = await t.newCaller('jg-text');
    const exam = await newExam(t, me);
    const first = await save({
      exam,
      nodes: JSON.stringify([{ node: 'b', type: 'end' }, { node: 'a', type: 'start', next: { done: 'b' } }]),
      settings: JSON.stringify({ title: 'Path', max_visits: 7 }),
      schema: '1',
    }, me, 'form');
    expect(first.settings).toEqual({ title: 'Path', description: null, max_visits: 7, restartable: false, notify_user: false, educators: [] });
    expect(first.nodes.map((n: { node: string; position: unknown }) => [n.node, n.position])).toEqual([
      ['a', { x: 0, y: 0 }],
      ['b', { x: 240, y: 0 }],
    ]);
    const second = await save({ exam, nodes: JSON.stringify(first.nodes), settings: '{"restartable": true, "description": "Long"}' }, me, 'form');
    expect(second.settings).toEqual({ title: 'Path', description: 'Long', max_visits: 7, restartable: true, notify_user: false, educators: [] });
    // Exported nodes go back in unchanged: marker, title and content are informative, not unknown.
    expect(second.nodes).toEqual(first.nodes);
    expect(second).not.toHaveProperty('ignored');
    const third = await save({ exam, nodes: first.nodes, settings: { title: null } }, me);
    expect(third.settings).toMatchObject({ title: null, description: 'Long', max_visits: 7, restartable: true });
  });

  it('lists unknown fields as ignored and saves the rest', async () => {
    const me = await t.newCaller('jg-ignored');
    const exam = await newExam(t, me);
    const body = await save({
      exam,
      nodes: [
        { node: 'start', type: 'start', colour: 'red', next: { done: 'w' } },
        { node: 'w', type: 'wait', config: { mode: 'duration', minutes: 60, weekday: 3 }, next: { next: 'end' } },
        { node: 'end', type: 'end', config: { outcome: 'done', reason: 'x' } },
      ],
      settings: { title: 'T', colour: 'blue' },
    }, me);
    expect(body.ignored).toEqual(['settings.colour', 'nodes[0].colour', 'nodes[1].config.weekday', 'nodes[2].config.reason']);
    expect(Object.keys(body).at(-1)).toBe('ignored');
    expect(body.nodes[1].config).toEqual({ mode: 'duration', minutes: 60, timezone: 'UTC' });
    expect(await ok(t, 'GET', 'exam:journey:graph', { exam }, me)).not.toHaveProperty('ignored');
  });

  it('saves warnings with the draft: unreachable nodes and outputs leading nowhere', async () => {
    const me = await t.newCaller('jg-warnings');
    const exam = await newExam(t, me);
    const body = await save({
      exam,
      nodes: [
        { node: 'start', type: 'start', next: {} },
        { node: 'lost', type: 'end' },
      ],
    }, me);
    expect(body.issues).toEqual([
      { level: 'warning', code: 'unreachable', node: 'lost', output: null, message: expect.any(String) },
      { level: 'warning', code: 'output-unconnected', node: 'start', output: 'done', message: expect.any(String) },
    ]);
    expect(body.publishable).toBe(true);
    expect(body.nodes[0].next).toEqual({ done: null });
  });
});

describe('PUT exam:journey:graph refuses every problem at once and saves nothing', () => {
  it('reports structure, configs, limits and settings together (403 JOURNEY_INVALID with the issues)', async () => {
    const me = await t.newCaller('jg-all');
    const exam = await newExam(t, me);
    const quiz = await newQuiz(t, me);
    const saved = await save({ exam, nodes: simple(quiz) }, me);

    const flag = (node: string, next: string) => ({ node, type: 'flag', config: { name: 'seen', value: 'yes' }, next: { next } });
    const r = await refused(() => put(exam, {
      schema: 2,
      settings: { max_visits: 0, educators: ['usr_nobody'], title: 'x'.repeat(256) },
      nodes: [
        { node: 'start', type: 'start', next: { done: 'c', other: 'end' } },
        { node: 'start2', type: 'start' },
        { node: 'bad key', type: 'end' },
        { node: 'dup', type: 'end' },
        { node: 'dup', type: 'end' },
        { node: 'x', type: 'portal' },
        { node: 'lbl', type: 'end', label: 'y'.repeat(65), position: 'top' },
        {
          node: 'c',
          type: 'condition',
          config: {
            branches: [{ key: 'hi', rules: [{ field: 'step.result', operator: 'between', value: [90, 10] }, { field: 'user.department', operator: 'eq', value: 'Sales' }] }],
          },
          next: { hi: 'f1', else: 'ghost' },
        },
        flag('f1', 'f2'),
        flag('f2', 'f1'),
        { node: 'st', type: 'exam', config: { exam: 'exm_nothing' }, next: { done: 'end' } },
        { node: 'end', type: 'end' },
        'not a node',
      ],
    }, me), 403, 'JOURNEY_INVALID');
    expect(r.error).toMatch(/^The journey graph has \d+ problems, nothing was saved: /);
    // Every problem was found: the count is exact and every error is listed.
    expect(r.body.error).toMatchObject({ problems: r.body.error.issues.filter((i: { level: string }) => i.level === 'error').length, exact: true });
    expect(r.error).toContain(`has ${r.body.error.problems} problems`);
    expect(new Set(codesOf(r))).toEqual(new Set([
      'schema-unsupported', 'settings-invalid', 'limit-exceeded', 'educator-invalid', 'start-multiple', 'key-invalid', 'key-duplicate',
      'type-invalid', 'node-invalid', 'output-unknown', 'next-unknown', 'config-invalid', 'department-unknown', 'instant-loop',
      'content-not-controlled', 'format-invalid', 'unreachable', 'output-unconnected',
    ]));
    for (const issue of r.body.error.issues) {
      expect(Object.keys(issue)).toEqual(['level', 'code', 'node', 'output', 'message']);
      expect(issue.level).toBe(issue.code === 'unreachable' || issue.code === 'output-unconnected' ? 'warning' : 'error');
    }
    expect(r.body.error.issues.find((i: { code: string }) => i.code === 'next-unknown')).toMatchObject({ node: 'c', output: 'else' });
    expect(r.body.error.issues.find((i: { code: string }) => i.code === 'department-unknown')).toMatchObject({ node: 'c', output: 'hi' });
    expect(r.body.error.issues.find((i: { code: string }) => i.code === 'instant-loop')).toMatchObject({ node: 'f1', output: null });
    // Errors come first.
    const levels = r.body.error.issues.map((i: { level: string }) => i.level);
    expect(levels).toEqual([...levels].sort());
    expect(await ok(t, 'GET', 'exam:journey:graph', { exam }, me)).toEqual(saved);

    // Too many nodes: refused before any node is looked at (no start-missing); a list that is no list.
    const many = Array.from({ length: 201 }, (_, i) => ({ node: `n${i}`, type: 'end' }));
    const r2 = await refused(() => put(exam, { nodes: many }, me), 403, 'JOURNEY_INVALID');
    expect(codesOf(r2)).toEqual(['limit-exceeded']);
    expect(r2.body.error).toMatchObject({ problems: 1, exact: false });
    expect(r2.body.error.message).toBe('The journey graph has at least 1 problem, nothing was saved: A journey has at most 200 nodes, not 201; …');
    expect(codesOf(await refused(() => put(exam, { nodes: { node: 'start' } }, me), 403, 'JOURNEY_INVALID'))).toEqual(['format-invalid', 'start-missing']);
    expect(await ok(t, 'GET', 'exam:journey:graph', { exam }, me)).toEqual(saved);
  });

  it('refuses content the caller does not control unless the journey already uses it, and names archived and vanished content', async () => {
    const me = await t.newCaller('jg-content');
    const other = await t.newCaller('jg-content-other');
    const exam = await newExam(t, me);
    const theirs = await newExam(t, other);
    const theirQuiz = await newQuiz(t, other);
    const theirClass = await newClass(other);
    const viewable = await newExam(t, other);
    await grantExam(t, viewable, me, 'view');
    const steps = (ids: { exam?: string; quiz?: string; class?: string }) => [
      { node: 'start', type: 'start', next: { done: 'e' } },
      { node: 'e', type: 'exam', config: { exam: ids.exam ?? theirs }, next: { done: 'q' } },
      { node: 'q', type: 'quiz', config: { quiz: ids.quiz ?? theirQuiz }, next: { done: 'k' } },
      { node: 'k', type: 'class', config: { class: ids.class ?? theirClass }, next: { done: 'end' } },
      { node: 'end', type: 'end' },
    ];
    const r = await refused(() => put(exam, { nodes: steps({}) }, me), 403, 'JOURNEY_INVALID');
    expect(r.body.error.issues.map((i: { node: string; code: string }) => [i.node, i.code])).toEqual([
      ['e', 'content-not-controlled'], ['q', 'content-not-controlled'], ['k', 'content-not-controlled'],
    ]);
    // Viewing is not controlling; an unknown identification string gets the same answer.
    expect(codesOf(await refused(() => put(exam, { nodes: steps({ exam: viewable, quiz: 'qz_nothing' }) }, me), 403, 'JOURNEY_INVALID'))).toEqual([
      'content-not-controlled', 'content-not-controlled', 'content-not-controlled',
    ]);
    const message = (await put(exam, { nodes: steps({ exam: 'exm_nothing' }) }, me)).body.error.issues[0].message;
    expect(message).toBe("Node 'e': no exam 'exm_nothing' that you control");

    // Controlled content (own, or with control permission) is taken.
    const mine = await newExam(t, me);
    const myQuiz = await newQuiz(t, me);
    const myClass = await newClass(me);
    await grantExam(t, theirs, me, 'control');
    await save({ exam, nodes: steps({ exam: theirs, quiz: myQuiz, class: myClass }) }, me);
    await t.db.prisma.permissionRule.deleteMany({ where: { contentId: theirs, userId: me.user.id } });
    // Already used by the journey: kept although no longer controlled.
    await save({ exam, nodes: steps({ exam: theirs, quiz: myQuiz, class: myClass }) }, me);

    // Archived, and gone: the saved draft shows it, and saving it again is refused.
    await t.db.prisma.exam.update({ where: { id: theirs }, data: { archived: true, archivedAt: new Date() } });
    await t.db.prisma.quizSet.update({ where: { id: myQuiz }, data: { archived: true } });
    await t.db.prisma.class.delete({ where: { id: myClass } });
    const draft = await ok(t, 'GET', 'exam:journey:graph', { exam }, me);
    expect(draft.issues.map((i: { node: string; code: string }) => [i.node, i.code])).toEqual([['e', 'exam-archived'], ['q', 'quiz-archived'], ['k', 'content-missing']]);
    expect(draft.publishable).toBe(false);
    expect(draft.nodes.find((n: { node: string }) => n.node === 'k')).toMatchObject({ content: myClass, title: null });
    expect(codesOf(await refused(() => put(exam, { nodes: steps({ exam: theirs, quiz: myQuiz, class: myClass }) }, me), 403, 'JOURNEY_INVALID'))).toEqual([
      'exam-archived', 'quiz-archived', 'content-missing',
    ]);
    await save({ exam, nodes: steps({ exam: mine, quiz: await newQuiz(t, me), class: await newClass(me) }) }, me);
  });

  it('refuses a championship as the starting exam', async () => {
    const me = await t.newCaller('jg-championship');
    const exam = await newExam(t, me, { type: 'championship' });
    const r = await refused(() => put(exam, { nodes: [{ node: 'go', type: 'start' }] }, me), 403, 'JOURNEY_INVALID');
    expect(r.body.error.issues.filter((i: { level: string }) => i.level === 'error')).toEqual([
      { level: 'error', code: 'exam-championship', node: 'go', output: null, message: 'The starting exam is a championship: championships cannot start a journey' },
    ]);
    expectError(await get(exam, me), 403, 'NO_JOURNEY', 'exam');
  });

  it('looks departments up in the organization of the starting exam, and takes only its owner and managers as educators', async () => {
    const me = await t.newCaller('jg-org');
    const manager = await t.newCaller('jg-org-manager');
    const modifier = await t.newCaller('jg-org-modifier');
    const org = await seed(t).as(me).organization({ title: 'Org' });
    await org.department('Sales');
    const organizationId = org.id;
    const exam = await newExam(t, me, { organizationId });
    await grantExam(t, exam, manager, 'admin');
    await grantExam(t, exam, modifier, 'modify');
    const nodes = (values: string[]) => [
      { node: 'start', type: 'start', next: { done: 'c' } },
      { node: 'c', type: 'condition', config: { branches: [{ key: 'sales', match: 'any', rules: [{ field: 'user.department', operator: 'in', value: values }, { field: 'user.team', operator: 'eq', value: 'Blue' }] }], else_label: 'Others' }, next: { sales: 'end', else: 'end' } },
      { node: 'end', type: 'end' },
    ];
    const body = await save({ exam, nodes: nodes(['Sales']), settings: { educators: [me.user.id, manager.user.id] } }, me);
    expect(body.settings.educators).toEqual([me.user.id, manager.user.id]);
    expect(body.nodes[1].config).toEqual({
      branches: [{ key: 'sales', match: 'any', rules: [{ field: 'user.department', operator: 'in', value: ['Sales'] }, { field: 'user.team', operator: 'eq', value: 'Blue' }] }],
      else_label: 'Others',
    });
    const r = await refused(() => put(exam, { nodes: nodes(['Sales', 'Support']), settings: { educators: [modifier.user.id] } }, me), 403, 'JOURNEY_INVALID');
    expect(r.body.error.issues).toEqual([
      { level: 'error', code: 'department-unknown', node: 'c', output: 'sales', message: "Node 'c': 'Support' is not a department of the starting exam's organization" },
      { level: 'error', code: 'educator-invalid', node: null, output: null, message: `Educator '${modifier.user.id}' is not the owner or a manager of the starting exam` },
    ]);
  });

  it('checks rule values against the field, and warns about data fields that do not exist (yet)', async () => {
    const me = await t.newCaller('jg-fields');
    const exam = await newExam(t, me);
    await ok(t, 'POST', 'exam:fields', { exam, fields: JSON.stringify([{ label: 'Code', type: 'text' }]) }, me);
    const condition = (rules: unknown[]) => [
      { node: 'start', type: 'start', next: { done: 'c' } },
      { node: 'c', type: 'condition', config: { branches: [{ key: 'b', rules }] }, next: { b: 'end', else: 'end' } },
      { node: 'end', type: 'end' },
    ];
    const body = await save({
      exam,
      nodes: condition([
        { field: 'exam.custom', param: 'Code', operator: 'eq', value: 'A1' },
        { field: 'exam.custom', param: 'Badge', operator: 'not_empty' },
        { field: 'user.customer_field', param: 'employee_no', operator: 'empty' },
        { field: 'user.gender', operator: 'in', value: ['female', 'other'] },
      ]),
    }, me);
    expect(body.issues).toEqual([
      { level: 'warning', code: 'field-unknown', node: 'c', output: 'b', message: "Node 'c': the starting exam has no user data field 'Badge'" },
      { level: 'warning', code: 'field-unknown', node: 'c', output: 'b', message: "Node 'c': no user custom field 'employee_no' is configured" },
    ]);
    expect(body.publishable).toBe(true);
    const r = await refused(() => put(exam, { nodes: condition([{ field: 'user.gender', operator: 'eq', value: 'robot' }]) }, me), 403, 'JOURNEY_INVALID');
    expect(r.body.error.issues).toEqual([
      { level: 'error', code: 'config-invalid', node: 'c', output: 'b', message: "Node 'c': config.branches[0].rules[0].value must be one of male, female, other, not 'robot'" },
    ]);
  });

  it('refuses missing and malformed arguments before looking at the graph', async () => {
    const me = await t.newCaller('jg-args');
    const exam = await newExam(t, me);
    await refused(() => put(exam, {}, me), 403, 'MISSING_ARGUMENT', 'nodes');
    await refused(() => put(undefined, { nodes: '[]' }, me), 403, 'MISSING_ARGUMENT', 'exam');
    await refused(() => put(exam, { nodes: '[{"node": ' }, me, 'form'), 403, 'INVALID_ARGUMENT', 'nodes');
    await refused(() => put(exam, { nodes: '[]', settings: '{oops' }, me, 'form'), 403, 'INVALID_ARGUMENT', 'settings');
    await refused(() => put(exam, { nodes: '[{"node": "a\\u0000"}]' }, me, 'form'), 403, 'INVALID_ARGUMENT', 'nodes');
    expectError(await t.rpc('POST', 'exam:journey:graph', { exam }, { as: me }), 405, 'METHOD_NOT_ALLOWED');
  });
});

describe('exam:journey:graph refusals', () => {
  it('needs the journeys feature (406), view to read and modify to save; strangers get the unknown-exam answer', async () => {
    const me = await t.newCaller('jg-perm');
    const exam = await newExam(t, me);
    await save({ exam, nodes: [{ node: 'start', type: 'start' }] }, me);

    const viewer = await t.newCaller('jg-perm-viewer');
    await grantExam(t, exam, viewer, 'view');
    expect((await ok(t, 'GET', 'exam:journey:graph', { exam }, viewer)).exam).toBe(exam);
    const denied = await refused(() => put(exam, { nodes: [{ node: 'start', type: 'start' }] }, viewer), 403, 'PERMISSION_DENIED');
    expect(denied.error).toBe('You need modify permission on this exam to change its journey');

    const stranger = await t.newCaller('jg-perm-stranger');
    for (const call of [() => get(exam, stranger), () => put(exam, { nodes: [] }, stranger), () => get('exm_nothing', me)]) {
      await refused(call, 403, 'NOT_FOUND', 'exam');
    }

    await setFeature(t, me, 'journeys', false);
    await refused(() => get(exam, me), 406, 'FEATURE_DISABLED');
    const off = await refused(() => put(exam, { nodes: [{ node: 'start', type: 'start' }] }, me), 406, 'FEATURE_DISABLED');
    expect(off.error).toBe('The journeys feature is not enabled');
    await setFeature(t, me, 'journeys', true);
    await ok(t, 'GET', 'exam:journey:graph', { exam }, me);
  });
});

describe('the JSON Schema of the portable format', () => {
  it('is served at the $schema address, and an exported graph validates against it', async () => {
    const me = await t.newCaller('jg-schema');
    const exam = await newExam(t, me);
    const quiz = await newQuiz(t, me);
    const graph = await save({
      exam,
      nodes: [
        ...simple(quiz).map((n) => (n.node === 'practice' ? { ...n, next: { done: 'c' } } : n)),
        {
          node: 'c', type: 'condition',
          config: { branches: [{ key: 'good', rules: [{ field: 'node.result', param: 'practice', aggregate: 'best', operator: 'gte', value: 80 }, { field: 'date.weekday', operator: 'in', value: [1, 2], time: '08:00', timezone: 'Europe/Vienna' }] }] },
          next: { good: 'end', else: 's' },
        },
        { node: 's', type: 'split', config: { branches: [{ key: 'a', weight: 1 }, { key: 'b', weight: 3 }] }, next: { a: 'w', b: 'n' } },
        { node: 'w', type: 'wait', config: { mode: 'weekday', weekday: 1, time: '09:00', timezone: 'Europe/Vienna' }, next: { next: 'practice' } },
        { node: 'n', type: 'notify', config: { target: 'educators', message: 'Help' }, next: { next: 'm' } },
        { node: 'm', type: 'mark', config: { mode: 'mark' }, next: { next: 'fl' } },
        { node: 'fl', type: 'flag', config: { name: 'helped', value: 'yes' }, next: { next: 'wd' } },
        { node: 'wd', type: 'wait', config: { mode: 'date', date: '2027-01-04' }, next: { next: 'end' } },
      ],
    }, me);
    const response = await t.app.fetch(new Request(graph.$schema));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/schema\+json/);
    const schema = await response.json();
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(graph), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...graph, nodes: [{ node: 'bad key', type: 'start' }] })).toBe(false);
    expect(validate({ nodes: [{ node: 'w', type: 'wait', config: { mode: 'duration', minutes: 0 } }] })).toBe(false);
  });

  it('two first saves at once both succeed, on one journey', async () => {
    const me = await t.newCaller('jg-race');
    const exam = await newExam(t, me);
    const [a, b] = await Promise.all([put(exam, { nodes: [{ node: 's', type: 'start' }] }, me), put(exam, { nodes: [{ node: 't', type: 'start' }] }, me)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.journey).toBe(b.body.journey);
    expect(await t.db.prisma.journey.count({ where: { examId: exam } })).toBe(1);
  });
});

describe('issue codes', () => {
  it('every one was met through PUT in this file', () => {
    expect([...seen].sort()).toEqual(Object.keys(issueCodes).sort());
  });
});
