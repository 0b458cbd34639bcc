import { describe, expect, it } from 'vitest';
import { CONTROL_CHARACTER_RULE, MAX_NESTING, NESTING_RULE, findInputProblem, hasControlCharacter, printable } from './input-rules.ts';

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

describe('findInputProblem', () => {
  it('gives the path to the first value or key with a control character', () => {
    expect(findInputProblem({ a: 'ok', b: ['ok', { c: 'x\u0000' }] })).toEqual({ path: ['b', 1, 'c'], inKey: false, rule: CONTROL_CHARACTER_RULE });
    expect(findInputProblem({ a: { ['k\u0001']: 1 } })).toEqual({ path: ['a', 'k\u0001'], inKey: true, rule: CONTROL_CHARACTER_RULE });
    expect(findInputProblem('\u0002')).toEqual({ path: [], inKey: false, rule: CONTROL_CHARACTER_RULE });
    expect(findInputProblem({ a: 1, b: true, c: null, d: ['tab\t'] })).toBeUndefined();
  });

  it('reads the names of uploaded files', () => {
    expect(findInputProblem({ image: new File(['x'], 'a\u0000.png') })).toEqual({ path: ['image'], inKey: false, rule: CONTROL_CHARACTER_RULE });
    expect(findInputProblem({ image: new File(['\u0000'], 'a.png') })).toBeUndefined();
  });

  it(`allows ${MAX_NESTING} lists and objects inside each other, and names the first one deeper`, () => {
    const nest = (levels: number, inner: unknown = 'end') => {
      let value = inner;
      for (let i = 0; i < levels; i++) value = i % 2 ? { k: value } : [value];
      return value;
    };
    expect(findInputProblem(nest(MAX_NESTING))).toBeUndefined();
    const problem = findInputProblem(nest(MAX_NESTING + 1));
    expect(problem).toMatchObject({ rule: NESTING_RULE, inKey: false });
    expect(problem!.path).toHaveLength(MAX_NESTING);
  });

  it('walks input nested deeper than the call stack allows, quickly and without failing', () => {
    let deep: unknown = 'end';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const started = performance.now();
    expect(findInputProblem(deep)?.rule).toBe(NESTING_RULE);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('printable', () => {
  it('writes control characters as escapes', () => {
    expect(printable('a\u0000b\u009f')).toBe('a\\u0000b\\u009f');
    expect(printable('plain')).toBe('plain');
  });
});
