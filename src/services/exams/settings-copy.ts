import type { Context } from '../../context.ts';
import type { Exam, Prisma } from '../../generated/prisma/client.ts';
import { copyIntoNewExam } from './settings.service.ts';

/**
 * Copies the settings of `source` to a new exam `target` inside the transaction that creates it
 * (POST `exam` with `copy_settings`); `keepCertificateSettings` true also copies the source's
 * certificate settings, false starts without.
 */
export async function copyExamSettings(
  tx: Prisma.TransactionClient,
  ctx: Context,
  copy: { source: Exam; target: Exam; keepCertificateSettings: boolean },
): Promise<void> {
  await copyIntoNewExam(tx, ctx, copy);
}
