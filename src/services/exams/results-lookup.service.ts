import type { Platform } from '../../context.ts';
import type { Exam, ExamBranding, Play } from '../../generated/prisma/client.ts';
import { identifierOf, viewResultsStartOf } from './settings.model.ts';
import { storedSettings } from './settings.service.ts';

/**
 * The self-service results lookup behind `BASE_URL/results/<exam>`: an examinee enters the value
 * of the exam's identifier field (`view_results_identifier`) and sees its own result during the
 * viewing period. No sign-in: the value is the credential, so the answer for a value nobody
 * entered and for a result not viewable yet is the same `none`.
 */

export interface ResultsPage {
  /** With its branding (colour and image), which the page wears. */
  exam: Exam & { branding: ExamBranding | null };
  /** The label of the identifier field, the form's only input. */
  label: string;
  /** The viewing period starts here. */
  start: Date;
}

/** The page of an exam, when it offers one: a live exam of a datetime kind naming a current identifier field. */
export async function resultsPageOf(platform: Pick<Platform, 'db'>, examId: string): Promise<(ResultsPage & { fieldId: string }) | undefined> {
  const exam = await platform.db.exam.findFirst({ where: { id: examId, archived: false }, include: { branding: true } });
  if (!exam) return undefined;
  const settings = await storedSettings(platform.db, exam.id);
  const label = identifierOf(exam.type, settings);
  const start = viewResultsStartOf(exam.type, settings);
  if (!label || !start) return undefined;
  const field = await platform.db.examField.findFirst({ where: { examId: exam.id, label, removedAt: null }, select: { id: true } });
  return field ? { exam, label, start, fieldId: field.id } : undefined;
}

/** The stored branding image of an exam's results page (none without a page: the page is what makes it public). */
export async function resultsPageImage(platform: Pick<Platform, 'db'>, examId: string): Promise<{ contentType: string; data: Uint8Array } | undefined> {
  const fileId = (await resultsPageOf(platform, examId))?.exam.branding?.fileId;
  if (!fileId) return undefined;
  return (await platform.db.storedFile.findUnique({ where: { id: fileId }, select: { contentType: true, data: true } })) ?? undefined;
}

export type Lookup = { found: false } | { found: true; play: Play };

/** The finished, current (not archived) result of the examinee whose identifier value is `value`; its latest attempt. */
export async function lookUpResult(platform: Pick<Platform, 'db'>, page: ResultsPage & { fieldId: string }, value: string, now = new Date()): Promise<Lookup> {
  const entered = value.trim();
  if (!entered || now < page.start) return { found: false };
  const owner = await platform.db.examFieldValue.findFirst({ where: { fieldId: page.fieldId, value: entered }, select: { userId: true } });
  if (!owner) return { found: false };
  const play = await platform.db.play.findFirst({
    where: { examId: page.exam.id, userId: owner.userId, status: 'finished', archived: false },
    orderBy: [{ attempt: 'desc' }, { timeStart: 'desc' }],
  });
  return play ? { found: true, play } : { found: false };
}
