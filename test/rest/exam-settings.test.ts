import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/expect.ts';
import { ok } from '../helpers/quiz-seed.ts';
import { grantExam, newExam, newPlay, refused, setFeature } from '../helpers/exam-settings-seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const HOUR = 3600_000;
/** `YYYY-MM-DD HH:ii:ss` (UTC), as the contract writes datetimes. */
const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('T', ' ').slice(0, 19);

const post = (exam: string, args: Record<string, unknown>, as: Caller) => t.rpc('POST', 'exam:settings', { exam, ...args }, { as });
const get = (exam: string, as: Caller) => ok(t, 'GET', 'exam:settings', { exam }, as);

/** The settings of an unconfigured exam of type exam, in the order of the settings table. */
const DEFAULTS = {
  nonblocking: false,
  pausable: false,
  questionless: false,
  timelimit: null,
  roundtime: null,
  freeze_round: false,
  archive: false,
  grading: null,
  view_results: 'after',
  results_page: true,
  hide_ingame_results: false,
  hide_points: false,
  hide_grade: false,
  show_in_lasthour: false,
  export_format: 'xlsx',
  export_sort: 'default',
  export_stats: false,
  export_answers: false,
  export_points: false,
  export_suspicion: false,
  export_finished_only: false,
  export_custom_fields: true,
  export_skills: true,
  export_gender: false,
  export_journey: false,
  export_attendance: true,
};

/** A unique free-text field named `Code`, for the identifier. */
async function codeField(exam: string, as: Caller, label = 'Code') {
  await ok(t, 'POST', 'exam:fields', { exam, fields: JSON.stringify([{ label, type: 'text', unique: true }]) }, as);
}

describe('GET exam:settings', () => {
  it('reads an unconfigured exam with every default, in the order of the table, and needs view', async () => {
    const me = await t.newCaller('get-me');
    const exam = await newExam(t, me);
    const body = await get(exam, me);
    expect(body).toEqual({ exam, ...DEFAULTS });
    expect(Object.keys(body)).toEqual(['exam', ...Object.keys(DEFAULTS)]);
    const viewer = await t.newCaller('get-viewer');
    await grantExam(t, exam, viewer, 'view');
    expect(await get(exam, viewer)).toEqual(body);
    // A stranger learns nothing about the exam: the answer of an unknown one.
    const stranger = await t.newCaller('get-stranger');
    expectError(await t.rpc('GET', 'exam:settings', { exam }, { as: stranger }), 403, 'NOT_FOUND', 'exam');
    expectError(await t.rpc('GET', 'exam:settings', { exam: 'exm_nothing' }, { as: me }), 403, 'NOT_FOUND', 'exam');
    expectError(await t.rpc('GET', 'exam:settings', {}, { as: me }), 403, 'MISSING_ARGUMENT', 'exam');
  });

  it('homework is always non-blocking and pausable; a survey always non-blocking, without grading, results viewing or most exports', async () => {
    const me = await t.newCaller('get-types');
    const homework = await newExam(t, me, { type: 'homework' });
    expect(await get(homework, me)).toMatchObject({ nonblocking: true, pausable: true });
    const survey = await newExam(t, me, { type: 'survey' });
    const body = await get(survey, me);
    expect(body).toEqual({
      exam: survey, nonblocking: true, pausable: false, questionless: false, timelimit: null, roundtime: null,
      freeze_round: false, archive: false, export_format: 'xlsx', export_sort: 'default',
    });
  });
});

describe('POST exam:settings', () => {
  it('changes only the given settings and answers them in the GET form; needs modify', async () => {
    const me = await t.newCaller('post-me');
    const exam = await newExam(t, me, { mode: 'TURNS' });
    const body = await ok(t, 'POST', 'exam:settings', { exam, timelimit: '900', roundtime: '30', export_format: 'csv', hide_ingame_results: 'true' }, me);
    expect(body).toEqual({ exam, ...DEFAULTS, timelimit: 900, roundtime: 30, export_format: 'csv', hide_ingame_results: true });
    expect(await get(exam, me)).toEqual(body);
    // 0 is "no limit" (a number), default reads null and uses the Quiz set.
    expect(await ok(t, 'POST', 'exam:settings', { exam, timelimit: 0, roundtime: 'default' }, me, 'json')).toMatchObject({ timelimit: 0, roundtime: null, export_format: 'csv' });
    expect((await ok(t, 'POST', 'exam:settings', { exam, timelimit: 'default' }, me)).timelimit).toBeNull();
    for (const [name, value] of [['export_sort', 'name'], ['export_stats', true], ['export_answers', true], ['export_points', true], ['export_suspicion', true],
      ['export_finished_only', true], ['export_custom_fields', false], ['export_skills', false], ['export_journey', true], ['nonblocking', true]] as const) {
      expect((await ok(t, 'POST', 'exam:settings', { exam, [name]: String(value) }, me))[name], name).toBe(value);
    }
    const modifier = await t.newCaller('post-modifier');
    await grantExam(t, exam, modifier, 'modify');
    expect((await ok(t, 'POST', 'exam:settings', { exam, export_sort: 'default' }, modifier)).export_sort).toBe('default');
    const viewer = await t.newCaller('post-viewer');
    await grantExam(t, exam, viewer, 'view');
    await refused(t, () => post(exam, { export_sort: 'name' }, viewer), 403, 'PERMISSION_DENIED');
    await refused(t, () => post(exam, { timelimit: -1 }, me), 403, 'INVALID_ARGUMENT', 'timelimit');
    await refused(t, () => post(exam, { timelimit: 'soon' }, me), 403, 'INVALID_ARGUMENT', 'timelimit');
    await refused(t, () => post(exam, { view_results: 'later' }, me), 403, 'INVALID_ARGUMENT', 'view_results');
    await refused(t, () => post(exam, { export_format: 'pdf' }, me), 403, 'INVALID_ARGUMENT', 'export_format');
    await refused(t, () => post(exam, { hide_points: 'maybe' }, me), 403, 'INVALID_ARGUMENT', 'hide_points');
  });

  it('roundtime only for exams of TURNS Quiz sets', async () => {
    const me = await t.newCaller('post-roundtime');
    const exam = await newExam(t, me);
    const r = await refused(t, () => post(exam, { roundtime: 30 }, me), 403, 'ARGUMENT_CONFLICT', 'roundtime');
    expect(r.error).toContain('TURNS');
    expect((await ok(t, 'POST', 'exam:settings', { exam, roundtime: 'default' }, me)).roundtime).toBeNull();
  });

  it('nonblocking: always true for homework and survey; cannot be disabled with results or paused tests', async () => {
    const me = await t.newCaller('post-nonblocking');
    for (const type of ['homework', 'survey'] as const) {
      const exam = await newExam(t, me, { type });
      const r = await refused(t, () => post(exam, { nonblocking: false }, me), 403, 'ARGUMENT_CONFLICT', 'nonblocking');
      expect(r.error).toContain('always true');
      expect((await ok(t, 'POST', 'exam:settings', { exam, nonblocking: true }, me)).nonblocking).toBe(true);
    }
    const exam = await newExam(t, me);
    await ok(t, 'POST', 'exam:settings', { exam, nonblocking: true, pausable: true }, me);
    const examinee = await t.newCaller('nonblocking-examinee');
    const paused = await newPlay(t, exam, examinee, { status: 'paused' });
    expect((await refused(t, () => post(exam, { nonblocking: false }, me), 403, 'ARGUMENT_CONFLICT', 'nonblocking')).error).toMatch(/results exist|paused/);
    await t.db.prisma.play.delete({ where: { id: paused.id } });
    // Without results it can be disabled, and pausable is switched off with it.
    expect(await ok(t, 'POST', 'exam:settings', { exam, nonblocking: false }, me)).toMatchObject({ nonblocking: false, pausable: false });
    await ok(t, 'POST', 'exam:settings', { exam, nonblocking: true }, me);
    expect((await get(exam, me)).pausable).toBe(false);
    await newPlay(t, exam, examinee, { archived: true });
    expect((await refused(t, () => post(exam, { nonblocking: false }, me), 403, 'ARGUMENT_CONFLICT', 'nonblocking')).error).toContain('results exist');
  });

  it('pausable: only non-blocking exams; always true for homework; cannot be disabled while tests are paused', async () => {
    const me = await t.newCaller('post-pausable');
    const exam = await newExam(t, me);
    expect((await refused(t, () => post(exam, { pausable: true }, me), 403, 'ARGUMENT_CONFLICT', 'pausable')).error).toContain('non-blocking');
    await refused(t, () => post(exam, { nonblocking: false, pausable: true }, me), 403, 'ARGUMENT_CONFLICT', 'pausable');
    // Checked against the settings as they will be: both in one call is fine.
    expect(await ok(t, 'POST', 'exam:settings', { exam, nonblocking: true, pausable: true }, me)).toMatchObject({ nonblocking: true, pausable: true });
    const homework = await newExam(t, me, { type: 'homework' });
    expect((await refused(t, () => post(homework, { pausable: false }, me), 403, 'ARGUMENT_CONFLICT', 'pausable')).error).toContain('always true for homework');
    await newPlay(t, exam, await t.newCaller('pausable-examinee'), { status: 'paused' });
    expect((await refused(t, () => post(exam, { pausable: false }, me), 403, 'ARGUMENT_CONFLICT', 'pausable')).error).toContain('paused');
  });

  it('questionless: not for survey or championship; frozen while the current round has results', async () => {
    const me = await t.newCaller('post-questionless');
    for (const type of ['survey', 'championship'] as const) {
      const exam = await newExam(t, me, { type });
      await refused(t, () => post(exam, { questionless: true }, me), 403, 'ARGUMENT_CONFLICT', 'questionless');
      expect((await ok(t, 'POST', 'exam:settings', { exam, questionless: false }, me)).questionless).toBe(false);
    }
    const exam = await newExam(t, me);
    expect((await ok(t, 'POST', 'exam:settings', { exam, questionless: true }, me)).questionless).toBe(true);
    await newPlay(t, exam, await t.newCaller('questionless-examinee'), { round: 1 });
    expect((await refused(t, () => post(exam, { questionless: false }, me), 403, 'ARGUMENT_CONFLICT', 'questionless')).error).toContain('current round');
    // Giving the value it has already is no change.
    expect((await ok(t, 'POST', 'exam:settings', { exam, questionless: true }, me)).questionless).toBe(true);
    // A new round without results unfreezes it; the old round keeps its result.
    await t.db.prisma.exam.update({ where: { id: exam }, data: { round: 2 } });
    expect((await ok(t, 'POST', 'exam:settings', { exam, questionless: false }, me)).questionless).toBe(false);
  });

  it('freeze_round and archive: managers only (admin on the exam)', async () => {
    const me = await t.newCaller('post-managers');
    const exam = await newExam(t, me);
    expect(await ok(t, 'POST', 'exam:settings', { exam, freeze_round: true, archive: true }, me)).toMatchObject({ freeze_round: true, archive: true });
    const modifier = await t.newCaller('managers-modifier');
    await grantExam(t, exam, modifier, 'modify');
    for (const name of ['freeze_round', 'archive']) {
      const r = await refused(t, () => post(exam, { [name]: false }, modifier), 403, 'PERMISSION_DENIED', name);
      expect(r.error).toContain('managers');
    }
    // Unchanged values and other settings are fine for a modifier.
    expect((await ok(t, 'POST', 'exam:settings', { exam, archive: true, hide_ingame_results: true }, modifier)).hide_ingame_results).toBe(true);
    const admin = await t.newCaller('managers-admin');
    await grantExam(t, exam, admin, 'admin');
    expect(await ok(t, 'POST', 'exam:settings', { exam, freeze_round: false, archive: false }, admin)).toMatchObject({ freeze_round: false, archive: false });
    expect((await ok(t, 'POST', 'exam:settings', { exam, archive: true }, t.admin)).archive).toBe(true);
  });

  it('grading: a usable preset, none or default; a threshold only for configurable presets', async () => {
    const me = await t.newCaller('post-grading');
    const exam = await newExam(t, me);
    expect(await ok(t, 'POST', 'exam:settings', { exam, grading: 'gp_passfail', grading_threshold: '65' }, me)).toMatchObject({ grading: 'gp_passfail', grading_threshold: 65 });
    const school = await ok(t, 'POST', 'exam:settings', { exam, grading: 'gp_hu_school' }, me);
    expect(school.grading).toBe('gp_hu_school');
    expect(school).not.toHaveProperty('grading_threshold');
    const r = await refused(t, () => post(exam, { grading_threshold: 50 }, me), 403, 'ARGUMENT_CONFLICT', 'grading_threshold');
    expect(r.error).toContain('configurable');
    await refused(t, () => post(exam, { grading: 'none', grading_threshold: 50 }, me), 403, 'ARGUMENT_CONFLICT', 'grading_threshold');
    await refused(t, () => post(exam, { grading: 'default', grading_threshold: 50 }, me), 403, 'ARGUMENT_CONFLICT', 'grading_threshold');
    await refused(t, () => post(exam, { grading: 'gp_nothing' }, me), 403, 'NOT_FOUND', 'grading');
    await refused(t, () => post(exam, { grading: 'gp_passfail', grading_threshold: 101 }, me), 403, 'INVALID_ARGUMENT', 'grading_threshold');
    expect((await ok(t, 'POST', 'exam:settings', { exam, grading: 'none' }, me)).grading).toBe('none');
    expect((await ok(t, 'POST', 'exam:settings', { exam, grading: 'default' }, me)).grading).toBeNull();
    expect((await ok(t, 'POST', 'exam:settings', { exam, grading: 'gp_passfail', grading_threshold: 42.5 }, me, 'json')).grading_threshold).toBe(42.5);
  });

  it('surveys refuse grading, results viewing and exports other than format and order', async () => {
    const me = await t.newCaller('post-survey');
    const survey = await newExam(t, me, { type: 'survey' });
    for (const [name, value] of [['grading', 'none'], ['grading', 'gp_passfail'], ['grading_threshold', 50], ['view_results', 'none'], ['hide_points', true],
      ['results_page', true], ['show_in_lasthour', false], ['export_stats', false], ['export_answers', true], ['export_gender', false], ['export_skills', true]] as const) {
      const r = await refused(t, () => post(survey, { [name]: value }, me), 403, 'ARGUMENT_CONFLICT', name);
      expect(r.error).toContain('surveys');
    }
    expect(await ok(t, 'POST', 'exam:settings', { exam: survey, export_format: 'csv', export_sort: 'name' }, me)).toMatchObject({ export_format: 'csv', export_sort: 'name' });
  });

  it('view_results, its start within the exam period and its identifier', async () => {
    const me = await t.newCaller('post-view');
    const now = Date.now();
    const exam = await newExam(t, me, { start: new Date(now - HOUR), end: new Date(now + 10 * HOUR) });
    for (const kind of ['always', 'manual', 'none']) expect((await ok(t, 'POST', 'exam:settings', { exam, view_results: kind }, me)).view_results).toBe(kind);
    await ok(t, 'POST', 'exam:settings', { exam, view_results: 'after' }, me);
    for (const kind of ['datetime', 'datetime_blind']) {
      const r = await refused(t, () => post(exam, { view_results: kind }, me), 403, 'ARGUMENT_CONFLICT', 'view_results_start');
      expect(r.error).toContain('mandatory');
    }
    await refused(t, () => post(exam, { view_results: 'datetime', view_results_start: at(now - 2 * HOUR) }, me), 403, 'ARGUMENT_CONFLICT', 'view_results_start');
    await refused(t, () => post(exam, { view_results: 'datetime', view_results_start: at(now + 11 * HOUR) }, me), 403, 'ARGUMENT_CONFLICT', 'view_results_start');
    await refused(t, () => post(exam, { view_results: 'datetime', view_results_start: 'tomorrow' }, me), 403, 'INVALID_ARGUMENT', 'view_results_start');
    // Only with the datetime kinds.
    await refused(t, () => post(exam, { view_results_start: at(now + HOUR) }, me), 403, 'ARGUMENT_CONFLICT', 'view_results_start');
    await codeField(exam, me);
    await refused(t, () => post(exam, { view_results_identifier: 'Code' }, me), 403, 'ARGUMENT_CONFLICT', 'view_results_identifier');

    const start = at(now + 2 * HOUR);
    const body = await ok(t, 'POST', 'exam:settings', { exam, view_results: 'datetime', view_results_start: start }, me);
    expect(body).toMatchObject({ view_results: 'datetime', view_results_start: start });
    expect(body).not.toHaveProperty('view_results_identifier');
    expect(body).not.toHaveProperty('results_url');
    const keys = Object.keys(body);
    expect(keys.slice(keys.indexOf('view_results'), keys.indexOf('view_results') + 3)).toEqual(['view_results', 'view_results_start', 'results_page']);

    // The identifier: the label of a unique free-text field; results_url appears with it.
    await refused(t, () => post(exam, { view_results_identifier: 'Nothing' }, me), 403, 'ARGUMENT_CONFLICT', 'view_results_identifier');
    await ok(t, 'POST', 'exam:fields', { exam, fields: JSON.stringify([{ label: 'Code', type: 'text', unique: true }, { label: 'Nick', type: 'text' }, { label: 'Age', type: 'number' }]) }, me);
    await refused(t, () => post(exam, { view_results_identifier: 'Nick' }, me), 403, 'ARGUMENT_CONFLICT', 'view_results_identifier');
    await refused(t, () => post(exam, { view_results_identifier: 'Age' }, me), 403, 'ARGUMENT_CONFLICT', 'view_results_identifier');
    const withId = await ok(t, 'POST', 'exam:settings', { exam, view_results_identifier: 'Code' }, me);
    expect(withId).toMatchObject({ view_results_identifier: 'Code', results_url: `http://service.test/results/${exam}` });
    expect(Object.keys(withId).slice(keys.indexOf('view_results'), keys.indexOf('view_results') + 5)).toEqual([
      'view_results', 'view_results_start', 'view_results_identifier', 'results_url', 'results_page',
    ]);
    for (const none of ['none', '']) {
      const cleared = await ok(t, 'POST', 'exam:settings', { exam, view_results_identifier: none }, me);
      expect(cleared).not.toHaveProperty('view_results_identifier');
      expect(cleared).not.toHaveProperty('results_url');
      await ok(t, 'POST', 'exam:settings', { exam, view_results_identifier: 'Code' }, me);
    }
    // Leaving the datetime kinds drops the start and the identifier.
    const after = await ok(t, 'POST', 'exam:settings', { exam, view_results: 'after' }, me);
    expect(after).not.toHaveProperty('view_results_start');
    expect(after).not.toHaveProperty('view_results_identifier');
    await refused(t, () => post(exam, { view_results: 'datetime_blind' }, me), 403, 'ARGUMENT_CONFLICT', 'view_results_start');
  });

  it('results_page, hide_points, hide_grade and show_in_lasthour follow view_results', async () => {
    const me = await t.newCaller('post-hide');
    const exam = await newExam(t, me);
    // results_page can be disabled only with datetime_blind, manual and none.
    for (const kind of ['after', 'always']) {
      await ok(t, 'POST', 'exam:settings', { exam, view_results: kind }, me);
      expect((await refused(t, () => post(exam, { results_page: false }, me), 403, 'ARGUMENT_CONFLICT', 'results_page')).error).toContain('datetime_blind, manual or none');
    }
    expect((await ok(t, 'POST', 'exam:settings', { exam, view_results: 'manual', results_page: false }, me)).results_page).toBe(false);
    await refused(t, () => post(exam, { view_results: 'after' }, me), 403, 'ARGUMENT_CONFLICT', 'results_page');
    await ok(t, 'POST', 'exam:settings', { exam, view_results: 'after', results_page: true }, me);

    // hide_grade only together with hide_points.
    expect((await refused(t, () => post(exam, { hide_grade: true }, me), 403, 'ARGUMENT_CONFLICT', 'hide_grade')).error).toContain('hide_points');
    expect(await ok(t, 'POST', 'exam:settings', { exam, hide_points: true, hide_grade: true }, me)).toMatchObject({ hide_points: true, hide_grade: true });
    await refused(t, () => post(exam, { hide_points: false }, me), 403, 'ARGUMENT_CONFLICT', 'hide_grade');
    expect(await ok(t, 'POST', 'exam:settings', { exam, hide_points: false, hide_grade: false }, me)).toMatchObject({ hide_points: false, hide_grade: false });

    // none: both always enabled.
    expect(await ok(t, 'POST', 'exam:settings', { exam, view_results: 'none' }, me)).toMatchObject({ view_results: 'none', hide_points: true, hide_grade: true });
    await refused(t, () => post(exam, { hide_points: false }, me), 403, 'ARGUMENT_CONFLICT', 'hide_points');
    await refused(t, () => post(exam, { hide_grade: false }, me), 403, 'ARGUMENT_CONFLICT', 'hide_grade');

    // show_in_lasthour only with after.
    expect((await refused(t, () => post(exam, { show_in_lasthour: true }, me), 403, 'ARGUMENT_CONFLICT', 'show_in_lasthour')).error).toContain('after');
    expect(await ok(t, 'POST', 'exam:settings', { exam, view_results: 'after', show_in_lasthour: true }, me)).toMatchObject({ show_in_lasthour: true, hide_points: false });
    await refused(t, () => post(exam, { view_results: 'always' }, me), 403, 'ARGUMENT_CONFLICT', 'show_in_lasthour');
  });

  it('export_gender needs the privileged fields feature to enable; export_attendance is read only', async () => {
    const me = await t.newCaller('post-gender');
    const exam = await newExam(t, me);
    await refused(t, () => post(exam, { export_gender: true }, me), 406, 'FEATURE_DISABLED');
    expect((await ok(t, 'POST', 'exam:settings', { exam, export_gender: false }, me)).export_gender).toBe(false);
    await setFeature(t, me, 'privileged_fields', true);
    expect((await ok(t, 'POST', 'exam:settings', { exam, export_gender: true }, me)).export_gender).toBe(true);
    await setFeature(t, me, 'privileged_fields', false);
    // Already on: other changes go through; turning it off needs nothing.
    expect((await ok(t, 'POST', 'exam:settings', { exam, export_sort: 'name' }, me)).export_gender).toBe(true);
    expect((await ok(t, 'POST', 'exam:settings', { exam, export_gender: false }, me)).export_gender).toBe(false);
    expect((await ok(t, 'POST', 'exam:settings', { exam, export_attendance: false }, me)).export_attendance).toBe(true);
  });

  it('a refused call changes nothing, even the settings given before the broken rule', async () => {
    const me = await t.newCaller('post-atomic');
    const exam = await newExam(t, me);
    await refused(t, () => post(exam, { export_format: 'csv', timelimit: 60, show_in_lasthour: true, view_results: 'none' }, me), 403, 'ARGUMENT_CONFLICT', 'show_in_lasthour');
    expect(await get(exam, me)).toEqual({ exam, ...DEFAULTS });
  });
});

describe('PUT and PATCH exam:settings', () => {
  it('PUT replaces the configuration, PATCH fills only unconfigured settings; source must differ', async () => {
    const me = await t.newCaller('copy-me');
    const source = await newExam(t, me);
    const target = await newExam(t, me);
    await ok(t, 'POST', 'exam:settings', { exam: source, timelimit: 600, export_format: 'csv', hide_points: true, archive: true, freeze_round: true }, me);
    await ok(t, 'POST', 'exam:settings', { exam: target, timelimit: 300, export_sort: 'name' }, me);

    const patch = await ok(t, 'PATCH', 'exam:settings', { exam: target, source }, me);
    expect(patch).toEqual({ exam: target, source });
    // Configured in the target: kept; unconfigured: from the source; the round's freezing never.
    expect(await get(target, me)).toEqual({ exam: target, ...DEFAULTS, timelimit: 300, export_sort: 'name', export_format: 'csv', hide_points: true, archive: true });

    expect(await ok(t, 'PUT', 'exam:settings', { exam: target, source }, me)).toEqual({ exam: target, source });
    expect(await get(target, me)).toEqual({ exam: target, ...DEFAULTS, timelimit: 600, export_format: 'csv', hide_points: true, archive: true });

    const r = await refused(t, () => t.rpc('PUT', 'exam:settings', { exam: target, source: target }, { as: me }), 403, 'SAME_SOURCE', 'source');
    expect(r.error).toContain('differ');
    await refused(t, () => t.rpc('PATCH', 'exam:settings', { exam: target, source: target }, { as: me }), 403, 'SAME_SOURCE', 'source');
    await refused(t, () => t.rpc('PUT', 'exam:settings', { exam: target }, { as: me }), 403, 'MISSING_ARGUMENT', 'source');
    // A source the caller may not view is unknown to it.
    const other = await t.newCaller('copy-other');
    const hidden = await newExam(t, other);
    await refused(t, () => t.rpc('PUT', 'exam:settings', { exam: target, source: hidden }, { as: me }), 403, 'NOT_FOUND', 'source');
    // The target needs modify.
    await grantExam(t, hidden, me, 'view');
    await refused(t, () => t.rpc('PUT', 'exam:settings', { exam: hidden, source: target }, { as: me }), 403, 'PERMISSION_DENIED');
  });

  it('never copies what does not apply to the target; questionless only for non-survey, non-championship targets without round results', async () => {
    const me = await t.newCaller('copy-rules');
    const source = await newExam(t, me, { mode: 'TURNS' });
    await ok(t, 'POST', 'exam:settings', { exam: source, questionless: true, roundtime: 20, grading: 'gp_passfail', grading_threshold: 70, export_stats: true, export_format: 'csv' }, me);

    const survey = await newExam(t, me, { type: 'survey' });
    await ok(t, 'PUT', 'exam:settings', { exam: survey, source }, me);
    expect(await get(survey, me)).toEqual({
      exam: survey, nonblocking: true, pausable: false, questionless: false, timelimit: null, roundtime: null,
      freeze_round: false, archive: false, export_format: 'csv', export_sort: 'default',
    });

    const championship = await newExam(t, me, { type: 'championship' });
    await ok(t, 'PUT', 'exam:settings', { exam: championship, source }, me);
    expect(await get(championship, me)).toMatchObject({ questionless: false, roundtime: null, grading: 'gp_passfail', grading_threshold: 70, export_stats: true });

    const played = await newExam(t, me);
    await newPlay(t, played, await t.newCaller('copy-examinee'));
    await ok(t, 'PUT', 'exam:settings', { exam: played, source }, me);
    expect((await get(played, me)).questionless).toBe(false);

    const fresh = await newExam(t, me, { mode: 'TURNS' });
    await ok(t, 'PUT', 'exam:settings', { exam: fresh, source }, me);
    expect(await get(fresh, me)).toMatchObject({ questionless: true, roundtime: 20 });

    // Values the target's type fixes are not copied; nor is a setting that would break a rule next to the target's own.
    const blocking = await newExam(t, me);
    await ok(t, 'POST', 'exam:settings', { exam: blocking, nonblocking: false, show_in_lasthour: true, export_points: true }, me);
    const homework = await newExam(t, me, { type: 'homework' });
    await ok(t, 'PUT', 'exam:settings', { exam: homework, source: blocking }, me);
    expect(await get(homework, me)).toMatchObject({ nonblocking: true, pausable: true, show_in_lasthour: true, export_points: true });
    const hidden = await newExam(t, me);
    await ok(t, 'POST', 'exam:settings', { exam: hidden, view_results: 'none' }, me);
    await ok(t, 'PATCH', 'exam:settings', { exam: hidden, source: blocking }, me);
    expect(await get(hidden, me)).toMatchObject({ view_results: 'none', show_in_lasthour: false, export_points: true });

    // A modifier copies neither archive nor freeze_round.
    const managed = await newExam(t, me);
    await ok(t, 'POST', 'exam:settings', { exam: managed, archive: true }, me);
    const modifier = await t.newCaller('copy-modifier');
    await grantExam(t, fresh, modifier, 'modify');
    await grantExam(t, managed, modifier, 'view');
    await ok(t, 'PUT', 'exam:settings', { exam: fresh, source: managed }, modifier);
    expect((await get(fresh, me)).archive).toBe(false);
  });

  it('an identifier is copied only when the target has that unique free-text field', async () => {
    const me = await t.newCaller('copy-identifier');
    const now = Date.now();
    const source = await newExam(t, me);
    await codeField(source, me);
    await ok(t, 'POST', 'exam:settings', { exam: source, view_results: 'datetime', view_results_start: at(now + HOUR), view_results_identifier: 'Code' }, me);
    const without = await newExam(t, me);
    await ok(t, 'PUT', 'exam:settings', { exam: without, source }, me);
    const read = await get(without, me);
    expect(read).toMatchObject({ view_results: 'datetime', view_results_start: at(now + HOUR) });
    expect(read).not.toHaveProperty('view_results_identifier');
    const withField = await newExam(t, me);
    await codeField(withField, me);
    await ok(t, 'PUT', 'exam:settings', { exam: withField, source }, me);
    expect((await get(withField, me)).view_results_identifier).toBe('Code');
    // A viewing period outside the target's own period is refused, naming the setting.
    const early = await newExam(t, me, { start: new Date(now - 3 * HOUR), end: new Date(now - 2 * HOUR) });
    await refused(t, () => t.rpc('PUT', 'exam:settings', { exam: early, source }, { as: me }), 403, 'ARGUMENT_CONFLICT', 'view_results_start');
  });
});
