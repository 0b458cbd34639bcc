import { createHash } from 'node:crypto';
import type { Platform } from '../../context.ts';
import type { Prisma, StoredFile } from '../../generated/prisma/client.ts';
import { newId, randomToken } from '../../ids.ts';
import { sha256 } from '../../auth/secrets.ts';

/**
 * Stored files: bytes kept in the database (StoredFile), so they are as durable as the rows that
 * use them, are backed up with them and need no shared disk between instances. Files are small
 * (question media, exports, certificates); MAX_FILE_BYTES bounds each one.
 */

export const MAX_FILE_BYTES = 10 * 1024 * 1024;

type Tx = Prisma.TransactionClient;

export async function storeFile(
  tx: Tx,
  file: { ownerId: string | null; filename: string; contentType: string; data: Uint8Array },
): Promise<StoredFile> {
  return tx.storedFile.create({
    data: {
      id: newId('StoredFile'),
      ownerId: file.ownerId,
      filename: file.filename,
      contentType: file.contentType,
      size: file.data.byteLength,
      sha256: createHash('sha256').update(file.data).digest('hex'),
      data: new Uint8Array(file.data),
    },
  });
}

/** Deletes files; the rows that link them (question media, export links) go with them. */
export async function deleteFiles(tx: Tx, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await tx.storedFile.deleteMany({ where: { id: { in: [...ids] } } });
}

/** A new random link token: what the link carries, its digest to look it up, and a sealed copy to hand the same link out again. */
export function newLinkToken(platform: Pick<Platform, 'secrets'>): { token: string; tokenHash: string; tokenCipher: string } {
  const token = randomToken(40);
  return { token, tokenHash: sha256(token), tokenCipher: platform.secrets.seal(token) };
}

export const fileLink = (platform: Pick<Platform, 'config'>, token: string) => `${platform.config.baseUrl}/files/${token}`;

export type LinkedFile = { status: 'ok'; file: StoredFile } | { status: 'expired' } | { status: 'missing' };

/** The end of the UTC day `days` from now: links are valid until then. */
export function endOfDay(days: number, now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days, 23, 59, 59, 999));
}

/**
 * The file behind a `/files/<token>` link. Links are question export links (QuestionExport) and
 * certificate downloads (CertificateLink); the token itself is the credential, so the page needs
 * no sign-in, and only its digest is stored.
 */
export async function openLinkedFile(platform: Pick<Platform, 'db'>, token: string, now = new Date()): Promise<LinkedFile> {
  const tokenHash = sha256(token);
  const link =
    (await platform.db.questionExport.findUnique({ where: { tokenHash }, include: { file: true } })) ??
    (await platform.db.certificateLink.findUnique({ where: { tokenHash }, include: { file: true } }));
  if (!link) return { status: 'missing' };
  if (link.validUntil <= now) return { status: 'expired' };
  return { status: 'ok', file: link.file };
}
