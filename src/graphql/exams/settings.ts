import { builder } from '../builder.ts';
import { ExamType } from './exam.type.ts';
import { given } from '../grading/grading-preset.type.ts';
import * as settings from '../../services/exams/settings.service.ts';
import * as certificate from '../../services/exams/certificate.service.ts';
import type { SettingsView } from '../../services/exams/settings.model.ts';
import type { CertificateView } from '../../services/exams/certificate.service.ts';
import { mirrorDescription } from '../operation-prose.ts';

/** Exam settings and certificate settings: `Exam.settings`, `Exam.certificateSettings` and their mutations. */

const ExamSettingsType = builder.objectRef<SettingsView>('ExamSettings').implement({
  description:
    'The settings of an exam as GET exam:settings reads them. Surveys have no grading, no results viewing and only exportFormat and exportSort of the export settings: those fields are null for them.',
  fields: (t) => ({
    nonblocking: t.exposeBoolean('nonblocking', { description: 'Exam accounts are not exclusive to the exam during its period; always true for homework and surveys.' }),
    pausable: t.exposeBoolean('pausable', { description: 'Tests can be paused and continued (non-blocking exams only; always true for homework).' }),
    questionless: t.exposeBoolean('questionless', { description: 'The test has no questions: starting it finishes it.' }),
    timelimit: t.exposeInt('timelimit', { nullable: true, description: 'Seconds for the whole test, 0 no limit; null: the Quiz set setting is used.' }),
    roundtime: t.exposeInt('roundtime', { nullable: true, description: 'Seconds per question (TURNS Quiz sets), 0 no limit; null: the Quiz set setting is used.' }),
    freezeRound: t.exposeBoolean('freezeRound', { description: 'The current round is frozen (managers only).' }),
    archive: t.exposeBoolean('archive', { description: 'Users with a result can be archived (managers only).' }),
    grading: t.string({ nullable: true, description: 'A grading preset code or `none`; null: the Quiz set setting is used (and for surveys).', resolve: (s) => s.grading ?? null }),
    gradingThreshold: t.float({ nullable: true, description: 'The threshold of a configurable preset, when configured.', resolve: (s) => s.gradingThreshold ?? null }),
    viewResults: t.string({ nullable: true, description: 'after, always, datetime, datetime_blind, manual or none.', resolve: (s) => s.viewResults ?? null }),
    viewResultsStart: t.field({ type: 'DateTime', nullable: true, description: 'Start of the results viewing period (datetime kinds).', resolve: (s) => s.viewResultsStart ?? null }),
    viewResultsIdentifier: t.string({ nullable: true, description: 'Label of the unique free-text field examinees look their result up by (datetime kinds).', resolve: (s) => s.viewResultsIdentifier ?? null }),
    resultsUrl: t.string({ nullable: true, description: 'The identifier-based results page, when available.', resolve: (s) => s.resultsUrl ?? null }),
    resultsPage: t.boolean({ nullable: true, resolve: (s) => s.resultsPage ?? null, description: 'Examinees are redirected to the results page.' }),
    hideIngameResults: t.boolean({ nullable: true, resolve: (s) => s.hideIngameResults ?? null, description: 'Results are hidden during the test.' }),
    hidePoints: t.boolean({ nullable: true, resolve: (s) => s.hidePoints ?? null, description: 'Points are hidden.' }),
    hideGrade: t.boolean({ nullable: true, resolve: (s) => s.hideGrade ?? null, description: 'The grade is hidden.' }),
    showInLasthour: t.boolean({ nullable: true, resolve: (s) => s.showInLasthour ?? null, description: 'Shown in the last hour (view_results after).' }),
    exportFormat: t.exposeString('exportFormat', { description: 'csv or xlsx.' }),
    exportSort: t.exposeString('exportSort', { description: 'default or name.' }),
    exportStats: t.boolean({ nullable: true, resolve: (s) => s.exportStats ?? null }),
    exportAnswers: t.boolean({ nullable: true, resolve: (s) => s.exportAnswers ?? null }),
    exportPoints: t.boolean({ nullable: true, resolve: (s) => s.exportPoints ?? null }),
    exportSuspicion: t.boolean({ nullable: true, resolve: (s) => s.exportSuspicion ?? null }),
    exportFinishedOnly: t.boolean({ nullable: true, resolve: (s) => s.exportFinishedOnly ?? null }),
    exportCustomFields: t.boolean({ nullable: true, resolve: (s) => s.exportCustomFields ?? null }),
    exportSkills: t.boolean({ nullable: true, resolve: (s) => s.exportSkills ?? null }),
    exportGender: t.boolean({ nullable: true, resolve: (s) => s.exportGender ?? null }),
    exportJourney: t.boolean({ nullable: true, resolve: (s) => s.exportJourney ?? null }),
    exportAttendance: t.boolean({ nullable: true, resolve: (s) => s.exportAttendance ?? null, description: 'Read only.' }),
  }),
});

const ExamCertificateSettingsType = builder.objectRef<CertificateView>('ExamCertificateSettings').implement({
  description: 'Certificate settings of an exam.',
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled', { description: 'Certificates are issued for successful results.' }),
    serialNumbering: t.exposeBoolean('serialNumbering', { description: 'Certificates carry serial numbers `<prefix><number>`.' }),
    serialPrefix: t.exposeString('serialPrefix', { description: 'Prefix of the serial numbers (0-32 characters).' }),
    nextSerial: t.exposeInt('nextSerial', { description: 'The number the next certificate gets; it only grows.' }),
    validityMonths: t.exposeInt('validityMonths', { nullable: true, description: 'Months a certificate is valid; null: it does not expire.' }),
    title: t.exposeString('title', { nullable: true, description: "The title printed on the certificate; null: the exam's title." }),
  }),
});

builder.prismaObjectFields('Exam', (t) => ({
  settings: t.field({
    type: ExamSettingsType,
    description: 'Its settings (view permission).',
    select: { settings: { select: { values: true } }, quiz: { select: { mode: true } } },
    resolve: (exam, _args, ctx) => settings.settingsOfLoaded(ctx, exam),
  }),
  certificateSettings: t.field({
    type: ExamCertificateSettingsType,
    description: 'Its certificate settings (view permission).',
    select: { certificateSettings: true },
    resolve: (exam) => certificate.certificateSettingsOfLoaded(exam),
  }),
}));

const UpdateExamSettingsInput = builder.inputType('UpdateExamSettingsInput', {
  description: 'Settings to change (modify permission), with the rules of POST exam:settings: only given ones change.',
  fields: (t) => ({
    exam: t.id({ required: true, description: 'The exam.' }),
    nonblocking: t.boolean(),
    pausable: t.boolean(),
    questionless: t.boolean(),
    timelimit: t.string({ description: 'Seconds (0 no limit) or `default` (the Quiz set setting).' }),
    roundtime: t.string({ description: 'Seconds (0 no limit) or `default`; TURNS Quiz sets only.' }),
    freezeRound: t.boolean({ description: 'Managers only.' }),
    archive: t.boolean({ description: 'Managers only.' }),
    grading: t.string({ description: 'A grading preset code, `none` or `default`; not for surveys.' }),
    gradingThreshold: t.float({ description: '0-100, configurable presets only.' }),
    viewResults: t.string({ description: 'after, always, datetime, datetime_blind, manual or none.' }),
    viewResultsStart: t.field({ type: 'DateTime', description: 'Mandatory with the datetime kinds; within the exam period.' }),
    viewResultsIdentifier: t.string({ description: 'Label of a unique free-text field; `none` or empty clears.' }),
    resultsPage: t.boolean(),
    hideIngameResults: t.boolean(),
    hidePoints: t.boolean(),
    hideGrade: t.boolean(),
    showInLasthour: t.boolean(),
    exportFormat: t.string({ description: 'csv or xlsx.' }),
    exportSort: t.string({ description: 'default or name.' }),
    exportStats: t.boolean(),
    exportAnswers: t.boolean(),
    exportPoints: t.boolean(),
    exportSuspicion: t.boolean(),
    exportFinishedOnly: t.boolean(),
    exportCustomFields: t.boolean(),
    exportSkills: t.boolean(),
    exportGender: t.boolean({ description: 'Enabling needs the privileged fields feature.' }),
    exportJourney: t.boolean(),
  }),
});

const ExamSettingsCopyMode = builder.enumType('ExamSettingsCopyMode', {
  values: { REPLACE: { description: 'The complete configuration of the source (PUT exam:settings).' }, FILL: { description: 'Only settings the target has not configured (PATCH exam:settings).' } },
  description: 'How exam settings are copied.',
});

const UpdateExamCertificateSettingsInput = builder.inputType('UpdateExamCertificateSettingsInput', {
  description: 'Certificate settings to change (modify permission): only given ones change.',
  fields: (t) => ({
    exam: t.id({ required: true, description: 'The exam.' }),
    enabled: t.boolean(),
    serialNumbering: t.boolean(),
    serialPrefix: t.string({ description: '0-32 characters.' }),
    nextSerial: t.int({ description: 'Not lower than the current next number.' }),
    validityMonths: t.int({ description: '1-1200 months.' }),
    noExpiry: t.boolean({ description: 'true: certificates do not expire (clears validityMonths).' }),
    title: t.string({ description: 'The title printed on the certificate (1-255); empty: the exam title.' }),
  }),
});

builder.mutationFields((t) => ({
  updateExamSettings: t.field({
    type: ExamType,
    description: mirrorDescription('Changes exam settings (POST exam:settings): a change against a rule of the settings table is refused and changes nothing.', 'POST exam:settings'),
    args: { input: t.arg({ type: UpdateExamSettingsInput, required: true }) },
    resolve: async (_root, args, ctx) => (await settings.updateSettings(ctx, given(args.input))).exam,
  }),
  copyExamSettings: t.field({
    type: ExamType,
    description: 'Copies the settings of a source exam (view permission) to another (modify permission), as PUT (REPLACE) and PATCH (FILL) exam:settings do.',
    args: {
      exam: t.arg.id({ required: true, description: 'The target.' }),
      source: t.arg.id({ required: true, description: 'The source, another exam.' }),
      mode: t.arg({ type: ExamSettingsCopyMode, required: true }),
      keepCertificateSettings: t.arg.boolean({ description: "true keeps the target's certificate settings; false (default) takes the source's." }),
    },
    resolve: async (_root, { mode, ...args }, ctx) => (await settings.copySettings(ctx, given(args), mode === 'REPLACE' ? 'replace' : 'fill')).exam,
  }),
  updateExamCertificateSettings: t.field({
    type: ExamType,
    description: 'Changes the certificate settings of an exam.',
    args: { input: t.arg({ type: UpdateExamCertificateSettingsInput, required: true }) },
    resolve: async (_root, { input: { noExpiry, ...input } }, ctx) => {
      const changes = given(input);
      if (noExpiry) changes.validityMonths = null;
      if (changes.title === '') changes.title = null;
      return (await certificate.updateCertificateSettings(ctx, changes)).exam;
    },
  }),
}));
