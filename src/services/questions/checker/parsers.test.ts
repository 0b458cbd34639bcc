import { describe, expect, it } from 'vitest';
import { dateMatches, parseDate, parseDateAnswers, parseDateRange } from './datetime.ts';
import { parseFreeTextRules } from './freetext.ts';
import { isEmptyResponse, parsePairs, responseEntries, splitList } from './lists.ts';
import { maxMatching, requiredUnits } from './matching.ts';
import { parseMatrix, parseSet } from './matrix.ts';
import { exactKey, textKey } from './text.ts';

describe('splitList and parsePairs', () => {
  it('splits on &&& and trims, keeping empty items', () => {
    expect(splitList('a&&& b &&&c')).toEqual(['a', 'b', 'c']);
    expect(splitList('a&&&&&&b')).toEqual(['a', '', 'b']);
    expect(splitList('one item')).toEqual(['one item']);
    expect(splitList('   ')).toEqual([]);
  });

  it('reads pairs from a list or a &&& string', () => {
    expect(parsePairs(['a>>>1', ' b >>> 2 '])).toEqual([
      ['a', '1'],
      ['b', '2'],
    ]);
    expect(parsePairs('a>>>1&&&b>>>2')).toEqual([
      ['a', '1'],
      ['b', '2'],
    ]);
    expect(parsePairs([])).toEqual([]);
  });

  it.each([['a'], ['a>>>'], ['>>>b'], ['a>>>b>>>c'], ['a>>>1', 'b']])('refuses %j', (...items) => {
    expect(parsePairs(items)).toBeNull();
  });

  it('reads response inputs', () => {
    expect(responseEntries(' x ')).toEqual(['x']);
    expect(responseEntries('1&&&2')).toEqual(['1', '2']);
    expect(responseEntries(2.5)).toEqual(['2.5']);
    expect(responseEntries(['a', 3, null, true, { x: 1 }])).toEqual(['a', '3', '', '', '']);
    expect(responseEntries({ a: 1 })).toBeNull();
    expect(responseEntries(true)).toBeNull();
    expect(responseEntries(NaN)).toBeNull();
  });

  it('knows an empty response', () => {
    for (const empty of [null, undefined, '', '  ', [], ['', null], {}, { a: null, b: '' }, [[], ['']]]) expect(isEmptyResponse(empty)).toBe(true);
    for (const given of ['x', 0, false, ['', 'x'], { a: false }]) expect(isEmptyResponse(given)).toBe(false);
  });
});

describe('text keys', () => {
  it('exact: trims and normalizes Unicode only', () => {
    expect(exactKey('  Café ')).toBe('Café');
    expect(exactKey('Cafe\u0301')).toBe(exactKey('Café'));
    expect(exactKey('a  b')).not.toBe(exactKey('a b'));
  });

  it('text: drops spaces and punctuation, folds case, keeps accents and digits', () => {
    expect(textKey("  Hello, World! ")).toBe('helloworld');
    expect(textKey('STRASSE')).toBe(textKey('Straße'));
    expect(textKey('ＡＢＣ１')).toBe('abc1');
    expect(textKey('Ελλάς')).toBe(textKey('ΕΛΛΆΣ'));
    expect(textKey('Ελλάσ')).toBe(textKey('Ελλάς'));
    expect(textKey('körte')).not.toBe(textKey('korte'));
    expect(textKey('R2-D2')).toBe('r2d2');
    expect(textKey('?!...')).toBe('');
  });
});

describe('parseMatrix and parseSet', () => {
  it('reads rows and cells', () => {
    expect(parseMatrix('[1;2|3;4]')).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(parseMatrix(' [ 1 ; 2 | 3 ; 4 ] ')).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(parseMatrix('1;2|3;4')).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(parseMatrix('[5]')).toEqual([['5']]);
    expect(parseMatrix('[1|2|3]')).toEqual([['1'], ['2'], ['3']]);
    expect(parseMatrix('[x^2;sin(x)]')).toEqual([['x^2', 'sin(x)']]);
  });

  it.each(['[]', '', '[1;2|3]', '[1;2', '1;2]', '[[1;2]|[3;4]]', '[1;;2]', '[1;2|;4]'])('refuses %j', (text) => {
    expect(parseMatrix(text)).toBeNull();
  });

  it('keeps empty cells when asked (a response with blanks)', () => {
    expect(parseMatrix('[1;|3;4]', { allowEmpty: true })).toEqual([
      ['1', ''],
      ['3', '4'],
    ]);
  });

  it('reads sets', () => {
    expect(parseSet('[1;2;3]')).toEqual(['1', '2', '3']);
    expect(parseSet('{a; b}')).toEqual(['a', 'b']);
    expect(parseSet('1;2')).toEqual(['1', '2']);
    expect(parseSet('single')).toEqual(['single']);
    expect(parseSet('[]')).toEqual([]);
    for (const bad of ['', '[1;2|3]', '[1;;2]', '{1;2]', '[1;2']) expect(parseSet(bad)).toBeNull();
  });
});

describe('dates', () => {
  it.each([
    ['2024-03-15', { year: 2024, month: 3, day: 15 }],
    ['2024.03.15.', { year: 2024, month: 3, day: 15 }],
    ['2024. 03. 15.', { year: 2024, month: 3, day: 15 }],
    ['2024/3/5', { year: 2024, month: 3, day: 5 }],
    ['15.03.2024', { year: 2024, month: 3, day: 15 }],
    ['2024-03', { year: 2024, month: 3 }],
    ['1848', { year: 1848 }],
    ['-43', { year: -43 }],
    ['2024-03-15T10:30:00Z', { year: 2024, month: 3, day: 15 }],
    ['2024-03-15 10:30', { year: 2024, month: 3, day: 15 }],
    ['2024-02-29', { year: 2024, month: 2, day: 29 }],
    ['2000-02-29', { year: 2000, month: 2, day: 29 }],
  ])('%j', (text, expected) => {
    expect(parseDate(text)).toEqual(expected);
  });

  it.each(['', 'yesterday', '2023-02-29', '1900-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '03/15/2024', '2024-03-15-01', '2024-03-15T25'])(
    '%j is refused',
    (text) => {
      expect(parseDate(text)).toBeNull();
    },
  );

  it('reads ranges', () => {
    expect(parseDateRange('[1914;1918]')).toEqual({ from: { year: 1914 }, to: { year: 1918 } });
    expect(parseDateRange('2024-01-01;2024-12-31')).not.toBeNull();
    expect(parseDateRange('[1918;1914]')).toBeNull();
    expect(parseDateRange('1914')).toBeNull();
    expect(parseDateAnswers(['1914', '1918'], true)).toEqual([{ kind: 'range', from: { year: 1914 }, to: { year: 1918 } }]);
    expect(parseDateAnswers(['1914', 'x'], false)).toBeNull();
  });

  it('compares at the precision, never finer than the answer', () => {
    const answer = { kind: 'date' as const, date: parseDate('2024-03-15')! };
    expect(dateMatches(parseDate('2024-03-15')!, answer, 'DAY')).toBe(true);
    expect(dateMatches(parseDate('2024-03-16')!, answer, 'DAY')).toBe(false);
    expect(dateMatches(parseDate('2024-03')!, answer, 'DAY')).toBe(false);
    expect(dateMatches(parseDate('2024-03-01')!, answer, 'MONTH')).toBe(true);
    expect(dateMatches(parseDate('2024-03')!, answer, 'MONTH')).toBe(true);
    expect(dateMatches(parseDate('2024-04')!, answer, 'MONTH')).toBe(false);
    expect(dateMatches(parseDate('2024')!, answer, 'YEAR')).toBe(true);
    const year = { kind: 'date' as const, date: parseDate('1848')! };
    expect(dateMatches(parseDate('1848-03-15')!, year, 'DAY')).toBe(true);
  });

  it('orders years before year 1 correctly in ranges', () => {
    const range = { kind: 'range' as const, ...parseDateRange('-100;-44')! };
    expect(dateMatches(parseDate('-50')!, range, 'YEAR')).toBe(true);
    expect(dateMatches(parseDate('-101')!, range, 'YEAR')).toBe(false);
    expect(dateMatches(parseDate('-43')!, range, 'YEAR')).toBe(false);
  });
});

describe('parseFreeTextRules', () => {
  it('reads keywords, alternatives and weights', () => {
    expect(parseFreeTextRules('photosynthesis>>>50%&&&chlorophyll|chloroplast&&&wrong claim>>>-0.25')).toEqual([
      { keywords: ['photosynthesis'], weight: 0.5 },
      { keywords: ['chlorophyll', 'chloroplast'] },
      { keywords: ['wrong claim'], weight: -0.25 },
    ]);
    expect(parseFreeTextRules('')).toEqual([]);
  });

  it.each(['a>>>', 'a>>>x', 'a>>>150%', '>>>0.5', 'a|', 'a>>>1>>>2', '!!!'])('refuses %j', (text) => {
    expect(parseFreeTextRules(text)).toBeNull();
  });
});

describe('matching', () => {
  it('finds the largest one-to-one matching where greedy would not', () => {
    // input 0 fits answers 0 and 1, input 1 only answer 0.
    const fits = [
      [true, true],
      [true, false],
    ];
    expect(maxMatching(2, 2, (l, r) => fits[l]![r]!)).toEqual([1, 0]);
  });

  it('clamps answer_require', () => {
    expect(requiredUnits(undefined, 3, 1)).toBe(1);
    expect(requiredUnits(2, 3, 1)).toBe(2);
    expect(requiredUnits(9, 3, 1)).toBe(3);
    expect(requiredUnits(0, 3, 3)).toBe(3);
    expect(requiredUnits(2.7, 3, 1)).toBe(2);
    expect(requiredUnits(NaN, 3, 3)).toBe(3);
  });
});
