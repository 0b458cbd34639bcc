import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { grant, newQuestion } from '../helpers/quiz-seed.ts';
import { seed } from '../helpers/seed.ts';
import {
  AssignQuestionsDocument,
  CopyQuizSettingsDocument,
  CreateGradingPresetDocument,
  CreateQuizSetDocument,
  DeleteGradingPresetDocument,
  DeleteQuizSetDocument,
  GradingPresetDocument,
  GradingPresetsDocument,
  QuizSetDocument,
  QuizSetsDocument,
  RemoveQuestionsDocument,
  UpdateGradingPresetDocument,
  UpdateQuizSetDocument,
  UpdateQuizSettingsDocument,
} from '../../schema/operations/generated.ts';
import { expectCode, ok, refused, send } from './client.ts';

/** Quiz sets and grading presets through GraphQL: the same services and rules as the REST contract. */

let t: TestApp;
let me: Caller;
let stranger: Caller;
beforeAll(async () => {
  t = await createTestApp();
  me = await t.newCaller('gql-me');
  stranger = await t.newCaller('gql-stranger');
});
afterAll(async () => t?.close());

/** A Quiz set page as the dashboard loads it. */
async function quizPage(id: string, first: number, after?: string | null) {
  const node = (await ok(t, QuizSetDocument, { id, first, after }, { as: me })).node;
  if (!node || !('questions' in node)) throw new Error(`${id} is not a readable Quiz set`);
  return node;
}

const create = async (input: Record<string, unknown>, as = me) => (await ok(t, CreateQuizSetDocument, { input: { title: 'Quiz', ...input } }, { as })).createQuizSet;

describe('Quiz sets', () => {
  it('creates, reads, lists and changes a Quiz set with the REST defaults', async () => {
    const created = await create({ title: 'Algebra', externalId: 'alg-1', description: 'Basics', mode: 'TURNS', type: 'exam' });
    expect(created).toEqual({
      id: expect.stringMatching(/^qz_/), externalId: 'alg-1', title: 'Algebra', language: 'en', description: 'Basics', mode: 'TURNS', type: 'exam', organization: null,
      settings: { shuffle: false, timelimit: null, roundtime: null, grading: 'none', gradingThreshold: null },
    });
    const plain = await create({});
    expect(plain).toMatchObject({ externalId: null, description: null, mode: 'TEST', type: 'set' });

    const list = await ok(t, QuizSetsDocument, { search: 'alg' }, { as: me });
    expect(list.quizSets.edges.map((e) => e.node.id)).toEqual([created.id]);
    expect((await ok(t, QuizSetsDocument, {}, { as: stranger })).quizSets.edges).toEqual([]);

    const updated = await ok(t, UpdateQuizSetDocument, { input: { quiz: created.id, title: 'Algebra I', externalId: null, description: '' } }, { as: me });
    expect(updated.updateQuizSet).toMatchObject({ title: 'Algebra I', externalId: null, description: null, mode: 'TURNS' });
    const e = await refused(t, UpdateQuizSetDocument, { input: { quiz: created.id, title: '' } }, { as: me });
    expectCode(e, 'INVALID_ARGUMENT', 'title');
  });

  it('is null for callers without view, and needs modify to change and admin to delete', async () => {
    const quiz = await create({ title: 'Private' });
    expect((await ok(t, QuizSetDocument, { id: quiz.id }, { as: stranger })).node).toBeNull();
    await grant(t, quiz.id, stranger, 'view');
    expect((await ok(t, QuizSetDocument, { id: quiz.id }, { as: stranger })).node).toMatchObject({ title: 'Private' });
    expectCode(await refused(t, UpdateQuizSetDocument, { input: { quiz: quiz.id, title: 'Mine' } }, { as: stranger }), 'PERMISSION_DENIED');
    await grant(t, quiz.id, stranger, 'modify');
    await ok(t, UpdateQuizSetDocument, { input: { quiz: quiz.id, title: 'Shared' } }, { as: stranger });
    expectCode(await refused(t, DeleteQuizSetDocument, { quiz: quiz.id }, { as: stranger }), 'PERMISSION_DENIED');
    expect((await ok(t, DeleteQuizSetDocument, { quiz: quiz.id }, { as: me })).deleteQuizSet).toBe(quiz.id);
    expect((await ok(t, QuizSetDocument, { id: quiz.id }, { as: me })).node).toBeNull();
  });

  it('shows entries with groups, skills, and the questions as a connection in entry order', async () => {
    const quiz = await create({ title: 'Structured' });
    const [a, b, c] = [await newQuestion(t, me, 'ga'), await newQuestion(t, me, 'gb'), await newQuestion(t, me, 'gc')];
    const skill = await seed(t).as(me).skill({ identifier: 'sk', title: 'Skill' });
    await seed(t).as(me).attachSkill(c, skill);
    await ok(t, AssignQuestionsDocument, { quiz: quiz.id, questions: [a] }, { as: me });
    const assigned = await ok(t, AssignQuestionsDocument, { quiz: quiz.id, group: 'Part 2', questions: [c, b] }, { as: me });
    expect(assigned.assignQuestions.items).toEqual([
      { kind: 'QUESTION', question: { id: a }, group: null },
      { kind: 'GROUP', question: null, group: { title: 'Part 2' } },
      { kind: 'QUESTION', question: { id: c }, group: { title: 'Part 2' } },
      { kind: 'QUESTION', question: { id: b }, group: { title: 'Part 2' } },
    ]);
    const node = await quizPage(quiz.id, 2);
    expect(node.skills).toEqual([{ identifier: 'sk', title: 'Skill', description: null }]);
    expect(node.questions.edges.map((e) => e.node)).toEqual([
      { id: a, externalId: 'ga', type: 'generic' },
      { id: c, externalId: 'gc', type: 'generic' },
    ]);
    expect(node.questions.pageInfo.hasNextPage).toBe(true);
    const rest = await quizPage(quiz.id, 5, node.questions.pageInfo.endCursor);
    expect(rest.questions.edges.map((e) => e.node.id)).toEqual([b]);
    expect(node.items[0]).toEqual({ kind: 'QUESTION', active: true, question: { id: a, externalId: 'ga' }, group: null });

    const removed = await ok(t, RemoveQuestionsDocument, { quiz: quiz.id, group: 'Part 2', questions: [b, c] }, { as: me });
    expect(removed.removeQuestions.items).toEqual([{ kind: 'QUESTION', question: { id: a }, group: null }]);
    expectCode(await refused(t, AssignQuestionsDocument, { quiz: quiz.id, questions: ['qst_nothing'] }, { as: me }), 'NOT_FOUND', 'questions');
  });

  it('changes settings and copies them (REPLACE and FILL)', async () => {
    const source = await create({ title: 'Source', mode: 'TURNS' });
    const settings = await ok(t, UpdateQuizSettingsDocument, { input: { quiz: source.id, shuffle: true, timelimit: 600, roundtime: 20, grading: 'gp_passfail', gradingThreshold: 75 } }, { as: me });
    expect(settings.updateQuizSettings.settings).toEqual({ shuffle: true, timelimit: 600, roundtime: 20, grading: 'gp_passfail', gradingThreshold: 75 });
    expectCode(await refused(t, UpdateQuizSettingsDocument, { input: { quiz: source.id, grading: 'gp_hu_school', gradingThreshold: 10 } }, { as: me }), 'ARGUMENT_CONFLICT', 'gradingThreshold');

    const target = await create({ title: 'Target', mode: 'TURNS' });
    await ok(t, UpdateQuizSettingsDocument, { input: { quiz: target.id, timelimit: 0 } }, { as: me });
    const filled = await ok(t, CopyQuizSettingsDocument, { quiz: target.id, source: source.id, mode: 'FILL' }, { as: me });
    expect(filled.copyQuizSettings.settings).toEqual({ shuffle: true, timelimit: null, roundtime: 20, grading: 'gp_passfail', gradingThreshold: 75 });
    const replaced = await ok(t, CopyQuizSettingsDocument, { quiz: target.id, source: source.id, mode: 'REPLACE' }, { as: me });
    expect(replaced.copyQuizSettings.settings.timelimit).toBe(600);
    expectCode(await refused(t, CopyQuizSettingsDocument, { quiz: target.id, source: target.id, mode: 'REPLACE' }, { as: me }), 'SAME_SOURCE', 'source');
  });
});

describe('grading presets', () => {
  it('lists the usable presets for a Quiz set with the current one marked', async () => {
    const quiz = await create({ title: 'Magyar', language: 'hu' });
    await ok(t, UpdateQuizSettingsDocument, { input: { quiz: quiz.id, grading: 'gp_hu_university' } }, { as: me });
    const list = (await ok(t, GradingPresetsDocument, { quiz: quiz.id }, { as: me })).gradingPresets;
    expect(list.map((p) => p.preset.id).sort()).toEqual(['gp_hu_school', 'gp_hu_university', 'gp_passfail', 'gp_passfail_hu']);
    expect(list.filter((p) => p.current).map((p) => p.preset.id)).toEqual(['gp_hu_university']);
    const all = (await ok(t, GradingPresetsDocument, {}, { as: me })).gradingPresets;
    expect(all.every((p) => p.current === null)).toBe(true);
    expect(all.find((p) => p.preset.id === 'gp_hu_university')?.preset).toMatchObject({ global: true, own: false, used: true, configurable: false, certificates: true, successfulAll: null });
  });

  it('creates, changes and removes an own custom preset', async () => {
    const created = (await ok(t, CreateGradingPresetDocument, {
      input: { title: 'Stars', type: 'custom', grades: [{ grade: 'one' }, { threshold: 50, grade: 'two', text: '*Good*' }], successfulAll: true },
    }, { as: me })).createGradingPreset;
    expect(created).toEqual({
      id: expect.stringMatching(/^gp_/), title: 'Stars', type: 'custom', language: 'en', global: false, configurable: false, certificates: true, own: true,
      organization: null, used: false, grades: [{ threshold: 0, grade: 'one', text: null }, { threshold: 50, grade: 'two', text: '*Good*' }], successfulAll: true,
    });
    const updated = (await ok(t, UpdateGradingPresetDocument, { input: { preset: created.id, type: 'go-nogo-custom' } }, { as: me })).updateGradingPreset;
    expect(updated).toMatchObject({ type: 'go-nogo-custom', successfulAll: null, configurable: true, grades: [{ grade: 'fail' }, { grade: 'pass' }] });
    expect((await ok(t, GradingPresetDocument, { id: created.id }, { as: stranger })).node).toBeNull();
    expectCode(await refused(t, UpdateGradingPresetDocument, { input: { preset: 'gp_passfail', title: 'x' } }, { as: me }), 'PRESET_READ_ONLY');
    expectCode(await refused(t, CreateGradingPresetDocument, { input: { title: 'Bad', type: 'hungarian-school', grades: [{}, { threshold: 5 }] } }, { as: me }), 'INVALID_ARGUMENT', 'grades');
    expect((await ok(t, DeleteGradingPresetDocument, { preset: created.id }, { as: me })).deleteGradingPreset).toBe(created.id);
    const gone = await send(t, GradingPresetDocument, { id: created.id }, { as: me });
    expect(gone.data?.node).toBeNull();
  });
});
