import { isUtf8 } from 'node:buffer';

/**
 * The text of a request body. Bytes that are not UTF-8 become lone surrogates (U+DC80-U+DCFF, as
 * Python's "surrogateescape" decoding makes them) instead of U+FFFD: the input rules then refuse
 * the argument that holds them, naming it, where U+FFFD would be stored as if the caller had sent
 * it. Well-formed bodies (nearly all) are decoded by Node at once.
 */
export function bodyText(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  // Decoded here into UTF-16 code units in one pass and one allocation: such a body is refused,
  // but read first, and a large one must not hold the event loop (Node's decoder cannot keep the
  // bytes apart). A sequence never yields more units than it has bytes.
  const units = new Uint16Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i]!;
    const length = sequenceLength(bytes, i);
    if (length <= 1) {
      units[n++] = length === 1 ? lead : 0xdc00 | lead;
      i++;
      continue;
    }
    let point = lead & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) point = (point << 6) | (bytes[i + k]! & 0x3f);
    if (point < 0x10000) units[n++] = point;
    else {
      units[n++] = 0xd800 | ((point - 0x10000) >> 10);
      units[n++] = 0xdc00 | ((point - 0x10000) & 0x3ff);
    }
    i += length;
  }
  // UTF-16LE keeps lone surrogates as they are.
  return Buffer.from(units.buffer, 0, n * 2).toString('utf16le');
}

/**
 * The text of bytes that declare their charset (a multipart part's `charset`, a parameter's
 * `name*=latin1''…`), decoded as the Encoding Standard (browsers, TextDecoder) reads that label; no
 * charset, or any label of UTF-8, reads as bodyText. Bytes that cannot be read in the charset they
 * declare (a label no decoder knows, a sequence invalid in it) become a lone surrogate each, as
 * bodyText keeps bytes that are not UTF-8: the input rules refuse the argument instead of it being
 * stored with U+FFFD in their place. A byte order mark is content, kept as sent.
 */
export function declaredText(bytes: Buffer, charset: string | undefined): string {
  if (charset === undefined) return bodyText(bytes);
  try {
    const decoder = new TextDecoder(charset, { fatal: true, ignoreBOM: true });
    return decoder.encoding === 'utf-8' ? bodyText(bytes) : decoder.decode(bytes);
  } catch {
    return Buffer.from(Uint16Array.from(bytes, (byte) => 0xdc00 | byte).buffer).toString('utf16le');
  }
}

/** The length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlong forms, no surrogates), or 0. */
function sequenceLength(bytes: Buffer, i: number): number {
  const lead = bytes[i]!;
  if (lead < 0x80) return 1;
  if (lead < 0xc2 || lead > 0xf4) return 0;
  const length = lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
  if (i + length > bytes.length) return 0;
  // The second byte's range narrows where the lead alone would allow overlong forms, surrogates or code points past U+10FFFF.
  const second = bytes[i + 1]!;
  const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
  const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
  if (second < low || second > high) return 0;
  for (let k = 2; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return 0;
  return length;
}
