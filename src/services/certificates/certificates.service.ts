import { z } from 'zod';
import type { Context } from '../../context.ts';
import type { Certificate, Exam, GradingPreset, Play, Prisma, QuizSet } from '../../generated/prisma/client.ts';
import { can, denied } from '../../auth/policy.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { SystemContext } from '../../jobs/system.ts';
import { defineTask } from '../../jobs/task.ts';
import { date } from '../../dates.ts';
import { audit } from '../audit/audit.service.ts';
import { unknownContent } from '../content/records.ts';
import { findExam } from '../exams/access.ts';
import { examRef } from '../exams/exams.schemas.ts';
import { deleteFiles, endOfDay, fileLink, newLinkToken, storeFile } from '../files/files.service.ts';
import { decidesSuccess } from '../grading/grades.ts';
import { examRules, gradingPresetOf } from '../plays/exam-rules.ts';
import { examResults as examUser } from '../plays/plays.schemas.ts';
import { isValid } from '../plays/result-record.ts';
import { assertMayList } from '../plays/results.service.ts';
import type { Selection } from '../selection.ts';
import { parseInput } from '../validation.ts';

/**
 * Certificates of exam results. A result qualifies (is eligible) when the exam's grading preset
 * decides success (`certificates` true), the exam's certificate settings are enabled, and the result
 * is valid (finished, evaluated, not archived) and successful. A qualifying result is certified when
 * its play settles (the finish, or the manual grade that evaluates its last answer) and by POST
 * `exam:certificates`. One certificate per play: it keeps its serial, title, grade, issue and expiry
 * as they were at issue. Serial numbers are taken from the exam's `nextSerial` by an increment in the
 * transaction that issues, so concurrent finishes never share one.
 */

type Tx = Prisma.TransactionClient;
type ExamWithQuiz = Exam & { quiz: QuizSet };

/** The preset tells passed from failed, so its results can be certified. */
export const certifies = (preset: Pick<GradingPreset, 'type' | 'successfulAll'> | null): boolean => preset !== null && decidesSuccess(preset.type, preset.successfulAll);

/** `months` calendar months after `from` (UTC), on the last day of a shorter month. */
function addMonths(from: Date, months: number): Date {
  const target = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + months, 1, from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return target;
}

/**
 * Certifies a play of `exam` (the caller holds the play's lock and knows it qualifies) unless it
 * is certified already or the exam's certificates are off. The serial number comes from the
 * increment of the settings row, which holds that row until the transaction ends.
 */
async function issue(tx: Tx, play: Play, exam: Exam, now: Date): Promise<Certificate | null> {
  if (!play.userId) return null;
  if (await tx.certificate.findUnique({ where: { playId: play.id }, select: { id: true } })) return null;
  let settings = await tx.examCertificateSettings.findUnique({ where: { examId: exam.id } });
  if (!settings?.enabled) return null;
  let serial: string | null = null;
  if (settings.serialNumbering) {
    settings = await tx.examCertificateSettings.update({ where: { examId: exam.id }, data: { nextSerial: { increment: 1 } } });
    serial = `${settings.serialPrefix}${settings.nextSerial - 1}`;
  }
  return tx.certificate.create({
    data: {
      id: newId('Certificate'),
      examId: exam.id,
      playId: play.id,
      userId: play.userId,
      serial,
      title: settings.title ?? exam.title,
      grade: play.grade,
      issuedAt: now,
      expiresAt: settings.validityMonths ? addMonths(now, settings.validityMonths) : null,
    },
  });
}

/** A valid successful exam result (the grading's own part of eligibility). */
const qualifies = (play: Play) => play.examId !== null && isValid(play) && play.successful === true;

/**
 * Called by settlePlay in the transaction that settles a play (its lock held): certifies the play
 * when it qualifies under the preset that graded it.
 */
export async function certifySettled(tx: Tx, play: Play & { exam: Exam | null }, preset: GradingPreset | null): Promise<void> {
  if (!play.exam || !certifies(preset) || !qualifies(play)) return;
  await issue(tx, play, play.exam, new Date());
}

/** The preset grading the exam's results now; null when the grading is none or a bare threshold. */
async function presetOf(ctx: Context, exam: ExamWithQuiz): Promise<GradingPreset | null> {
  const [rules] = await examRules(ctx.db, [exam]);
  return gradingPresetOf(ctx.db, rules!);
}

export interface CertificateDetails {
  exam: Exam;
  play: Play;
  user: string;
  archived: boolean;
  eligible: boolean;
  /** The play's certificate; null when it has none. */
  certificate: Certificate | null;
}

/**
 * GET exam:certificates:user: the user's latest certificate of the exam with its play; without one, the user's latest finished
 * result (archived ones included), whose `eligible` tells whether it qualifies now. Reading needs
 * report on the exam, or being the user; a user without a finished result has nothing to show, and
 * to a caller asking for itself about an exam it may not view, the exam is unknown.
 */
export async function getCertificateDetails(ctx: Context, raw: Record<string, unknown>): Promise<CertificateDetails> {
  const input = parseInput(examUser, raw);
  const found = await ctx.db.exam.findFirst({ where: { id: input.exam, archived: false }, include: { quiz: true } });
  await assertMayList(ctx, 'exam', found, input.exam, input.user);
  const exam = found!;
  const held = await ctx.db.certificate.findFirst({ where: { examId: exam.id, userId: input.user }, orderBy: [{ issuedAt: 'desc' }, { id: 'desc' }], include: { play: true } });
  const play =
    held?.play ??
    (await ctx.db.play.findFirst({
      where: { examId: exam.id, userId: input.user, status: 'finished' },
      orderBy: [{ round: 'desc' }, { attempt: 'desc' }, { timeStart: 'desc' }, { id: 'desc' }],
    }));
  if (!play) {
    // Asking for oneself about an exam one neither played nor may view: it stays unknown.
    if (input.user === ctx.viewer.user.id && !(await can(ctx, 'exam:read', exam))) throw unknownContent('exam', input.exam);
    throw new ArgumentError('user', `user '${input.user}' has no finished result in exam '${input.exam}'`, 'NOT_FOUND');
  }
  const [settings, preset] = await Promise.all([ctx.db.examCertificateSettings.findUnique({ where: { examId: exam.id } }), presetOf(ctx, exam)]);
  const eligible = (settings?.enabled ?? false) && certifies(preset) && qualifies(play);
  let certificate: Certificate | null = null;
  if (held) {
    const { play: _play, ...own } = held;
    certificate = own;
  }
  return { exam, play, user: input.user, archived: play.archived, eligible, certificate };
}

/** Days a download link stays valid: until the end of that UTC day. */
const LINK_DAYS = 7;

export interface CertificateLinkView {
  play: Play;
  user: string;
  certificate: Certificate;
  url: string;
  valid: Date;
}

/**
 * POST exam:certificates:user:download: a link to the PDF of the user's latest certificate (the
 * one GET exam:certificates:user shows), readable without credentials until the end of its `valid`
 * day; while one is valid it is handed out again. The PDF prints the user's name as it is when the
 * link is made.
 */
export async function downloadCertificate(ctx: Context, raw: Record<string, unknown>): Promise<CertificateLinkView> {
  const details = await getCertificateDetails(ctx, raw);
  const certificate = details.certificate;
  if (!certificate) throw new PermissionError(`User '${details.user}' holds no certificate of this exam`, 'NOT_CERTIFIED');
  const view = (token: string, valid: Date): CertificateLinkView => ({ play: details.play, user: details.user, certificate, url: fileLink(ctx, token), valid });
  const validLink = (db: Tx | Context['db']) => db.certificateLink.findFirst({ where: { certificateId: certificate.id, validUntil: { gt: new Date() } }, orderBy: { validUntil: 'desc' } });
  const current = await validLink(ctx.db);
  if (current) return view(ctx.secrets.open(current.tokenCipher), current.validUntil);

  const user = await ctx.db.user.findUniqueOrThrow({ where: { id: certificate.userId }, select: { fullName: true, username: true } });
  // The PDF library is loaded on the first download, not at start (start-up time and memory).
  const { renderCertificate } = await import('./pdf.ts');
  const pdf = await renderCertificate({
    name: user.fullName.trim() || user.username,
    title: certificate.title,
    grade: certificate.grade,
    issued: date(certificate.issuedAt),
    serial: certificate.serial,
    expires: date(certificate.expiresAt),
  });
  const { token, tokenHash, tokenCipher } = newLinkToken(ctx);
  const validUntil = endOfDay(LINK_DAYS);
  return ctx.db.$transaction(async (tx) => {
    // One link at a time: a download made meanwhile is handed out instead of a second one.
    await tx.$queryRaw`SELECT id FROM "Certificate" WHERE id = ${certificate.id} FOR UPDATE`;
    const made = await validLink(tx);
    if (made) return view(ctx.secrets.open(made.tokenCipher), made.validUntil);
    const expired = await tx.certificateLink.findMany({ where: { certificateId: certificate.id }, select: { fileId: true } });
    await deleteFiles(tx, expired.map((l) => l.fileId));
    const file = await storeFile(tx, { ownerId: ctx.viewer.user.id, filename: `certificate-${certificate.serial ?? certificate.id}.pdf`, contentType: 'application/pdf', data: pdf });
    const link = await tx.certificateLink.create({ data: { id: newId('CertificateLink'), certificateId: certificate.id, tokenHash, tokenCipher, fileId: file.id, validUntil } });
    await enqueue(tx, expireCertificateLink, { link: link.id }, { runAt: validUntil, dedupeKey: link.id });
    await audit(ctx, tx, 'exam.certificate.download', certificate.id);
    return view(token, validUntil);
  });
}

/** Removes a download link and its PDF once the link has expired (a newer download may have removed it already). */
export const expireCertificateLink = defineTask('certificates.expire-link', z.object({ link: z.string() }), async (ctx: SystemContext, { link: id }) => {
  await ctx.db.$transaction(async (tx) => {
    const link = await tx.certificateLink.findUnique({ where: { id }, select: { fileId: true, validUntil: true } });
    if (link && link.validUntil <= new Date()) await deleteFiles(tx, [link.fileId]);
  });
});

export interface IssuedCertificates {
  exam: Exam;
  /** Issued by this call, in the order of their serial numbers. */
  issued: Certificate[];
}

/**
 * POST exam:certificates: certifies every qualifying result of the exam not certified yet (every
 * round; archived results do not qualify), in the order the results were finished, so serial
 * numbers follow that order. Control on the exam, like grading and archiving its results. Refused
 * while the exam's certificates are off or its grading decides nothing, so an owner learns why
 * nothing was issued. A second call issues nothing new.
 */
export async function issueCertificates(ctx: Context, raw: Record<string, unknown>): Promise<IssuedCertificates> {
  const { exam: code } = parseInput(examRef, raw);
  const exam = (await findExam(ctx, code, 'exam:certificates:issue', 'exam', { include: { quiz: true } })) as ExamWithQuiz;
  const [settings, preset] = await Promise.all([ctx.db.examCertificateSettings.findUnique({ where: { examId: exam.id } }), presetOf(ctx, exam)]);
  if (!settings?.enabled) throw new PermissionError("Certificates are not enabled for this exam (its certificate settings' enabled is off)", 'CERTIFICATES_DISABLED');
  if (!certifies(preset)) throw new PermissionError("The exam's grading does not decide success (no grading preset with certificates), so its results cannot be certified", 'GRADING_NOT_CERTIFYING');
  return ctx.db.$transaction(async (tx) => {
    const candidates = await tx.play.findMany({
      where: { examId: exam.id, userId: { not: null }, status: 'finished', evaluated: true, archived: false, successful: true, certificate: null },
      orderBy: [{ timeEnd: 'asc' }, { id: 'asc' }],
      select: { id: true },
    });
    const ids = candidates.map((p) => p.id);
    if (ids.length === 0) return { exam, issued: [] };
    // The plays' locks, in one order, as a finish or a grade takes them: nothing settles them meanwhile.
    await tx.$queryRaw`SELECT id FROM "Play" WHERE id = ANY(${ids}::text[]) ORDER BY id FOR UPDATE`;
    const plays = new Map((await tx.play.findMany({ where: { id: { in: ids } } })).map((p) => [p.id, p]));
    const now = new Date();
    const issued: Certificate[] = [];
    for (const id of ids) {
      const play = plays.get(id);
      if (!play || !qualifies(play)) continue;
      const certificate = await issue(tx, play, exam, now);
      if (certificate) issued.push(certificate);
    }
    await audit(ctx, tx, 'exam.certificates.issue', exam.id);
    return { exam, issued };
  });
}

/** An exam's certificates for GraphQL (report on the exam), newest first; `query` carries the caller's selection. */
export async function examCertificates<S extends Selection<'Certificate'>>(
  ctx: Context,
  exam: Exam,
  filters: { user?: string | null },
  query: S & { take?: number; skip?: number; cursor?: Prisma.CertificateWhereUniqueInput },
) {
  if (!(await can(ctx, 'exam:certificates:read', exam))) throw denied('exam:certificates:read');
  return ctx.db.certificate.findMany({ ...query, where: { examId: exam.id, ...(filters.user ? { userId: filters.user } : {}) }, orderBy: [{ issuedAt: 'desc' }, { id: 'desc' }] });
}
