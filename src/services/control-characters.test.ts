import { describe, expect, it } from 'vitest';
import { findControlCharacter, hasControlCharacter, printable } from './control-characters.ts';

describe('hasControlCharacter', () => {
  it('finds C0 characters, DEL and C1, but not tab, line feed, carriage return or other text', () => {
    for (const code of [0x00, 0x01, 0x07, 0x08, 0x0b, 0x0c, 0x0e, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9f]) {
      expect(hasControlCharacter(`a${String.fromCharCode(code)}b`), code.toString(16)).toBe(true);
    }
    for (const text of ['tab\there', 'line\nfeed', 'carriage\rreturn', 'é ü ő ß', '日本語', '😀', '\u00a0no-break', '\u200bzero width', '']) {
      expect(hasControlCharacter(text), text).toBe(false);
    }
  });
});

describe('findControlCharacter', () => {
  it('gives the path to the first offending value or key', () => {
    expect(findControlCharacter({ a: 'ok', b: ['ok', { c: 'x\u0000' }] })).toEqual({ path: ['b', 1, 'c'], inKey: false });
    expect(findControlCharacter({ a: { ['k\u0001']: 1 } })).toEqual({ path: ['a', 'k\u0001'], inKey: true });
    expect(findControlCharacter('\u0002')).toEqual({ path: [], inKey: false });
    expect(findControlCharacter({ a: 1, b: true, c: null, d: ['tab\t'] })).toBeUndefined();
  });

  it('reads the names of uploaded files', () => {
    expect(findControlCharacter({ image: new File(['x'], 'a\u0000.png') })).toEqual({ path: ['image'], inKey: false });
    expect(findControlCharacter({ image: new File(['\u0000'], 'a.png') })).toBeUndefined();
  });

  it('walks input nested deeper than the call stack allows without failing', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findControlCharacter(deep)?.path).toHaveLength(200_000);
  });
});

describe('printable', () => {
  it('writes control characters as escapes', () => {
    expect(printable('a\u0000b\u009f')).toBe('a\\u0000b\\u009f');
    expect(printable('plain')).toBe('plain');
  });
});
