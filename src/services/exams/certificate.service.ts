import { z } from 'zod';
import type { Context } from '../../context.ts';
import type { Exam, ExamCertificateSettings, Prisma } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { audit } from '../audit/audit.service.ts';
import { bool, code, int, parseInput, text } from '../validation.ts';
import { findExam } from './access.ts';

/**
 * Certificate settings of an exam (the contract shows none; GraphQL reads and changes them):
 * whether certificates are issued, serial numbering (`<prefix><number>`, the number the next
 * certificate gets), validity in months (none: no expiry) and the title printed on it (none: the
 * exam's title). Serial numbers never repeat: the next number only grows.
 */

export type CertificateView = Pick<ExamCertificateSettings, 'enabled' | 'serialNumbering' | 'serialPrefix' | 'nextSerial' | 'validityMonths' | 'title'>;

/** No row: certificates off, no numbering, no expiry, the exam's title. */
const unconfigured: CertificateView = { enabled: false, serialNumbering: false, serialPrefix: '', nextSerial: 1, validityMonths: null, title: null };

const view = (row: ExamCertificateSettings | null): CertificateView =>
  row ? { enabled: row.enabled, serialNumbering: row.serialNumbering, serialPrefix: row.serialPrefix, nextSerial: row.nextSerial, validityMonths: row.validityMonths, title: row.title } : unconfigured;

/** null or empty removes (no expiry; the exam's title). */
const removable = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' || v === 'none' ? null : v), schema.nullable());

const updateInput = z.object({
  exam: code(),
  enabled: bool().optional(),
  serialNumbering: bool().optional(),
  serialPrefix: text(0, 32).optional(),
  nextSerial: int(1, 999_999_999).optional(),
  validityMonths: removable(int(1, 1200)).optional(),
  title: removable(text(1, 255)).optional(),
});

/** From the row loaded with the exam (GraphQL's `Exam.certificateSettings` selects it). */
export const certificateSettingsOfLoaded = (exam: { certificateSettings: ExamCertificateSettings | null }): CertificateView => view(exam.certificateSettings);

export async function certificateSettingsOf(ctx: Context, exam: Pick<Exam, 'id'>): Promise<CertificateView> {
  return view(await ctx.db.examCertificateSettings.findUnique({ where: { examId: exam.id } }));
}

export async function updateCertificateSettings(ctx: Context, raw: Record<string, unknown>): Promise<{ exam: Exam; certificate: CertificateView }> {
  const { exam: examCode, ...change } = parseInput(updateInput, raw);
  const exam = await findExam(ctx, examCode, 'exam:certificate:update');
  const current = await certificateSettingsOf(ctx, exam);
  if (change.nextSerial !== undefined && change.nextSerial < current.nextSerial) {
    throw new ArgumentError('nextSerial', `must not be lower than the current next number (${current.nextSerial}): serial numbers never repeat`, 'ARGUMENT_CONFLICT');
  }
  const data = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) as Partial<CertificateView>;
  const row = await ctx.db.$transaction(async (tx) => {
    const saved = await tx.examCertificateSettings.upsert({ where: { examId: exam.id }, create: { examId: exam.id, ...data }, update: data });
    await audit(ctx, tx, 'exam.certificate.update', exam.id);
    return saved;
  });
  return { exam, certificate: view(row) };
}

/**
 * The source's certificate settings for the target: `replace` takes them (none when the source has
 * none), `fill` only when the target has none. The target keeps its own next serial number, so
 * its serial numbers never repeat.
 */
export async function copyCertificateSettings(tx: Prisma.TransactionClient, sourceId: string, targetId: string, mode: 'replace' | 'fill'): Promise<void> {
  const [source, target] = await Promise.all([
    tx.examCertificateSettings.findUnique({ where: { examId: sourceId } }),
    tx.examCertificateSettings.findUnique({ where: { examId: targetId } }),
  ]);
  if (mode === 'fill' && target) return;
  if (!source && !target) return;
  const { nextSerial: _, ...copy } = source ? view(source) : unconfigured;
  await tx.examCertificateSettings.upsert({ where: { examId: targetId }, create: { examId: targetId, ...copy }, update: copy });
}
