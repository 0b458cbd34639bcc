import type { Context } from '../../context.ts';
import type { Exam, Prisma } from '../../generated/prisma/client.ts';

/**
 * Copies the settings of `source` to a new exam `target` inside the transaction that creates it
 * (POST `exam` with `copy_settings`); `keepCertificateSettings` true also copies the source's
 * certificate settings, false starts without.
 */
// The exam settings part fills this in; until then a new exam starts with unconfigured settings.
export async function copyExamSettings(
  _tx: Prisma.TransactionClient,
  _ctx: Context,
  _copy: { source: Exam; target: Exam; keepCertificateSettings: boolean },
): Promise<void> {}
