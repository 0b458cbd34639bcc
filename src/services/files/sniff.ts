/**
 * The real type of uploaded bytes, read from their first bytes ("magic numbers"), never from the
 * file name or a declared type: a question's image must be an image whatever it is called.
 */

export interface FileType {
  /** Short name used in messages and by the media rules: png, jpeg, webp, mp3, aac, m4a, mp4, webm. */
  name: string;
  contentType: string;
}

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** The brand of an ISO base media file ('ftyp' box at offset 4), or null. */
function ftypBrand(bytes: Uint8Array): string | null {
  return ascii(bytes, 4, 'ftyp') && bytes.length >= 12 ? String.fromCharCode(...bytes.subarray(8, 12)) : null;
}

/**
 * MPEG audio frame sync: 11 set bits (FF Ex / FF Fx). The two layer bits tell MP3 (layer I-III,
 * not 00) from AAC in ADTS framing (layer 00, FF F1 for MPEG-4 or FF F9 for MPEG-2).
 */
function frameSync(bytes: Uint8Array): 'mpeg' | 'adts' | null {
  if (bytes.length < 2 || bytes[0] !== 0xff || (bytes[1]! & 0xe0) !== 0xe0) return null;
  const layer = (bytes[1]! >> 1) & 0b11;
  if (layer !== 0) return 'mpeg';
  return (bytes[1]! & 0xf6) === 0xf0 ? 'adts' : null;
}

const AUDIO_BRANDS = new Set(['M4A ', 'M4B ', 'mp42', 'isom']);
const VIDEO_BRANDS = new Set(['isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'M4V ', 'qt  ', 'dash']);

const SIGNATURES: Array<FileType & { test(bytes: Uint8Array): boolean }> = [
  { name: 'png', contentType: 'image/png', test: (b) => ascii(b, 0, '\x89PNG\r\n\x1a\n') },
  { name: 'jpeg', contentType: 'image/jpeg', test: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { name: 'webp', contentType: 'image/webp', test: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP') },
  { name: 'mp3', contentType: 'audio/mpeg', test: (b) => ascii(b, 0, 'ID3') || frameSync(b) === 'mpeg' },
  { name: 'aac', contentType: 'audio/aac', test: (b) => frameSync(b) === 'adts' },
  { name: 'm4a', contentType: 'audio/mp4', test: (b) => AUDIO_BRANDS.has(ftypBrand(b) ?? '') },
  { name: 'mp4', contentType: 'video/mp4', test: (b) => VIDEO_BRANDS.has(ftypBrand(b) ?? '') },
  { name: 'webm', contentType: 'video/webm', test: (b) => b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3 },
  { name: 'pdf', contentType: 'application/pdf', test: (b) => ascii(b, 0, '%PDF-') },
];

/**
 * The first of the `allowed` types (by name) the bytes are, or null. Some containers fit two
 * names (an 'isom' MP4 file may hold audio or video), so the caller says which it expects.
 */
export function sniffType(bytes: Uint8Array, allowed: readonly string[]): FileType | null {
  const hit = SIGNATURES.find((s) => allowed.includes(s.name) && s.test(bytes));
  return hit ? { name: hit.name, contentType: hit.contentType } : null;
}

/** Any known type, else generic bytes: for fields that accept every kind of file. */
export function sniffAny(bytes: Uint8Array): FileType {
  return sniffType(bytes, SIGNATURES.map((s) => s.name)) ?? { name: 'binary', contentType: 'application/octet-stream' };
}
