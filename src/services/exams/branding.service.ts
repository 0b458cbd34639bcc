import type { Context } from '../../context.ts';
import type { Exam, ExamBranding } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import { MAX_FILE_BYTES, deleteFiles, storeFile } from '../files/files.service.ts';
import { sniffType } from '../files/sniff.ts';
import { decodeBase64 } from '../questions/media.ts';
import { findExam } from './access.ts';
import * as s from './exams.schemas.ts';

/**
 * An exam's branding: an image used as logo (foreground) or cover (background) and a colour. The
 * image is base64 content, checked by its real type (PNG, JPEG, WebP; 10 MiB at most) and stored
 * with the files service, or an http(s) URL kept as a reference and never fetched (fetching would
 * let any caller make the service reach arbitrary addresses). An uploaded file part is taken too.
 */

const IMAGE_TYPES = ['png', 'jpeg', 'webp'];
const URL_TEXT = /^https?:\/\/[^\s/?#]+[^\s]*$/i;
const tooLarge = () => new ArgumentError('image', `must be at most ${MAX_FILE_BYTES / 1024 / 1024} MiB`, 'FILE_TOO_LARGE');

type Image = { url: string } | { data: Uint8Array; contentType: string; filename: string };

async function readImage(value: unknown): Promise<Image> {
  let data: Uint8Array;
  let filename = 'branding';
  if (value instanceof Blob) {
    if (value.size > MAX_FILE_BYTES) throw tooLarge();
    data = new Uint8Array(await value.arrayBuffer());
    if (value instanceof File && value.name) filename = value.name.slice(0, 255);
  } else if (typeof value === 'string' && value.trim() !== '') {
    const text = value.trim();
    if (URL_TEXT.test(text)) {
      if (text.length > 2048) throw new ArgumentError('image', 'must have a URL of at most 2048 characters');
      return { url: text };
    }
    data = decodeBase64('image', text);
  } else if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    throw new ArgumentError('image', 'is required', 'MISSING_ARGUMENT');
  } else {
    throw new ArgumentError('image', 'must be base64 image content, an http(s) URL or an uploaded file');
  }
  if (data.byteLength === 0) throw new ArgumentError('image', 'must not be an empty file');
  if (data.byteLength > MAX_FILE_BYTES) throw tooLarge();
  const type = sniffType(data, IMAGE_TYPES);
  if (!type) throw new ArgumentError('image', 'must be a PNG, JPEG or WebP image; the content is not one', 'INVALID_FILE_TYPE');
  return { data, contentType: type.contentType, filename: `${filename.replace(/\.[^.]*$/, '')}.${type.name}` };
}

export interface BrandingView {
  exam: Exam;
  branding: ExamBranding | null;
}

/** The branding of each exam (null: none), in one statement. */
export async function brandingsOf(ctx: Context, examIds: readonly string[]): Promise<Map<string, ExamBranding>> {
  const rows = await ctx.db.examBranding.findMany({ where: { examId: { in: [...examIds] } } });
  return new Map(rows.map((b) => [b.examId, b]));
}

export async function getBranding(ctx: Context, raw: Record<string, unknown>): Promise<BrandingView> {
  const exam = await findExam(ctx, parseInput(s.examRef, raw).exam, 'exam:branding:read');
  return { exam, branding: (await brandingsOf(ctx, [exam.id])).get(exam.id) ?? null };
}

/** Sets the branding (replacing an earlier one and its stored image). */
export async function setBranding(ctx: Context, raw: Record<string, unknown>): Promise<BrandingView> {
  const input = parseInput(s.setBranding, raw);
  const image = await readImage(input.image);
  const exam = await findExam(ctx, input.exam, 'exam:branding:update');
  const branding = await ctx.db.$transaction(async (tx) => {
    const previous = await tx.examBranding.findUnique({ where: { examId: exam.id } });
    const file = 'url' in image ? null : await storeFile(tx, { ownerId: exam.ownerId, ...image });
    const fields = { type: input.type, color: input.color, fileId: file?.id ?? null, imageUrl: 'url' in image ? image.url : null };
    const saved = await tx.examBranding.upsert({ where: { examId: exam.id }, create: { examId: exam.id, ...fields }, update: fields });
    if (previous?.fileId) await deleteFiles(tx, [previous.fileId]);
    await audit(ctx, tx, 'exam.branding.update', exam.id);
    return saved;
  });
  return { exam, branding };
}

/** Removes the branding and its stored image; without one it answers success false. */
export async function deleteBranding(ctx: Context, raw: Record<string, unknown>): Promise<{ exam: Exam; removed: boolean }> {
  const exam = await findExam(ctx, parseInput(s.examRef, raw).exam, 'exam:branding:update');
  const removed = await ctx.db.$transaction(async (tx) => {
    const previous = await tx.examBranding.findUnique({ where: { examId: exam.id } });
    if (!previous) return false;
    await tx.examBranding.delete({ where: { examId: exam.id } });
    if (previous.fileId) await deleteFiles(tx, [previous.fileId]);
    await audit(ctx, tx, 'exam.branding.delete', exam.id);
    return true;
  });
  return { exam, removed };
}
