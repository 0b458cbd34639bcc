import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { ok as rest } from '../helpers/quiz-seed.ts';
import { grantExam, newExam, refused as refusedRest } from '../helpers/exam-settings-seed.ts';
import { expectCode, ISO, type GraphQLErrorBody } from './client.ts';

let t: TestApp;
let me: Caller;
beforeAll(async () => {
  t = await createTestApp();
  me = await t.newCaller('gql-owner');
});
afterAll(async () => t?.close());

const HOUR = 3600_000;

async function gqlOk(query: string, variables: Record<string, unknown> = {}, as: Caller = me) {
  const r = await t.gql(query, variables, { as });
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  return r.body.data;
}

/** The single error of a refused operation; nothing is written. */
async function gqlRefused(query: string, variables: Record<string, unknown>, as: Caller = me): Promise<GraphQLErrorBody> {
  const before = await t.db.prisma.examSettings.findMany({ orderBy: { examId: 'asc' } });
  const r = await t.gql(query, variables, { as });
  expect(r.body.errors).toHaveLength(1);
  expect(await t.db.prisma.examSettings.findMany({ orderBy: { examId: 'asc' } })).toEqual(before);
  return r.body.errors![0];
}

const EXAM = `query ($id: ID!) { node(id: $id) { ... on Exam {
  settings { nonblocking pausable questionless timelimit roundtime freezeRound archive grading gradingThreshold viewResults viewResultsStart
    viewResultsIdentifier resultsUrl resultsPage hidePoints hideGrade showInLasthour exportFormat exportSort exportStats exportGender exportAttendance }
  fields { name { used label } email { used label } phone { used label }
    custom { label type required description icon options filtering from to step min max minlength maxlength pattern unique } }
  certificateSettings { enabled serialNumbering serialPrefix nextSerial validityMonths title }
} } }`;

const UPDATE = `mutation ($input: UpdateExamSettingsInput!) { updateExamSettings(input: $input) { id settings { nonblocking pausable timelimit viewResults viewResultsStart viewResultsIdentifier resultsUrl grading gradingThreshold } } }`;
const COPY = `mutation ($exam: ID!, $source: ID!, $mode: ExamSettingsCopyMode!, $keep: Boolean) {
  copyExamSettings(exam: $exam, source: $source, mode: $mode, keepCertificateSettings: $keep) { id settings { timelimit exportFormat exportSort } certificateSettings { enabled serialPrefix nextSerial validityMonths title } } }`;
const FIELDS = `mutation ($exam: ID!, $name: ExamBuiltInFieldInput, $phone: ExamBuiltInFieldInput, $fields: [ExamCustomFieldInput!]) {
  updateExamFields(exam: $exam, name: $name, phone: $phone, fields: $fields) { id fields { name { used label } phone { used label } custom { label type options filtering unique } } } }`;
const DELETE_FIELDS = `mutation ($exam: ID!) { deleteExamFields(exam: $exam) { id fields { custom { label } } settings { viewResultsIdentifier } } }`;
const CERTIFICATE = `mutation ($input: UpdateExamCertificateSettingsInput!) {
  updateExamCertificateSettings(input: $input) { id certificateSettings { enabled serialNumbering serialPrefix nextSerial validityMonths title } } }`;

describe('Exam settings, fields and certificate settings in GraphQL', () => {
  it('reads the defaults of an unconfigured exam; a caller that may not view it gets null', async () => {
    const exam = await newExam(t, me);
    const data = await gqlOk(EXAM, { id: exam });
    expect(data.node).toEqual({
      settings: {
        nonblocking: false, pausable: false, questionless: false, timelimit: null, roundtime: null, freezeRound: false, archive: false, grading: null,
        gradingThreshold: null, viewResults: 'after', viewResultsStart: null, viewResultsIdentifier: null, resultsUrl: null, resultsPage: true,
        hidePoints: false, hideGrade: false, showInLasthour: false, exportFormat: 'xlsx', exportSort: 'default', exportStats: false, exportGender: false, exportAttendance: true,
      },
      fields: { name: { used: true, label: null }, email: { used: true, label: null }, phone: { used: false, label: null }, custom: [] },
      certificateSettings: { enabled: false, serialNumbering: false, serialPrefix: '', nextSerial: 1, validityMonths: null, title: null },
    });
    expect((await gqlOk(EXAM, { id: exam }, await t.newCaller('gql-stranger'))).node).toBeNull();
  });

  it('updateExamSettings applies the rules of POST exam:settings', async () => {
    const exam = await newExam(t, me);
    const start = new Date(Math.floor((Date.now() + HOUR) / 1000) * 1000).toISOString();
    await rest(t, 'POST', 'exam:fields', { exam, fields: JSON.stringify([{ label: 'Code', unique: true }]) }, me);
    const data = await gqlOk(UPDATE, { input: { exam, nonblocking: true, pausable: true, timelimit: '120', viewResults: 'datetime', viewResultsStart: start, viewResultsIdentifier: 'Code', grading: 'gp_passfail', gradingThreshold: 55.5 } });
    expect(data.updateExamSettings).toEqual({
      id: exam,
      settings: { nonblocking: true, pausable: true, timelimit: 120, viewResults: 'datetime', viewResultsStart: start, viewResultsIdentifier: 'Code', resultsUrl: `http://service.test/results/${exam}`, grading: 'gp_passfail', gradingThreshold: 55.5 },
    });
    expect(data.updateExamSettings.settings.viewResultsStart).toMatch(ISO);
    expect((await gqlOk(UPDATE, { input: { exam, timelimit: 'default' } })).updateExamSettings.settings.timelimit).toBeNull();
    expectCode(await gqlRefused(UPDATE, { input: { exam, nonblocking: false, pausable: true } }), 'ARGUMENT_CONFLICT', 'pausable');
    expectCode(await gqlRefused(UPDATE, { input: { exam, viewResults: 'datetime', viewResultsStart: new Date(Date.now() + 48 * HOUR).toISOString() } }), 'ARGUMENT_CONFLICT', 'viewResultsStart');
    const viewer = await t.newCaller('gql-viewer');
    await grantExam(t, exam, viewer, 'view');
    expectCode(await gqlRefused(UPDATE, { input: { exam, timelimit: '5' } }, viewer), 'PERMISSION_DENIED');
    const modifier = await t.newCaller('gql-modifier');
    await grantExam(t, exam, modifier, 'modify');
    expectCode(await gqlRefused(UPDATE, { input: { exam, archive: true } }, modifier), 'PERMISSION_DENIED', 'archive');
  });

  it('updateExamFields and deleteExamFields change the fields; deleting clears the identifier', async () => {
    const exam = await newExam(t, me);
    const data = await gqlOk(FIELDS, {
      exam, name: { used: true, label: 'Full name' }, phone: { used: true },
      fields: [{ label: 'Code', unique: true }, { label: 'Team', type: 'select', options: ['A', '', 'B'], filtering: { A: 'Group A' } }],
    });
    expect(data.updateExamFields.fields).toEqual({
      name: { used: true, label: 'Full name' }, phone: { used: true, label: null },
      custom: [{ label: 'Code', type: 'text', options: null, filtering: null, unique: true }, { label: 'Team', type: 'select', options: ['A', 'B'], filtering: { A: 'Group A' }, unique: null }],
    });
    expectCode(await gqlRefused(FIELDS, { exam, fields: [{ label: 'Team', type: 'select', options: [] }] }), 'ARGUMENT_CONFLICT', 'fields.0.options');
    expectCode(await gqlRefused(FIELDS, { exam, fields: [{ label: 'X' }, { label: 'X' }] }), 'ARGUMENT_CONFLICT', 'fields.1.label');
    await gqlOk(UPDATE, { input: { exam, viewResults: 'datetime_blind', viewResultsStart: new Date(Date.now() + HOUR).toISOString(), viewResultsIdentifier: 'Code' } });
    expect((await gqlOk(DELETE_FIELDS, { exam })).deleteExamFields).toEqual({ id: exam, fields: { custom: [] }, settings: { viewResultsIdentifier: null } });
    expect((await gqlOk(FIELDS, { exam, name: { used: false } })).updateExamFields.fields.name).toEqual({ used: false, label: null });
  });

  it('updateExamCertificateSettings, and certificate settings in copies', async () => {
    const source = await newExam(t, me);
    const target = await newExam(t, me);
    const set = await gqlOk(CERTIFICATE, { input: { exam: source, enabled: true, serialNumbering: true, serialPrefix: 'PHY-', nextSerial: 100, validityMonths: 24, title: 'Physics certificate' } });
    expect(set.updateExamCertificateSettings.certificateSettings).toEqual({ enabled: true, serialNumbering: true, serialPrefix: 'PHY-', nextSerial: 100, validityMonths: 24, title: 'Physics certificate' });
    expectCode(await gqlRefused(CERTIFICATE, { input: { exam: source, nextSerial: 99 } }), 'ARGUMENT_CONFLICT', 'nextSerial');
    expectCode(await gqlRefused(CERTIFICATE, { input: { exam: source, validityMonths: 0 } }), 'INVALID_ARGUMENT', 'validityMonths');
    expect((await gqlOk(CERTIFICATE, { input: { exam: source, noExpiry: true, title: '' } })).updateExamCertificateSettings.certificateSettings).toMatchObject({ validityMonths: null, title: null, nextSerial: 100 });
    await gqlOk(CERTIFICATE, { input: { exam: source, validityMonths: 12 } });

    await gqlOk(CERTIFICATE, { input: { exam: target, enabled: true, serialPrefix: 'OWN-', nextSerial: 7 } });
    await rest(t, 'POST', 'exam:settings', { exam: source, timelimit: 60, export_format: 'csv' }, me);
    await rest(t, 'POST', 'exam:settings', { exam: target, export_sort: 'name' }, me);
    // keep: the target's certificate settings stay.
    const kept = await gqlOk(COPY, { exam: target, source, mode: 'REPLACE', keep: true });
    expect(kept.copyExamSettings).toEqual({
      id: target, settings: { timelimit: 60, exportFormat: 'csv', exportSort: 'default' },
      certificateSettings: { enabled: true, serialPrefix: 'OWN-', nextSerial: 7, validityMonths: null, title: null },
    });
    // PATCH without keep: the target has certificate settings of its own, so they stay.
    expect((await gqlOk(COPY, { exam: target, source, mode: 'FILL' })).copyExamSettings.certificateSettings.serialPrefix).toBe('OWN-');
    // PUT without keep takes the source's, with the target's own next serial number.
    const taken = await rest(t, 'PUT', 'exam:settings', { exam: target, source }, me);
    expect(taken).toEqual({ exam: target, source });
    expect((await gqlOk(EXAM, { id: target })).node.certificateSettings).toEqual({ enabled: true, serialNumbering: true, serialPrefix: 'PHY-', nextSerial: 7, validityMonths: 12, title: null });
    // PATCH without keep fills a target that has none.
    const empty = await newExam(t, me);
    await rest(t, 'PATCH', 'exam:settings', { exam: empty, source, keep_certificate_settings: 'false' }, me);
    expect((await gqlOk(EXAM, { id: empty })).node.certificateSettings).toMatchObject({ enabled: true, serialPrefix: 'PHY-', nextSerial: 1 });
    // And PUT with keep leaves one without any.
    const none = await newExam(t, me);
    await rest(t, 'PUT', 'exam:settings', { exam: none, source, keep_certificate_settings: 'true' }, me);
    expect((await gqlOk(EXAM, { id: none })).node.certificateSettings.enabled).toBe(false);
    expectCode(await gqlRefused(COPY, { exam: target, source: target, mode: 'REPLACE' }), 'SAME_SOURCE', 'source');
    await refusedRest(t, () => t.rpc('PUT', 'exam:settings', { exam: target, source, keep_certificate_settings: 'maybe' }, { as: me }), 403, 'INVALID_ARGUMENT', 'keep_certificate_settings');
  });
});
