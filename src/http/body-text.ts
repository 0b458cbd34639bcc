import { isUtf8 } from 'node:buffer';

/**
 * The text of a request body. Bytes that are not UTF-8 become lone surrogates (U+DC80-U+DCFF, as
 * Python's "surrogateescape" decoding makes them) instead of U+FFFD: the input rules then refuse
 * the argument that holds them, naming it, where U+FFFD would be stored as if the caller had sent
 * it. Well-formed bodies (nearly all) are decoded by Node at once.
 */
export function bodyText(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let text = '';
  let start = 0;
  for (let i = 0; i < bytes.length; ) {
    const length = sequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    text += bytes.toString('utf8', start, i) + String.fromCharCode(0xdc00 | bytes[i]!);
    start = ++i;
  }
  return text + bytes.toString('utf8', start);
}

/** The length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlong forms, no surrogates), or 0. */
function sequenceLength(bytes: Buffer, i: number): number {
  const lead = bytes[i]!;
  if (lead < 0x80) return 1;
  const next = (k: number, low = 0x80, high = 0xbf) => i + k < bytes.length && bytes[i + k]! >= low && bytes[i + k]! <= high;
  if (lead >= 0xc2 && lead <= 0xdf) return next(1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    const [low, high] = lead === 0xe0 ? [0xa0, 0xbf] : lead === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return next(1, low, high) && next(2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const [low, high] = lead === 0xf0 ? [0x90, 0xbf] : lead === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return next(1, low, high) && next(2) && next(3) ? 4 : 0;
  }
  return 0;
}
