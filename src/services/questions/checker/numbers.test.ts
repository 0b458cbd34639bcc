import { describe, expect, it } from 'vitest';
import { numberMatches, parseNumber, parseTolerance, parseValue, roundTo, scaleFactor, type ParsedNumber } from './numbers.ts';
import type { Tolerance } from './types.ts';

const value = (v: number): ParsedNumber => ({ kind: 'value', value: v });

describe('parseValue', () => {
  it.each([
    ['42', 42],
    ['-7', -7],
    ['+7', 7],
    ['0.5', 0.5],
    ['.5', 0.5],
    ['-.5', -0.5],
    ['3,14', 3.14],
    ['1.5e-3', 0.0015],
    ['2E3', 2000],
    ['  12  ', 12],
    ['1 000 000', 1_000_000],
    ['12 345,6', 12345.6],
    ['3/4', 0.75],
    ['-3/4', -0.75],
    ['3 / 4', 0.75],
    ['1,5/3', 0.5],
    ['1 1/2', 1.5],
    ['-1 1/2', -1.5],
    ['\u22125', -5],
    ['3\u20444', 0.75],
    ['½', 0.5],
    ['pi', Math.PI],
    ['π', Math.PI],
    ['PI', Math.PI],
    ['e', Math.E],
    ['2pi', 2 * Math.PI],
    ['-π/2', -Math.PI / 2],
    ['3*pi/4', (3 * Math.PI) / 4],
    ['2e', 2 * Math.E],
  ])('%j is %d', (text, expected) => {
    expect(parseValue(text)).toBeCloseTo(expected, 12);
  });

  it.each(['', ' ', 'abc', '1/0', '1 1/0', '3/-4', '17*23', '2+2', '1,000.5', '1.2.3', '--1', 'pie', '[1;2]', '1e400', 'x'])(
    '%j is not a number',
    (text) => {
      expect(parseValue(text)).toBeNull();
    },
  );

  it('reads a comma as the decimal separator, never as thousands', () => {
    expect(parseValue('1,000')).toBe(1);
  });

  it('refuses non-text and very long input without throwing', () => {
    expect(parseValue(undefined as unknown as string)).toBeNull();
    expect(parseValue('1'.repeat(500))).toBeNull();
  });
});

describe('parseNumber', () => {
  it('reads values and intervals', () => {
    expect(parseNumber('2.5')).toEqual(value(2.5));
    expect(parseNumber('[1;2]')).toEqual({ kind: 'interval', min: 1, max: 2, minOpen: false, maxOpen: false });
    expect(parseNumber('(1;2]')).toEqual({ kind: 'interval', min: 1, max: 2, minOpen: true, maxOpen: false });
    expect(parseNumber('[-1/2 ; pi)')).toEqual({ kind: 'interval', min: -0.5, max: Math.PI, minOpen: false, maxOpen: true });
    expect(parseNumber('[3;3]')).toEqual({ kind: 'interval', min: 3, max: 3, minOpen: false, maxOpen: false });
  });

  it.each(['[2;1]', '(3;3)', '[1;x]', '[1;2', '1;2', '[1;2;3]', 'abc'])('%j is refused', (text) => {
    expect(parseNumber(text)).toBeNull();
  });
});

describe('parseTolerance', () => {
  it.each<[string, Tolerance]>([
    ['ABSOLUTE', { type: 'ABSOLUTE', synced: false }],
    ['absolute:0.5', { type: 'ABSOLUTE', value: 0.5, synced: false }],
    ['ABSOLUTE:0,5', { type: 'ABSOLUTE', value: 0.5, synced: false }],
    ['RELATIVE:5%', { type: 'RELATIVE', value: 0.05, synced: false }],
    ['RELATIVE:0.05', { type: 'RELATIVE', value: 0.05, synced: false }],
    ['RELATIVE:5', { type: 'RELATIVE', value: 0.05, synced: false }],
    ['RELATIVE:1', { type: 'RELATIVE', value: 1, synced: false }],
    ['RELATIVE:12.5 %', { type: 'RELATIVE', value: 0.125, synced: false }],
    ['QUOTIENT', { type: 'QUOTIENT', synced: false }],
    ['QUOTIENT:2', { type: 'QUOTIENT', value: 2, synced: false }],
    ['QUOTIENT:SYNCED', { type: 'QUOTIENT', synced: true }],
    ['QUOTIENT:1.5:SYNCED', { type: 'QUOTIENT', value: 1.5, synced: true }],
    ['QUOTIENT:synced:1.5', { type: 'QUOTIENT', value: 1.5, synced: true }],
    ['QUOTIENT2:3', { type: 'QUOTIENT2', value: 3, synced: false }],
    ['QUOTIENT2:SYNCED', { type: 'QUOTIENT2', synced: true }],
    [' QUOTIENT2 : 0 : SYNCED ', { type: 'QUOTIENT2', value: 0, synced: true }],
  ])('%j', (text, expected) => {
    expect(parseTolerance(text)).toEqual(expected);
  });

  it.each([
    '',
    'EXACT',
    'ABSOLUTE:',
    'ABSOLUTE:-1',
    'ABSOLUTE:abc',
    'ABSOLUTE:5%',
    'ABSOLUTE:SYNCED',
    'RELATIVE:SYNCED',
    'RELATIVE:-5%',
    'QUOTIENT:0.5',
    'QUOTIENT2:1.5',
    'QUOTIENT:2:3',
    'QUOTIENT:SYNCED:SYNCED',
    'QUOTIENT:2:SYNCED:x',
  ])('%j is refused', (text) => {
    expect(parseTolerance(text)).toBeNull();
  });
});

describe('roundTo', () => {
  it('rounds half away from zero without binary noise', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-1.005, 2)).toBe(-1.01);
    expect(roundTo(2.675, 2)).toBe(2.68);
    expect(roundTo(0.125, 2)).toBe(0.13);
    expect(roundTo(1234.5, 0)).toBe(1235);
    expect(roundTo(Math.PI, 4)).toBe(3.1416);
  });
});

describe('numberMatches', () => {
  const d2 = { decimals: 2 };
  it('without tolerance compares at the decimals', () => {
    expect(numberMatches(3.14, value(Math.PI), d2)).toBe(true);
    expect(numberMatches(3.1416, value(Math.PI), d2)).toBe(true);
    expect(numberMatches(3.15, value(Math.PI), d2)).toBe(false);
    expect(numberMatches(3.145, value(3.14), d2)).toBe(false);
    expect(numberMatches(0.333, value(1 / 3), d2)).toBe(true);
    expect(numberMatches(3, value(Math.PI), { decimals: 0 })).toBe(true);
    expect(numberMatches(-0.001, value(0), d2)).toBe(true);
  });

  it('ABSOLUTE includes the limit exactly, also where binary floating point overshoots', () => {
    const t = { decimals: 2, tolerance: { type: 'ABSOLUTE', value: 0.1 } as Tolerance };
    expect(numberMatches(1.1, value(1), t)).toBe(true);
    expect(numberMatches(0.9, value(1), t)).toBe(true);
    expect(numberMatches(1.1000001, value(1), t)).toBe(false);
    expect(numberMatches(-1.1, value(-1), t)).toBe(true);
    expect(numberMatches(-1.2, value(-1), t)).toBe(false);
  });

  it('ABSOLUTE without a value allows one unit of the last decimal', () => {
    const t = { decimals: 1, tolerance: { type: 'ABSOLUTE' } as Tolerance };
    expect(numberMatches(2.1, value(2), t)).toBe(true);
    expect(numberMatches(2.11, value(2), t)).toBe(false);
  });

  it('RELATIVE scales with the answer and needs exactly 0 for an answer of 0', () => {
    const t = { decimals: 2, tolerance: { type: 'RELATIVE', value: 0.05 } as Tolerance };
    expect(numberMatches(105, value(100), t)).toBe(true);
    expect(numberMatches(95, value(100), t)).toBe(true);
    expect(numberMatches(105.01, value(100), t)).toBe(false);
    expect(numberMatches(-95, value(-100), t)).toBe(true);
    expect(numberMatches(0, value(0), t)).toBe(true);
    expect(numberMatches(0.001, value(0), t)).toBe(false);
    const byDefault = { decimals: 2, tolerance: { type: 'RELATIVE' } as Tolerance };
    expect(numberMatches(101, value(100), byDefault)).toBe(true);
    expect(numberMatches(101.5, value(100), byDefault)).toBe(false);
  });

  it('QUOTIENT accepts a positive factor within [1/v, v]', () => {
    const t = { decimals: 2, tolerance: { type: 'QUOTIENT', value: 2 } as Tolerance };
    expect(numberMatches(200, value(100), t)).toBe(true);
    expect(numberMatches(50, value(100), t)).toBe(true);
    expect(numberMatches(201, value(100), t)).toBe(false);
    expect(numberMatches(49, value(100), t)).toBe(false);
    expect(numberMatches(-100, value(100), t)).toBe(false);
    expect(numberMatches(0, value(0), t)).toBe(true);
    expect(numberMatches(1, value(0), t)).toBe(false);
  });

  it('QUOTIENT2 accepts the right digits scaled by a power of ten', () => {
    const t = { decimals: 2, tolerance: { type: 'QUOTIENT2', value: 3 } as Tolerance };
    expect(numberMatches(1.5, value(1500), t)).toBe(true);
    expect(numberMatches(0.0015, value(1.5), t)).toBe(true);
    expect(numberMatches(1500, value(1.5), t)).toBe(true);
    expect(numberMatches(15000, value(1.5), t)).toBe(false);
    expect(numberMatches(1.6, value(1500), t)).toBe(false);
    expect(numberMatches(-1.5, value(1500), t)).toBe(false);
    expect(scaleFactor(2.5, 250, { decimals: 2, tolerance: { type: 'QUOTIENT2' } })).toBeCloseTo(0.01, 15);
  });

  it('intervals contain their ends unless open', () => {
    const closed = parseNumber('[1;2]')!;
    const open = parseNumber('(1;2)')!;
    expect(numberMatches(1, closed, d2)).toBe(true);
    expect(numberMatches(2, closed, d2)).toBe(true);
    expect(numberMatches(2.001, closed, d2)).toBe(false);
    expect(numberMatches(1, open, d2)).toBe(false);
    expect(numberMatches(1.5, open, d2)).toBe(true);
  });

  it('never accepts NaN or infinity', () => {
    expect(numberMatches(NaN, value(1), d2)).toBe(false);
    expect(numberMatches(Infinity, parseNumber('[0;1]')!, d2)).toBe(false);
  });
});
