import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { ok } from '../helpers/quiz-seed.ts';
import { newExam } from '../helpers/exam-settings-seed.ts';
import { seed } from '../helpers/seed.ts';
import { copyExamSettings } from '../../src/services/exams/settings-copy.ts';
import { updateCertificateSettings } from '../../src/services/exams/certificate.service.ts';
import { newId } from '../../src/ids.ts';

/**
 * The copy POST `exam` with `copy_settings` makes inside the transaction that creates the exam
 * (the route belongs to the exam records part; this drives the function it calls, and reads the
 * outcome through HTTP).
 */

let t: TestApp;
let me: Caller;
beforeAll(async () => {
  t = await createTestApp();
  me = await t.newCaller('copy-new');
});
afterAll(async () => t?.close());

async function createWithCopy(source: string, keepCertificateSettings: boolean, type = 'exam') {
  const ctx = await seed(t).as(me).ctx();
  const sourceExam = await t.db.prisma.exam.findUniqueOrThrow({ where: { id: source } });
  return t.db.prisma.$transaction(async (tx) => {
    // The new exam written in the test's own transaction, as POST exam writes it: the copy is what is under test.
    const target = await tx.exam.create({
      data: { id: newId('Exam'), title: 'Copy', language: 'en', quizId: sourceExam.quizId, ownerId: me.user.id, type, start: sourceExam.start, end: sourceExam.end },
    });
    await copyExamSettings(tx, ctx, { source: sourceExam, target, keepCertificateSettings });
    return target.id;
  });
}

describe('copyExamSettings (POST exam with copy_settings)', () => {
  it('copies the settings like PUT; certificate settings only with keep_certificate_settings', async () => {
    const source = await newExam(t, me, { mode: 'TURNS' });
    await ok(t, 'POST', 'exam:fields', { exam: source, fields: JSON.stringify([{ label: 'Code', unique: true }]) }, me);
    await ok(t, 'POST', 'exam:settings', {
      exam: source, roundtime: 40, archive: true, freeze_round: true, questionless: true, export_format: 'csv',
      view_results: 'datetime', view_results_start: new Date(Date.now() + 3600_000).toISOString().slice(0, 19).replace('T', ' '), view_results_identifier: 'Code',
    }, me);
    await updateCertificateSettings(await seed(t).as(me).ctx(), { exam: source, enabled: true, serialPrefix: 'S-', nextSerial: 50, validityMonths: 6 });

    const without = await createWithCopy(source, false);
    const read = await ok(t, 'GET', 'exam:settings', { exam: without }, me);
    // Rounds are the exam's own, fields are not settings: freezing and the identifier stay behind.
    expect(read).toMatchObject({ roundtime: 40, archive: true, freeze_round: false, questionless: true, export_format: 'csv', view_results: 'datetime' });
    expect(read).not.toHaveProperty('view_results_identifier');
    expect(await t.db.prisma.examCertificateSettings.findUnique({ where: { examId: without } })).toBeNull();

    const withCertificate = await createWithCopy(source, true);
    expect(await t.db.prisma.examCertificateSettings.findUniqueOrThrow({ where: { examId: withCertificate } })).toMatchObject({ enabled: true, serialPrefix: 'S-', nextSerial: 1, validityMonths: 6 });

    const survey = await createWithCopy(source, false, 'survey');
    expect(await ok(t, 'GET', 'exam:settings', { exam: survey }, me)).toEqual({
      exam: survey, nonblocking: true, pausable: false, questionless: false, timelimit: null, roundtime: 40,
      freeze_round: false, archive: true, export_format: 'csv', export_sort: 'default',
    });
  });
});
