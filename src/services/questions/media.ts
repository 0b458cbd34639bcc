import { ArgumentError } from '../../errors.ts';
import { MAX_FILE_BYTES } from '../files/files.service.ts';
import { sniffAny, sniffType } from '../files/sniff.ts';
import type { QuestionType } from './answer-checker.ts';
import { MEDIA_FIELDS, acceptedTypes, type MediaField } from './media-fields.ts';

/**
 * Media fields of POST `question`: `<filename>=<data>`, data being base64 content or an http(s)
 * URL, or an uploaded file part of a multipart form (its own name is the filename). Content is
 * checked by its real type (magic bytes), never by its name. URLs are kept as references and not
 * fetched: fetching would let any caller make the service reach arbitrary addresses.
 */

const ONLY_FOR: Partial<Record<MediaField, QuestionType>> = { hotspotImage: 'hotspot' };

export type MediaValue =
  | { field: string; filename: string; url: string }
  | { field: string; filename: string; data: Uint8Array; contentType: string };

const URL_TEXT = /^https?:\/\/[^\s/?#]+[^\s]*$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$|^[A-Za-z0-9_-]*={0,2}$/;

function checkFilename(field: string, filename: string): string {
  const name = filename.trim();
  if (name === '' || name.length > 255 || /[/\\\u0000-\u001f\u007f]/.test(name)) {
    throw new ArgumentError(field, "must be '<filename>=<base64 data or URL>' with a file name of 1-255 characters, without '/' or '\\'");
  }
  return name;
}

function checkContent(field: MediaField, filename: string, data: Uint8Array): MediaValue {
  if (data.byteLength === 0) throw new ArgumentError(field, 'must not be an empty file');
  if (data.byteLength > MAX_FILE_BYTES) throw new ArgumentError(field, `must be at most ${MAX_FILE_BYTES / 1024 / 1024} MiB`, 'FILE_TOO_LARGE');
  const allowed: readonly string[] | null = MEDIA_FIELDS[field];
  const type = allowed === null ? sniffAny(data) : sniffType(data, allowed);
  if (!type) throw new ArgumentError(field, `must be a ${acceptedTypes(field)} file; the content is not one`, 'INVALID_FILE_TYPE');
  return { field, filename, data, contentType: type.contentType };
}

/** Decodes base64 (standard or URL-safe; line breaks allowed; a `data:…;base64,` prefix dropped). */
export function decodeBase64(field: string, text: string): Uint8Array {
  // Spaces are '+' signs a form encoder left unescaped; line breaks are wrapping.
  const body = text.replace(/^data:[^,]*;base64,/i, '').replace(/[\r\n\t]/g, '').replace(/ /g, '+');
  if (!BASE64.test(body) || body.length % 4 === 1) throw new ArgumentError(field, 'must hold base64 content or an http(s) URL after the file name');
  // Checked before decoding, so an oversized upload is not decoded at all.
  if (Math.floor((body.length * 3) / 4) > MAX_FILE_BYTES + 2) {
    throw new ArgumentError(field, `must be at most ${MAX_FILE_BYTES / 1024 / 1024} MiB`, 'FILE_TOO_LARGE');
  }
  return new Uint8Array(Buffer.from(body, 'base64'));
}

async function readOne(field: MediaField, value: unknown): Promise<MediaValue> {
  if (value instanceof Blob) {
    const filename = checkFilename(field, value instanceof File ? value.name : '');
    if (value.size > MAX_FILE_BYTES) throw new ArgumentError(field, `must be at most ${MAX_FILE_BYTES / 1024 / 1024} MiB`, 'FILE_TOO_LARGE');
    return checkContent(field, filename, new Uint8Array(await value.arrayBuffer()));
  }
  if (typeof value !== 'string') throw new ArgumentError(field, "must be '<filename>=<base64 data or URL>' or an uploaded file");
  const at = value.indexOf('=');
  if (at < 0) throw new ArgumentError(field, "must be '<filename>=<base64 data or URL>'");
  const filename = checkFilename(field, value.slice(0, at));
  const content = value.slice(at + 1).trim();
  if (URL_TEXT.test(content)) {
    if (content.length > 2048) throw new ArgumentError(field, 'must have a URL of at most 2048 characters');
    return { field, filename, url: content };
  }
  return checkContent(field, filename, decodeBase64(field, content));
}

/** The media fields given in the parsed input (camelCase keys); blank ones are not given. */
export async function readMedia(input: Partial<Record<MediaField, unknown>>, type: QuestionType): Promise<MediaValue[]> {
  const out: MediaValue[] = [];
  for (const field of Object.keys(MEDIA_FIELDS) as MediaField[]) {
    const value = input[field];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) continue;
    const only = ONLY_FOR[field];
    if (only && only !== type) throw new ArgumentError(field, `applies to type ${only} only`, 'ARGUMENT_CONFLICT');
    out.push(await readOne(field, value));
  }
  return out;
}

/** The contract form of a media value, for exports: `<filename>=<URL or base64>`. */
export const mediaText = (filename: string, content: string | Uint8Array) =>
  `${filename}=${typeof content === 'string' ? content : Buffer.from(content).toString('base64')}`;
