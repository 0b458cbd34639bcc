import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/organizations.ts';
import { grant, newQuestion, newQuiz, ok, refused } from '../helpers/quiz-seed.ts';
import { newExam } from '../helpers/exam-seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const row = (id: string) => t.db.prisma.quizSet.findUniqueOrThrow({ where: { id } });

describe('GET quiz:settings', () => {
  it('reads an unconfigured Quiz set as no shuffling, no limits, no grading and no threshold', async () => {
    const me = await t.newCaller('get-me');
    const quiz = await newQuiz(t, me);
    const body = await ok(t, 'GET', 'quiz:settings', { quiz }, me);
    expect(body).toEqual({ quiz, shuffle: false, timelimit: null, roundtime: null, grading: 'none' });
    expect(Object.keys(body)).toEqual(['quiz', 'shuffle', 'timelimit', 'roundtime', 'grading']);
    const viewer = await t.newCaller('get-viewer');
    await grant(t, quiz, viewer, 'view');
    expect(await ok(t, 'GET', 'quiz:settings', { quiz }, viewer)).toEqual(body);
    expectError(await t.rpc('GET', 'quiz:settings', { quiz }, { as: await t.newCaller('get-stranger') }), 403, 'NOT_FOUND');
    expectError(await t.rpc('GET', 'quiz:settings', {}, { as: me }), 403, 'MISSING_ARGUMENT', 'quiz');
  });
});

describe('POST quiz:settings', () => {
  it('changes the given settings and answers the updated settings; 0 and default mean no limit', async () => {
    const me = await t.newCaller('post-me');
    const quiz = await newQuiz(t, me, { mode: 'TURNS' });
    expect(await ok(t, 'POST', 'quiz:settings', { quiz, shuffle: 'true', timelimit: '900', roundtime: '45' }, me)).toEqual({
      quiz, shuffle: true, timelimit: 900, roundtime: 45, grading: 'none',
    });
    // Only the given settings change.
    expect(await ok(t, 'POST', 'quiz:settings', { quiz, grading: 'gp_hu_school' }, me)).toEqual({
      quiz, shuffle: true, timelimit: 900, roundtime: 45, grading: 'gp_hu_school',
    });
    expect(await ok(t, 'POST', 'quiz:settings', { quiz, timelimit: 0, roundtime: 'default', shuffle: false }, me)).toEqual({
      quiz, shuffle: false, timelimit: null, roundtime: null, grading: 'gp_hu_school',
    });
    // "No limit" is a configured value: a fill-in copy leaves it alone.
    expect(await row(quiz)).toMatchObject({ timelimit: 0, roundtime: 0, shuffle: false });
    await ok(t, 'POST', 'quiz:settings', { quiz, timelimit: 'default' }, me);
    expect((await ok(t, 'GET', 'quiz:settings', { quiz }, me)).timelimit).toBeNull();
    // JSON bodies send native values.
    expect(await ok(t, 'POST', 'quiz:settings', { quiz, shuffle: true, timelimit: 60 }, me, 'json')).toMatchObject({ shuffle: true, timelimit: 60 });
  });

  it('takes a round time only for TURNS Quiz sets', async () => {
    const me = await t.newCaller('post-roundtime');
    const quiz = await newQuiz(t, me);
    await refused(t, () => t.rpc('POST', 'quiz:settings', { quiz, roundtime: 30 }, { as: me }), 403, 'ARGUMENT_CONFLICT', 'roundtime');
    await refused(t, () => t.rpc('POST', 'quiz:settings', { quiz, shuffle: 'true', roundtime: 'default' }, { as: me }), 403, 'ARGUMENT_CONFLICT', 'roundtime');
  });

  it('grading_threshold follows one rule with exam:settings: a number 0-100, decimals kept', async () => {
    const me = await t.newCaller('threshold-rule');
    const quiz = await newQuiz(t, me);
    const set = await ok(t, 'POST', 'quiz:settings', { quiz, grading: 'gp_passfail', grading_threshold: '55.5' }, me);
    expect(set).toEqual({ quiz, shuffle: false, timelimit: null, roundtime: null, grading: 'gp_passfail', grading_threshold: 55.5 });
    expect((await ok(t, 'GET', 'quiz:settings', { quiz }, me)).grading_threshold).toBe(55.5);
    const exam = await newExam(t, me, { quiz });
    expect((await ok(t, 'POST', 'exam:settings', { exam, grading: 'gp_passfail', grading_threshold: '55.5' }, me)).grading_threshold).toBe(55.5);
    for (const bad of ['100.5', '-0.5', 'half']) {
      await refused(t, () => t.rpc('POST', 'quiz:settings', { quiz, grading_threshold: bad }, { as: me }), 403, 'INVALID_ARGUMENT', 'grading_threshold');
      await refused(t, () => t.rpc('POST', 'exam:settings', { exam, grading_threshold: bad }, { as: me }), 403, 'INVALID_ARGUMENT', 'grading_threshold');
    }
    const read = await t.gql(`query($id: ID!) { node(id: $id) { ... on QuizSet { settings { gradingThreshold } } } }`, { id: quiz }, { as: me });
    expect(read.body).toEqual({ data: { node: { settings: { gradingThreshold: 55.5 } } } });
  });

  it('grading is a usable preset code, custom or none; a threshold only for configurable presets', async () => {
    const me = await t.newCaller('post-grading');
    const quiz = await newQuiz(t, me);
    expect(await ok(t, 'POST', 'quiz:settings', { quiz, grading: 'gp_passfail', grading_threshold: '65' }, me)).toEqual({
      quiz, shuffle: false, timelimit: null, roundtime: null, grading: 'gp_passfail', grading_threshold: 65,
    });
    // The threshold stays while the grading stays configurable, and goes when it does not.
    expect(await ok(t, 'POST', 'quiz:settings', { quiz, grading: 'gp_passfail_en' }, me)).toMatchObject({ grading_threshold: 65 });
    const school = await ok(t, 'POST', 'quiz:settings', { quiz, grading: 'gp_hu_school' }, me);
    expect(school).not.toHaveProperty('grading_threshold');
    expect((await row(quiz)).gradingThreshold).toBeNull();
    await refused(t, () => t.rpc('POST', 'quiz:settings', { quiz, grading_threshold: 50 }, { as: me }), 403, 'ARGUMENT_CONFLICT', 'grading_threshold');
    await refused(t, () => t.rpc('POST', 'quiz:settings', { quiz, grading: 'none', grading_threshold: 50 }, { as: me }), 403, 'ARGUMENT_CONFLICT', 'grading_threshold');
    await refused(t, () => t.rpc('POST', 'quiz:settings', { quiz, grading: 'custom', grading_threshold: 50 }, { as: me }), 403, 'ARGUMENT_CONFLICT', 'grading_threshold');
    expect((await ok(t, 'POST', 'quiz:settings', { quiz, grading: 'custom' }, me)).grading).toBe('custom');
    expect((await ok(t, 'POST', 'quiz:settings', { quiz, grading: 'none' }, me)).grading).toBe('none');
    expect((await row(quiz)).grading).toBe('none');
    await refused(t, () => t.rpc('POST', 'quiz:settings', { quiz, grading: 'gp_nothing' }, { as: me }), 403, 'NOT_FOUND', 'grading');
    await refused(t, () => t.rpc('POST', 'quiz:settings', { quiz, grading: 'gp_passfail', grading_threshold: 101 }, { as: me }), 403, 'INVALID_ARGUMENT', 'grading_threshold');
    await refused(t, () => t.rpc('POST', 'quiz:settings', { quiz, grading: 'gp_passfail', grading_threshold: -1 }, { as: me }), 403, 'INVALID_ARGUMENT', 'grading_threshold');

    // Own custom presets are usable; those of other users are not, and are unknown to the caller.
    const own = await ok(t, 'POST', 'quiz:grading-preset', { title: 'Mine', type: 'go-nogo-custom', grades: JSON.stringify([{}, { threshold: 40 }]) }, me);
    expect(await ok(t, 'POST', 'quiz:settings', { quiz, grading: own.preset, grading_threshold: 0 }, me)).toMatchObject({ grading: own.preset, grading_threshold: 0 });
    const other = await t.newCaller('post-grading-other');
    const theirs = await ok(t, 'POST', 'quiz:grading-preset', { title: 'Theirs', type: 'go-nogo-custom', grades: JSON.stringify([{}, { threshold: 40 }]) }, other);
    await refused(t, () => t.rpc('POST', 'quiz:settings', { quiz, grading: theirs.preset }, { as: me }), 403, 'NOT_FOUND', 'grading');
  });

  it('refuses invalid values and callers without modify, changing nothing', async () => {
    const me = await t.newCaller('post-invalid');
    const quiz = await newQuiz(t, me, { mode: 'TURNS' });
    const post = (args: Record<string, unknown>) => () => t.rpc('POST', 'quiz:settings', { quiz, ...args }, { as: me });
    await refused(t, post({ shuffle: 'maybe' }), 403, 'INVALID_ARGUMENT', 'shuffle');
    await refused(t, post({ timelimit: '-1' }), 403, 'INVALID_ARGUMENT', 'timelimit');
    await refused(t, post({ timelimit: '1.5' }), 403, 'INVALID_ARGUMENT', 'timelimit');
    await refused(t, post({ timelimit: 'never' }), 403, 'INVALID_ARGUMENT', 'timelimit');
    await refused(t, post({ timelimit: 31_536_001 }), 403, 'INVALID_ARGUMENT', 'timelimit');
    await refused(t, post({ roundtime: 'x' }), 403, 'INVALID_ARGUMENT', 'roundtime');
    await refused(t, post({ grading: '' }), 403, 'INVALID_ARGUMENT', 'grading');
    await refused(t, post({ quiz: 'qz_nothing', shuffle: 'true' }), 403, 'NOT_FOUND', 'quiz');
    const viewer = await t.newCaller('post-viewer');
    await grant(t, quiz, viewer, 'view');
    await refused(t, () => t.rpc('POST', 'quiz:settings', { quiz, shuffle: 'true' }, { as: viewer }), 403, 'PERMISSION_DENIED');
    const editor = await t.newCaller('post-editor');
    await grant(t, quiz, editor, 'modify');
    expect((await ok(t, 'POST', 'quiz:settings', { quiz, shuffle: 'true' }, editor)).shuffle).toBe(true);
  });
});

/** Two TURNS Quiz sets of one owner: `source` fully configured, `target` partly, with items and kept settings. */
async function pair(name: string) {
  const me = await t.newCaller(name);
  const source = await newQuiz(t, me, { mode: 'TURNS', title: 'Source' });
  const target = await newQuiz(t, me, { mode: 'TURNS', title: 'Target' });
  await ok(t, 'POST', 'quiz:settings', { quiz: source, shuffle: 'true', timelimit: 1200, roundtime: 60, grading: 'gp_passfail', grading_threshold: 80 }, me);
  await ok(t, 'POST', 'quiz:settings', { quiz: target, timelimit: 300, grading: 'gp_hu_school' }, me);
  const kept = { selection: { count: 5 }, filtering: { difficulty: [1, 2] }, exportSettings: { format: 'csv' } };
  await t.db.prisma.quizSet.update({ where: { id: target }, data: kept });
  await t.db.prisma.quizSet.update({ where: { id: source }, data: { selection: { count: 9 }, filtering: { difficulty: [5] }, exportSettings: { format: 'xlsx' } } });
  const question = await newQuestion(t, me, `${name}-q`);
  await ok(t, 'POST', 'quiz:questions', { quiz: source, group: 'Source group', questions: question }, me);
  return { me, source, target, kept };
}

describe('PUT quiz:settings', () => {
  it('replaces the whole configuration with the source; questions, groups and selection, filtering and export settings stay', async () => {
    const { me, source, target, kept } = await pair('put-me');
    expect(await ok(t, 'PUT', 'quiz:settings', { quiz: target, source }, me)).toEqual({ quiz: target, source });
    expect(await ok(t, 'GET', 'quiz:settings', { quiz: target }, me)).toEqual({
      quiz: target, shuffle: true, timelimit: 1200, roundtime: 60, grading: 'gp_passfail', grading_threshold: 80,
    });
    expect(await row(target)).toMatchObject({ ...kept, title: 'Target' });
    expect((await ok(t, 'GET', 'quiz:questions', { quiz: target }, me)).items).toEqual([]);
    // Unconfigured settings of the source make the target unconfigured too.
    const blank = await newQuiz(t, me);
    await ok(t, 'PUT', 'quiz:settings', { quiz: target, source: blank }, me);
    expect(await row(target)).toMatchObject({ shuffle: null, timelimit: null, roundtime: null, grading: null, gradingThreshold: null, ...kept });
  });

  it('never gives a TEST set a round time', async () => {
    const { me, source } = await pair('put-test');
    const test = await newQuiz(t, me);
    await ok(t, 'PUT', 'quiz:settings', { quiz: test, source }, me);
    expect(await row(test)).toMatchObject({ roundtime: null, timelimit: 1200 });
  });

  it('refuses a source equal to the target, unknown or unviewable ones, and callers without modify on the target', async () => {
    const { me, source, target } = await pair('put-refused');
    await refused(t, () => t.rpc('PUT', 'quiz:settings', { quiz: target, source: target }, { as: me }), 403, 'SAME_SOURCE', 'source');
    await refused(t, () => t.rpc('PUT', 'quiz:settings', { quiz: target }, { as: me }), 403, 'MISSING_ARGUMENT', 'source');
    await refused(t, () => t.rpc('PUT', 'quiz:settings', { quiz: target, source: 'qz_nothing' }, { as: me }), 403, 'NOT_FOUND', 'source');
    const other = await t.newCaller('put-refused-other');
    const foreign = await newQuiz(t, other);
    await refused(t, () => t.rpc('PUT', 'quiz:settings', { quiz: target, source: foreign }, { as: me }), 403, 'NOT_FOUND');
    await refused(t, () => t.rpc('PUT', 'quiz:settings', { quiz: foreign, source }, { as: me }), 403, 'NOT_FOUND');
    // Viewing the source is enough.
    await grant(t, foreign, me, 'view');
    await ok(t, 'PUT', 'quiz:settings', { quiz: target, source: foreign }, me);
    await refused(t, () => t.rpc('PATCH', 'quiz:settings', { quiz: source, source }, { as: me }), 403, 'SAME_SOURCE', 'source');
  });
});

describe('PATCH quiz:settings', () => {
  it('copies only the settings the target has not configured; grading and threshold go together', async () => {
    const { me, source, target, kept } = await pair('patch-me');
    expect(await ok(t, 'PATCH', 'quiz:settings', { quiz: target, source }, me)).toEqual({ quiz: target, source });
    // timelimit and grading were configured; shuffle and roundtime were not.
    expect(await ok(t, 'GET', 'quiz:settings', { quiz: target }, me)).toEqual({
      quiz: target, shuffle: true, timelimit: 300, roundtime: 60, grading: 'gp_hu_school',
    });
    expect(await row(target)).toMatchObject(kept);

    const fresh = await newQuiz(t, me, { mode: 'TURNS' });
    await ok(t, 'POST', 'quiz:settings', { quiz: fresh, timelimit: 0 }, me);
    await ok(t, 'PATCH', 'quiz:settings', { quiz: fresh, source }, me);
    // "No limit" was configured, so it stays; the grading comes with its threshold.
    expect(await ok(t, 'GET', 'quiz:settings', { quiz: fresh }, me)).toEqual({
      quiz: fresh, shuffle: true, timelimit: null, roundtime: 60, grading: 'gp_passfail', grading_threshold: 80,
    });
  });
});
