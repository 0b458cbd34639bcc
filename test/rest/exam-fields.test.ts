import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/expect.ts';
import { ok } from '../helpers/quiz-seed.ts';
import { enterValue, grantExam, newExam, refused, setFeature } from '../helpers/exam-settings-seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const HOUR = 3600_000;
const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('T', ' ').slice(0, 19);

const postFields = (exam: string, fields: unknown[], as: Caller, extra: Record<string, unknown> = {}) =>
  t.rpc('POST', 'exam:fields', { exam, fields: JSON.stringify(fields), ...extra }, { as });
const setFields = (exam: string, fields: unknown[], as: Caller) => ok(t, 'POST', 'exam:fields', { exam, fields: JSON.stringify(fields) }, as);

describe('GET and POST exam:fields: built-in fields', () => {
  it('reads name and email used with their default labels and phone unused when nothing is configured', async () => {
    const me = await t.newCaller('builtin-me');
    const exam = await newExam(t, me);
    const body = await ok(t, 'GET', 'exam:fields', { exam }, me);
    expect(body).toEqual({ exam, name: true, email: true, phone: false, fields: [] });
    expect(Object.keys(body)).toEqual(['exam', 'name', 'email', 'phone', 'fields']);
    const viewer = await t.newCaller('builtin-viewer');
    await grantExam(t, exam, viewer, 'view');
    expect(await ok(t, 'GET', 'exam:fields', { exam }, viewer)).toEqual(body);
    expectError(await t.rpc('GET', 'exam:fields', { exam }, { as: await t.newCaller('builtin-stranger') }), 403, 'NOT_FOUND', 'exam');
    await refused(t, () => t.rpc('POST', 'exam:fields', { exam, phone: true }, { as: viewer }), 403, 'PERMISSION_DENIED');
  });

  it('true is the default label, text its own label, false unused with the label kept', async () => {
    const me = await t.newCaller('builtin-labels');
    const exam = await newExam(t, me);
    expect(await ok(t, 'POST', 'exam:fields', { exam, name: 'Full name', phone: 'true' }, me)).toEqual({ exam, name: 'Full name', email: true, phone: true, fields: [] });
    expect((await ok(t, 'POST', 'exam:fields', { exam, name: false }, me)).name).toBe(false);
    expect(await ok(t, 'POST', 'exam:fields', { exam, email: 'Work email' }, me)).toMatchObject({ name: false, email: 'Work email' });
    expect((await ok(t, 'POST', 'exam:fields', { exam, email: true }, me)).email).toBe(true);
    await refused(t, () => t.rpc('POST', 'exam:fields', { exam, name: 'x'.repeat(256) }, { as: me }), 403, 'INVALID_ARGUMENT', 'name');
    expect(await ok(t, 'POST', 'exam:fields', { exam, name: true, email: false, phone: false }, me, 'json')).toMatchObject({ name: true, email: false, phone: false });
  });
});

describe('POST exam:fields: custom fields', () => {
  it('replaces the list in display order with each type and its defaults', async () => {
    const me = await t.newCaller('custom-list');
    const exam = await newExam(t, me);
    const body = await setFields(exam, [
      { label: 'Code' },
      { label: 'Team', type: 'select', options: ['Red', '', 'Blue', '  '], filtering: { Red: 'Red team' }, required: false, icon: 'fa-solid fa-users', description: 'Your team' },
      { label: 'Score', type: 'from-to', from: 1, to: 10, step: 0.5 },
      { label: 'Born', type: 'date', min: '1900-01-01', max: 'now' },
      { label: 'Slot', type: 'datetime', min: 'now', max: '2030-01-01 12:30' },
      { label: 'Mail', type: 'email', minlength: 5, maxlength: 80, unique: true },
      { label: 'Agree', type: 'yes' },
      { label: 'Sex', type: 'gender' },
    ], me);
    expect(body.fields).toEqual([
      // unique only "if set": a free-text field that is not unique has no unique field.
      { label: 'Code', type: 'text', required: true, description: '', icon: '' },
      { label: 'Team', type: 'select', required: false, description: 'Your team', icon: 'fa-solid fa-users', options: ['Red', 'Blue'], filtering: { Red: 'Red team' } },
      { label: 'Score', type: 'from-to', required: true, description: '', icon: '', from: 1, to: 10, step: 0.5 },
      { label: 'Born', type: 'date', required: true, description: '', icon: '', min: '1900-01-01', max: 'now' },
      { label: 'Slot', type: 'datetime', required: true, description: '', icon: '', min: 'now', max: '2030-01-01 12:30' },
      { label: 'Mail', type: 'email', required: true, description: '', icon: '', minlength: 5, maxlength: 80, unique: true },
      { label: 'Agree', type: 'yes', required: true, description: '', icon: '' },
      { label: 'Sex', type: 'gender', required: true, description: '', icon: '' },
    ]);
    expect(await ok(t, 'GET', 'exam:fields', { exam }, me)).toEqual(body);
    // A new list in another order: same-label fields keep their earlier settings as defaults.
    const again = await setFields(exam, [{ label: 'Mail' }, { label: 'Team', options: ['Red', 'Green'] }, { label: 'Number', type: 'number' }], me);
    expect(again.fields).toEqual([
      { label: 'Mail', type: 'email', required: true, description: '', icon: '', minlength: 5, maxlength: 80, unique: true },
      // Filtering kept when omitted, for the options that remain.
      { label: 'Team', type: 'select', required: false, description: 'Your team', icon: 'fa-solid fa-users', options: ['Red', 'Green'], filtering: { Red: 'Red team' } },
      { label: 'Number', type: 'number', required: true, description: '', icon: '' },
    ]);
    // A field taken out of the list and listed again comes back with its settings.
    expect((await setFields(exam, [{ label: 'Score' }], me)).fields).toEqual([{ label: 'Score', type: 'from-to', required: true, description: '', icon: '', from: 1, to: 10, step: 0.5 }]);
    // Omitting fields leaves the custom fields alone.
    expect((await ok(t, 'POST', 'exam:fields', { exam, phone: true }, me)).fields).toHaveLength(1);
    expect((await setFields(exam, [], me)).fields).toEqual([]);
  });

  it('refuses a field against its rules, naming it, and writes nothing', async () => {
    const me = await t.newCaller('custom-rules');
    const exam = await newExam(t, me);
    await setFields(exam, [{ label: 'Keep' }], me);
    const cases: [unknown[], string, string][] = [
      [[{ label: 'A' }, { label: 'A' }], 'ARGUMENT_CONFLICT', 'fields.1.label'],
      [[{ type: 'text' }], 'INVALID_ARGUMENT', 'fields.0.label'],
      [[{ label: 'x'.repeat(256) }], 'INVALID_ARGUMENT', 'fields.0.label'],
      [[{ label: 'T', type: 'colour' }], 'INVALID_ARGUMENT', 'fields.0.type'],
      [[{ label: 'S', type: 'select' }], 'MISSING_ARGUMENT', 'fields.0.options'],
      [[{ label: 'S', type: 'select', options: ['', ' '] }], 'ARGUMENT_CONFLICT', 'fields.0.options'],
      [[{ label: 'S', type: 'select', options: ['a'], filtering: { b: 'x' } }], 'ARGUMENT_CONFLICT', 'fields.0.filtering'],
      [[{ label: 'S', type: 'text', options: ['a'] }], 'ARGUMENT_CONFLICT', 'fields.0.options'],
      [[{ label: 'R', type: 'from-to', to: 5 }], 'MISSING_ARGUMENT', 'fields.0.from'],
      [[{ label: 'R', type: 'from-to', from: 1 }], 'MISSING_ARGUMENT', 'fields.0.to'],
      [[{ label: 'R', type: 'from-to', from: 5, to: 5 }], 'ARGUMENT_CONFLICT', 'fields.0.from'],
      [[{ label: 'R', type: 'from-to', from: 1, to: 5, step: 0 }], 'ARGUMENT_CONFLICT', 'fields.0.step'],
      [[{ label: 'R', type: 'number', step: 1 }], 'ARGUMENT_CONFLICT', 'fields.0.step'],
      [[{ label: 'D', type: 'date', min: 'yesterday' }], 'INVALID_ARGUMENT', 'fields.0.min'],
      [[{ label: 'D', type: 'date', min: '2020-02-30' }], 'INVALID_ARGUMENT', 'fields.0.min'],
      [[{ label: 'D', type: 'date', min: '2020-01-01 10:00' }], 'INVALID_ARGUMENT', 'fields.0.min'],
      [[{ label: 'D', type: 'date', min: '2020-01-02', max: '2020-01-01' }], 'ARGUMENT_CONFLICT', 'fields.0.max'],
      [[{ label: 'D', type: 'datetime', min: '2020-01-01 10:00', max: '2020-01-01 09:59' }], 'ARGUMENT_CONFLICT', 'fields.0.max'],
      [[{ label: 'D', type: 'text', min: 'now' }], 'ARGUMENT_CONFLICT', 'fields.0.min'],
      [[{ label: 'L', minlength: 0 }], 'INVALID_ARGUMENT', 'fields.0.minlength'],
      [[{ label: 'L', maxlength: 256 }], 'INVALID_ARGUMENT', 'fields.0.maxlength'],
      [[{ label: 'L', minlength: 10, maxlength: 5 }], 'ARGUMENT_CONFLICT', 'fields.0.minlength'],
      [[{ label: 'L', type: 'number', maxlength: 5 }], 'ARGUMENT_CONFLICT', 'fields.0.maxlength'],
      [[{ label: 'U', type: 'select', options: ['a'], unique: true }], 'ARGUMENT_CONFLICT', 'fields.0.unique'],
      [[{ label: 'I', icon: 'star' }], 'INVALID_ARGUMENT', 'fields.0.icon'],
      [[{ label: 'I', icon: 'fa-bold fa-star' }], 'INVALID_ARGUMENT', 'fields.0.icon'],
    ];
    for (const [fields, code, argument] of cases) await refused(t, () => postFields(exam, fields, me), 403, code, argument);
    await refused(t, () => t.rpc('POST', 'exam:fields', { exam, fields: 'not json' }, { as: me }), 403, 'INVALID_ARGUMENT', 'fields');
    await refused(t, () => t.rpc('POST', 'exam:fields', { exam, fields: '{"label":"A"}' }, { as: me }), 403, 'INVALID_ARGUMENT', 'fields');
    expect((await ok(t, 'GET', 'exam:fields', { exam }, me)).fields.map((f: { label: string }) => f.label)).toEqual(['Keep']);
  });

  it('pattern needs the privileged fields feature, must be a valid regular expression, and stays for callers without it', async () => {
    const me = await t.newCaller('custom-pattern');
    const exam = await newExam(t, me);
    // Without the feature the pattern is not taken.
    expect((await setFields(exam, [{ label: 'Code', pattern: '[A-Z]{3}' }], me)).fields[0]).not.toHaveProperty('pattern');
    await setFeature(t, me, 'privileged_fields', true);
    await refused(t, () => postFields(exam, [{ label: 'Code', pattern: '[A-Z' }], me), 403, 'INVALID_ARGUMENT', 'fields.0.pattern');
    await refused(t, () => postFields(exam, [{ label: 'Code', pattern: 'x'.repeat(256) }], me), 403, 'INVALID_ARGUMENT', 'fields.0.pattern');
    await refused(t, () => postFields(exam, [{ label: 'Code', type: 'date', pattern: 'x' }], me), 403, 'ARGUMENT_CONFLICT', 'fields.0.pattern');
    expect((await setFields(exam, [{ label: 'Code', pattern: '[A-Z]{3}' }], me)).fields[0].pattern).toBe('[A-Z]{3}');
    await setFeature(t, me, 'privileged_fields', false);
    // The previous pattern is kept for a caller without the feature, whatever it sends.
    expect((await setFields(exam, [{ label: 'Code', pattern: '.*', maxlength: 3 }], me)).fields[0]).toMatchObject({ pattern: '[A-Z]{3}', maxlength: 3 });
    expect((await setFields(exam, [{ label: 'Code' }], me)).fields[0].pattern).toBe('[A-Z]{3}');
  });

  it('a change that makes the identifier field stop qualifying clears view_results_identifier', async () => {
    const me = await t.newCaller('custom-identifier');
    const exam = await newExam(t, me);
    const settings = { exam, view_results: 'datetime', view_results_start: at(Date.now() + HOUR), view_results_identifier: 'Code' };
    for (const change of [[{ label: 'Code', unique: false }], [{ label: 'Code', type: 'number' }], [{ label: 'Other', unique: true }]]) {
      await setFields(exam, [{ label: 'Code', type: 'text', unique: true }], me);
      expect((await ok(t, 'POST', 'exam:settings', settings, me)).view_results_identifier).toBe('Code');
      await setFields(exam, change, me);
      const read = await ok(t, 'GET', 'exam:settings', { exam }, me);
      expect(read).not.toHaveProperty('view_results_identifier');
      expect(read).not.toHaveProperty('results_url');
    }
    // A change that keeps it qualifying keeps it.
    await setFields(exam, [{ label: 'Code', type: 'text', unique: true }], me);
    await ok(t, 'POST', 'exam:settings', settings, me);
    await setFields(exam, [{ label: 'Code', type: 'email', description: 'Your code' }, { label: 'Other' }], me);
    expect((await ok(t, 'GET', 'exam:settings', { exam }, me)).view_results_identifier).toBe('Code');
  });
});

describe('DELETE exam:fields', () => {
  it('removes the custom fields, keeps the built-in ones and the entered values (hidden), and clears the identifier', async () => {
    const me = await t.newCaller('delete-me');
    const exam = await newExam(t, me);
    await ok(t, 'POST', 'exam:fields', { exam, phone: 'Mobile', fields: JSON.stringify([{ label: 'Code', unique: true }, { label: 'Team', type: 'select', options: ['A'] }]) }, me);
    const examinee = await t.newCaller('delete-examinee');
    await enterValue(t, exam, 'Code', examinee, 'ABC');
    await ok(t, 'POST', 'exam:settings', { exam, view_results: 'datetime', view_results_start: at(Date.now() + HOUR), view_results_identifier: 'Code' }, me);
    const viewer = await t.newCaller('delete-viewer');
    await grantExam(t, exam, viewer, 'view');
    await refused(t, () => t.rpc('DELETE', 'exam:fields', { exam }, { as: viewer }), 403, 'PERMISSION_DENIED');

    expect(await ok(t, 'DELETE', 'exam:fields', { exam }, me)).toEqual({ exam, success: true });
    expect(await ok(t, 'GET', 'exam:fields', { exam }, me)).toEqual({ exam, name: true, email: true, phone: 'Mobile', fields: [] });
    expect(await ok(t, 'GET', 'exam:settings', { exam }, me)).not.toHaveProperty('view_results_identifier');
    expect(await t.db.prisma.examFieldValue.count({ where: { userId: examinee.user.id, value: 'ABC' } })).toBe(1);
    // Listed again, the field comes back with its settings and its values.
    expect((await setFields(exam, [{ label: 'Code' }], me)).fields).toEqual([{ label: 'Code', type: 'text', required: true, description: '', icon: '', unique: true }]);
    expect(await ok(t, 'DELETE', 'exam:fields', { exam }, me)).toEqual({ exam, success: true });
    expectError(await t.rpc('DELETE', 'exam:fields', { exam: 'exm_nothing' }, { as: me }), 403, 'NOT_FOUND', 'exam');
  });
});
