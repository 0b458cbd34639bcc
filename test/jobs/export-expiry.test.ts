import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { runDue } from '../../src/jobs/run.ts';
import { asSystem } from '../../src/jobs/system.ts';
import { expireQuestionExport } from '../../src/services/questions/export.ts';

/** Question export links are removed with their files by a job at the end of their validity. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

it('an export schedules its own removal at the end of its validity, which removes the link and its file', async () => {
  const created = await t.rpc('POST', 'question', { id: 'expiring', type: 'generic', content: 'What?', answer: 'This', path: '/Exp' });
  expect(created.status).toBe(200);
  const question = created.body.question as string;
  const r = await t.rpc('POST', 'question:export', { id: 'expiring', path: '/Exp' });
  expect(r.status).toBe(200);
  const link = await t.db.prisma.questionExport.findFirstOrThrow({ where: { questionId: question } });
  const job = await t.db.prisma.job.findFirstOrThrow({ where: { task: 'questions.expire-export', dedupeKey: link.id } });
  expect(job).toMatchObject({ status: 'pending', payload: { export: link.id } });
  expect(job.runAt).toEqual(link.validUntil);

  const system = asSystem(t.platform);
  // Not before its time.
  expect(await runDue(system, [expireQuestionExport])).toEqual([]);
  expect(await t.db.prisma.questionExport.count({ where: { id: link.id } })).toBe(1);

  // At its time: the link and its file go, and the link answers 404.
  await t.db.prisma.questionExport.update({ where: { id: link.id }, data: { validUntil: new Date(Date.now() - 1000) } });
  await t.db.prisma.job.update({ where: { id: job.id }, data: { runAt: new Date() } });
  expect((await runDue(system, [expireQuestionExport])).map((o) => o.status)).toEqual(['completed']);
  expect(await t.db.prisma.questionExport.count({ where: { id: link.id } })).toBe(0);
  expect(await t.db.prisma.storedFile.count({ where: { id: link.fileId } })).toBe(0);
  expect((await t.app.fetch(new Request(r.body.url))).status).toBe(404);
  expect(await t.db.prisma.job.count({ where: { id: job.id } })).toBe(0);
});
