import { describe, expect, it } from 'vitest';
import { bodyText } from '../../src/http/body-text.ts';

/** A body's bytes as text: well-formed UTF-8 as it is, every other byte a lone surrogate U+DC00 + byte. */
describe('bodyText', () => {
  const wellFormed = 'héllo € 𝄞 日本 \u0080\u07ff\u0800\uffff\u{10000}\u{10ffff}';

  it('decodes well-formed UTF-8 as Node does', () => {
    expect(bodyText(Buffer.from(wellFormed))).toBe(wellFormed);
  });

  it('keeps every byte that is not UTF-8 as U+DC00 + byte, and the text around it as it is', () => {
    const bytes = (...b: number[]) => Buffer.from(b);
    const cases: [Buffer, string][] = [
      [bytes(0x80), '\udc80'], // a lone continuation byte
      [bytes(0xc0, 0xaf), '\udcc0\udcaf'], // an overlong "/"
      [bytes(0xed, 0xa0, 0x80), '\udced\udca0\udc80'], // a surrogate encoded as if it were a character
      [bytes(0xf4, 0x90, 0x80, 0x80), '\udcf4\udc90\udc80\udc80'], // past U+10FFFF
      [bytes(0xe2, 0x82), '\udce2\udc82'], // a truncated sequence at the end
      [bytes(0xe2, 0x82, 0x41), '\udce2\udc82A'], // ... and before an ASCII byte
      [bytes(0xff), '\udcff'],
    ];
    for (const [invalid, expected] of cases) {
      expect(bodyText(Buffer.concat([Buffer.from(wellFormed), invalid, Buffer.from(wellFormed)]))).toBe(wellFormed + expected + wellFormed);
    }
  });

  it('reads a body of 25 MiB of such bytes in one linear pass', () => {
    const body = Buffer.alloc(25 * 1024 * 1024, 0x61);
    for (let i = 0; i < body.length; i += 3) body[i] = 0xff;
    const text = bodyText(body);
    expect(text.length).toBe(body.length);
    expect(text.slice(0, 6)).toBe('\udcffaa\udcffaa');
  });
});
