import { describe, expect, it } from 'vitest';
import { checkAnswer, parseFreeTextRules, parseTolerance, QUESTION_TYPES, type CheckableQuestion, type QuestionType, type Response } from './answer-checker.ts';

function q(type: QuestionType, answers: string[], extra: Partial<CheckableQuestion> = {}): CheckableQuestion {
  return { type, answers, options: [], ...extra };
}
const score = (question: CheckableQuestion, response: Response) => checkAnswer(question, response).score;

describe('result shape', () => {
  it('reports score, correct, grading, points and details', () => {
    expect(checkAnswer(q('generic', ['Paris'], { points: 4 }), 'Paris')).toEqual({
      score: 1,
      correct: true,
      grading: 'auto',
      points: 4,
      pointsMaximum: 4,
      details: { correctUnits: 1, requiredUnits: 1, marks: [true] },
    });
  });

  it('scales partial scores to points without binary noise', () => {
    const r = checkAnswer(q('order', ['a', 'b', 'c'], { points: 0.3 }), ['a', 'c', 'b']);
    expect(r.score).toBeCloseTo(1 / 3, 12);
    expect(r.points).toBe(0.1);
    expect(r.correct).toBe(false);
  });

  it('defaults to 1 point and ignores an unusable points value', () => {
    expect(checkAnswer(q('generic', ['a']), 'a').pointsMaximum).toBe(1);
    expect(checkAnswer(q('generic', ['a'], { points: -2 }), 'a').pointsMaximum).toBe(1);
    expect(checkAnswer(q('generic', ['a'], { points: 0 }), 'a')).toMatchObject({ score: 1, correct: true, points: 0 });
  });

  it('scores an empty response 0 for every scored type, with nothing to review', () => {
    for (const type of QUESTION_TYPES.filter((t) => t !== 'reading')) {
      for (const empty of [null, undefined, '', '   ', [], ['', null], {}]) {
        expect(checkAnswer(q(type, ['1']), empty as Response)).toMatchObject({ score: 0, correct: false, grading: 'auto', details: { reason: 'empty' } });
      }
    }
  });

  it('never throws on malformed responses, whatever the type', () => {
    const odd: unknown[] = [true, false, 0, -1, NaN, Infinity, 'x'.repeat(5000), { a: { b: 1 } }, [[['deep']]], [{}], Symbol('s'), () => 1, new Date(), 12n];
    for (const type of QUESTION_TYPES) {
      const question = q(type, ['1', 'a>>>b', '[1;2]'], { options: ['x'] });
      for (const response of odd) {
        const r = checkAnswer(question, response as Response);
        expect(r.score).toBeGreaterThanOrEqual(0);
        expect(r.score).toBeLessThanOrEqual(1);
        // Numbers are legitimate selections (indexes) and texts; the others can never be right.
        if (r.grading === 'auto' && typeof response !== 'number') expect(r.correct).toBe(false);
      }
    }
  });

  it('never throws on a malformed question either', () => {
    const broken = { type: 'numerical', answers: 'not a list', options: null } as unknown as CheckableQuestion;
    expect(checkAnswer(broken, '1')).toMatchObject({ score: 0, details: { reason: 'invalid-question' } });
    expect(checkAnswer({ type: 'unknown-type', answers: ['a'], options: [] } as unknown as CheckableQuestion, 'a')).toMatchObject({
      score: 0,
      details: { reason: 'invalid-question' },
    });
    expect(checkAnswer(q('generic', []), 'a')).toMatchObject({ score: 0, details: { reason: 'invalid-question' } });
  });
});

describe('generic', () => {
  const question = q('generic', ['Budapest', 'Pest-Buda']);
  it('needs an exact match with any answer, surrounding spaces aside', () => {
    expect(score(question, 'Budapest')).toBe(1);
    expect(score(question, '  Pest-Buda\n')).toBe(1);
    expect(score(question, 'budapest')).toBe(0);
    expect(score(question, 'Buda pest')).toBe(0);
    expect(score(question, 'Budapest.')).toBe(0);
  });

  it('treats composed and decomposed accents as the same text', () => {
    expect(score(q('generic', ['Pécs']), 'Pe\u0301cs')).toBe(1);
  });

  it('accepts numbers as text', () => {
    expect(score(q('generic', ['42']), 42)).toBe(1);
  });
});

describe('text', () => {
  const question = q('text', ['New York', 'NYC']);
  it('ignores spaces, punctuation and case', () => {
    expect(score(question, 'new york')).toBe(1);
    expect(score(question, 'NEWYORK!')).toBe(1);
    expect(score(question, ' N.Y.C. ')).toBe(1);
    expect(score(question, 'New-York')).toBe(1);
    expect(score(question, 'New Jersey')).toBe(0);
  });

  it('is Unicode-aware and keeps accents and digits', () => {
    expect(score(q('text', ['Straße']), 'STRASSE')).toBe(1);
    expect(score(q('text', ['Ünnepély']), 'ünnepély')).toBe(1);
    expect(score(q('text', ['Ünnepély']), 'unnepely')).toBe(0);
    expect(score(q('text', ['R2-D2']), 'r2 d2')).toBe(1);
    expect(score(q('text', ['R2-D2']), 'rd')).toBe(0);
  });

  it('never matches a response of only punctuation', () => {
    expect(checkAnswer(q('text', ['...']), '!!!')).toMatchObject({ score: 0, correct: false });
  });
});

describe('several inputs (answer_order, answer_require)', () => {
  it('unordered: inputs must each match a different answer', () => {
    const colors = q('text', ['red', 'green', 'blue'], { answerRequire: 3 });
    expect(score(colors, ['Blue', 'red', 'GREEN'])).toBe(1);
    expect(score(colors, 'red&&&green&&&blue')).toBe(1);
    expect(score(colors, ['red', 'red', 'red'])).toBeCloseTo(1 / 3);
    expect(score(colors, ['red', 'green', 'purple'])).toBeCloseTo(2 / 3);
    expect(score(colors, ['red', 'green'])).toBeCloseTo(2 / 3);
  });

  it('unordered: only the first answer_require inputs count, so extra guesses never help', () => {
    const two = q('generic', ['a', 'b', 'c'], { answerRequire: 2 });
    expect(score(two, ['a', 'c'])).toBe(1);
    expect(score(two, ['x', 'a', 'b'])).toBe(0.5);
    expect(score(two, ['', 'a', 'b'])).toBe(1);
  });

  it('ordered: each input is compared with the answer at its position', () => {
    const ordered = q('numerical', ['2', '3'], { answerOrder: true });
    expect(score(ordered, ['2', '3'])).toBe(1);
    expect(score(ordered, ['3', '2'])).toBe(0);
    expect(score(ordered, ['2', ''])).toBe(0.5);
    expect(score(ordered, ['', '3'])).toBe(0.5);
    expect(checkAnswer(ordered, ['2', 'x']).details.marks).toEqual([true, false]);
  });

  it('answer labels imply the order', () => {
    expect(score(q('generic', ['x', 'y'], { answerLabels: ['first', 'second'] }), ['y', 'x'])).toBe(0);
  });

  it('ordered with answer_require: fewer right positions still give full score', () => {
    const q3 = q('generic', ['a', 'b', 'c'], { answerOrder: true, answerRequire: 2 });
    expect(score(q3, ['a', 'b', 'x'])).toBe(1);
    expect(score(q3, ['a', 'x', 'x'])).toBe(0.5);
  });

  it('clamps answer_require to the number of answers', () => {
    expect(score(q('generic', ['a', 'b'], { answerRequire: 5 }), ['a', 'b'])).toBe(1);
  });
});

describe('numerical', () => {
  it('accepts fractions, mixed numbers, constants and number forms', () => {
    expect(score(q('numerical', ['0.75']), '3/4')).toBe(1);
    expect(score(q('numerical', ['3/4']), 0.75)).toBe(1);
    expect(score(q('numerical', ['1.5']), '1 1/2')).toBe(1);
    expect(score(q('numerical', ['-2.5']), '-5/2')).toBe(1);
    expect(score(q('numerical', ['-2.5']), '2.5')).toBe(0);
    expect(score(q('numerical', ['pi']), '3.14')).toBe(1);
    expect(score(q('numerical', ['pi/2']), '1.57')).toBe(1);
    expect(score(q('numerical', ['3.14']), 'π')).toBe(1);
    expect(score(q('numerical', ['1000000']), '1 000 000')).toBe(1);
    expect(score(q('numerical', ['3.5']), '3,5')).toBe(1);
  });

  it('rounds to decimals (default 2) when there is no tolerance', () => {
    expect(score(q('numerical', ['1/3']), '0.33')).toBe(1);
    expect(score(q('numerical', ['1/3']), '0.3')).toBe(0);
    expect(score(q('numerical', ['1/3'], { decimals: 1 }), '0.3')).toBe(1);
    expect(score(q('numerical', ['1/3'], { decimals: 4 }), '0.33')).toBe(0);
    expect(score(q('numerical', ['2']), '2.004')).toBe(1);
    expect(score(q('numerical', ['2']), '2.005')).toBe(0);
  });

  it('ABSOLUTE tolerance includes its limit', () => {
    const question = q('numerical', ['9.81'], { tolerance: parseTolerance('ABSOLUTE:0.01')! });
    expect(score(question, '9.82')).toBe(1);
    expect(score(question, '9.80')).toBe(1);
    expect(score(question, '9.8201')).toBe(0);
    expect(score(question, '9.7999')).toBe(0);
  });

  it('RELATIVE tolerance as percent or fraction', () => {
    for (const text of ['RELATIVE:10%', 'RELATIVE:0.1', 'RELATIVE:10']) {
      const question = q('numerical', ['-50'], { tolerance: parseTolerance(text)! });
      expect(score(question, '-55')).toBe(1);
      expect(score(question, '-45')).toBe(1);
      expect(score(question, '-55.1')).toBe(0);
      expect(score(question, '55')).toBe(0);
    }
  });

  it('QUOTIENT: within a factor', () => {
    const estimate = q('numerical', ['8000000000'], { tolerance: parseTolerance('QUOTIENT:2')! });
    expect(score(estimate, '4000000000')).toBe(1);
    expect(score(estimate, '16e9')).toBe(1);
    expect(score(estimate, '3.9e9')).toBe(0);
  });

  it('QUOTIENT2: the decimal point may move', () => {
    const metres = q('numerical', ['1250'], { tolerance: parseTolerance('QUOTIENT2:3')! });
    expect(score(metres, '1.25')).toBe(1);
    expect(score(metres, '125000')).toBe(1);
    expect(score(metres, '0.125')).toBe(0);
    expect(score(metres, '1.26')).toBe(0);
  });

  it('QUOTIENT:SYNCED: any common multiple of all the answers', () => {
    const ratio = q('numerical', ['2', '3'], { answerOrder: true, tolerance: parseTolerance('QUOTIENT:SYNCED')! });
    expect(score(ratio, ['2', '3'])).toBe(1);
    expect(score(ratio, ['4', '6'])).toBe(1);
    expect(score(ratio, ['1', '1.5'])).toBe(1);
    expect(score(ratio, ['4', '9'])).toBe(0.5);
    expect(score(ratio, ['-2', '-3'])).toBe(0);
    const unsynced = q('numerical', ['2', '3'], { answerOrder: true, tolerance: parseTolerance('QUOTIENT')! });
    expect(score(unsynced, ['4', '9'])).toBe(1);
  });

  it('QUOTIENT:SYNCED also finds the factor when the inputs are unordered', () => {
    const ratio = q('numerical', ['1', '3'], { answerRequire: 2, tolerance: parseTolerance('QUOTIENT:SYNCED')! });
    expect(score(ratio, ['6', '2'])).toBe(1);
  });

  it('QUOTIENT2:SYNCED: the same power of ten for every input', () => {
    const units = q('numerical', ['1500', '250'], { answerOrder: true, tolerance: parseTolerance('QUOTIENT2:SYNCED')! });
    expect(score(units, ['1.5', '0.25'])).toBe(1);
    expect(score(units, ['1.5', '250'])).toBe(0.5);
  });

  it('interval answers accept anything inside', () => {
    const question = q('numerical', ['[2.5;3.5]']);
    expect(score(question, '2.5')).toBe(1);
    expect(score(question, '3.5')).toBe(1);
    expect(score(question, '3')).toBe(1);
    expect(score(question, '7/2')).toBe(1);
    expect(score(question, '3.51')).toBe(0);
    expect(score(q('numerical', ['(2.5;3.5)']), '2.5')).toBe(0);
  });

  it('an unreadable response scores 0 and says why', () => {
    expect(checkAnswer(q('numerical', ['5']), 'five')).toMatchObject({ score: 0, correct: false, details: { reason: 'malformed' } });
    expect(checkAnswer(q('numerical', ['5']), '2+3')).toMatchObject({ score: 0, details: { reason: 'malformed' } });
    expect(checkAnswer(q('numerical', ['5']), '1/0')).toMatchObject({ score: 0, details: { reason: 'malformed' } });
  });

  it('an unreadable input still takes its place among the counted inputs', () => {
    expect(score(q('numerical', ['1', '2']), ['x', '1'])).toBe(0);
  });

  it('a stored answer that is not a number makes the question invalid', () => {
    expect(checkAnswer(q('numerical', ['abc']), '1')).toMatchObject({ score: 0, details: { reason: 'invalid-question' } });
  });
});

describe('date/time', () => {
  it('compares at DAY precision by default', () => {
    const question = q('date/time', ['1848-03-15']);
    expect(score(question, '1848-03-15')).toBe(1);
    expect(score(question, '1848.03.15.')).toBe(1);
    expect(score(question, '15.03.1848')).toBe(1);
    expect(score(question, '1848-03-16')).toBe(0);
    expect(score(question, '1848-03')).toBe(0);
    expect(score(question, '1848-03-15T09:00')).toBe(1);
  });

  it('MONTH and YEAR precision ignore the finer parts', () => {
    expect(score(q('date/time', ['1848-03-15'], { datetimePrecision: 'MONTH' }), '1848-03')).toBe(1);
    expect(score(q('date/time', ['1848-03-15'], { datetimePrecision: 'MONTH' }), '1848-03-31')).toBe(1);
    expect(score(q('date/time', ['1848-03-15'], { datetimePrecision: 'MONTH' }), '1848-04-01')).toBe(0);
    expect(score(q('date/time', ['1848-03-15'], { datetimePrecision: 'YEAR' }), '1848')).toBe(1);
    expect(score(q('date/time', ['1848-03-15'], { datetimePrecision: 'YEAR' }), '1849')).toBe(0);
  });

  it('a range answer accepts any date inside, ends included', () => {
    const war = q('date/time', ['[1914-07-28;1918-11-11]'], { datetimeRange: true });
    expect(score(war, '1914-07-28')).toBe(1);
    expect(score(war, '1918-11-11')).toBe(1);
    expect(score(war, '1916-01-01')).toBe(1);
    expect(score(war, '1918-11-12')).toBe(0);
    expect(score(war, '1914-07-27')).toBe(0);
    const byYear = q('date/time', ['1914', '1918'], { datetimeRange: true, datetimePrecision: 'YEAR' });
    expect(score(byYear, '1918-12-31')).toBe(1);
    expect(score(byYear, '1919')).toBe(0);
  });

  it('refuses impossible dates', () => {
    expect(checkAnswer(q('date/time', ['2023-02-28']), '2023-02-29')).toMatchObject({ score: 0, details: { reason: 'malformed' } });
  });
});

describe('expression', () => {
  it('accepts equivalent formulas', () => {
    const question = q('expression', ['(x+1)^2']);
    expect(score(question, 'x^2+2x+1')).toBe(1);
    expect(score(question, '(1+x)(x+1)')).toBe(1);
    expect(score(question, 'x*x + 2*x + 1')).toBe(1);
  });

  it('refuses different formulas', () => {
    const question = q('expression', ['(x+1)^2']);
    expect(score(question, 'x^2+1')).toBe(0);
    expect(score(question, '(y+1)^2')).toBe(0);
    expect(score(question, 'x^2+2x')).toBe(0);
  });

  it('compares constant answers at the decimals', () => {
    expect(score(q('expression', ['sqrt(2)']), '1.41')).toBe(1);
    expect(score(q('expression', ['sqrt(2)'], { decimals: 4 }), '1.41')).toBe(0);
  });

  it('an unreadable formula scores 0', () => {
    expect(checkAnswer(q('expression', ['x+1']), 'x+')).toMatchObject({ score: 0, details: { reason: 'malformed' } });
    expect(checkAnswer(q('expression', ['x+']), 'x+1')).toMatchObject({ score: 0, details: { reason: 'invalid-question' } });
  });
});

describe('choice', () => {
  const question = q('choice', ['Paris'], { options: ['London', 'Rome'] });
  it('scores 1 for the answer, by text, reference or index', () => {
    expect(score(question, 'Paris')).toBe(1);
    expect(score(question, ' Paris ')).toBe(1);
    expect(score(question, ['Paris'])).toBe(1);
    expect(score(question, 'ANSWER:1')).toBe(1);
    expect(score(question, 0)).toBe(1);
    expect(score(question, 'London')).toBe(0);
    expect(score(question, 'OPTION:2')).toBe(0);
    expect(score(question, 2)).toBe(0);
  });

  it('refuses more than one selection and unknown options', () => {
    expect(checkAnswer(question, ['Paris', 'Rome'])).toMatchObject({ score: 0, details: { reason: 'too-many-selections' } });
    expect(checkAnswer(question, 'Berlin')).toMatchObject({ score: 0, details: { reason: 'malformed' } });
    expect(checkAnswer(question, 3)).toMatchObject({ score: 0, details: { reason: 'malformed' } });
    expect(checkAnswer(question, 'OPTION:3')).toMatchObject({ score: 0, details: { reason: 'malformed' } });
  });

  it('ignores answer_require', () => {
    expect(score({ ...question, answerRequire: 3 }, 'Paris')).toBe(1);
  });
});

describe('multiple-choice', () => {
  const primes = q('multiple-choice', ['2', '3', '5'], { options: ['4', '6'] });
  it('needs every answer by default, partial credit for some', () => {
    expect(score(primes, ['2', '3', '5'])).toBe(1);
    expect(score(primes, ['5', '2', '3'])).toBe(1);
    expect(score(primes, ['2', '3'])).toBeCloseTo(2 / 3);
    expect(score(primes, ['2', '2', '2'])).toBeCloseTo(1 / 3);
    expect(score(primes, 'ANSWER:1&&&ANSWER:2&&&ANSWER:3')).toBe(1);
    expect(score(primes, [0, 1, 2])).toBe(1);
  });

  it('any incorrect selection scores 0', () => {
    expect(checkAnswer(primes, ['2', '3', '5', '4'])).toMatchObject({ score: 0, details: { reason: 'wrong-selection', correctUnits: 3 } });
    expect(score(primes, ['2', '3', '5', '4', '6'])).toBe(0);
  });

  it('answer_require sets how many right selections give full score', () => {
    const two = { ...primes, answerRequire: 2 };
    expect(score(two, ['2', '5'])).toBe(1);
    expect(score(two, ['2', '3', '5'])).toBe(1);
    expect(score(two, ['3'])).toBe(0.5);
  });

  it('maximum choices', () => {
    expect(checkAnswer({ ...primes, maximumChoices: 2 }, ['2', '3', '5'])).toMatchObject({ score: 0, details: { reason: 'too-many-selections' } });
  });

  it('an unknown selection makes the response malformed', () => {
    expect(checkAnswer(primes, ['2', '3', '5', '7'])).toMatchObject({ score: 0, details: { reason: 'malformed' } });
  });
});

describe('order', () => {
  const planets = q('order', ['Mercury', 'Venus', 'Earth', 'Mars']);
  it('needs the sequence of the answer', () => {
    expect(score(planets, ['Mercury', 'Venus', 'Earth', 'Mars'])).toBe(1);
    expect(score(planets, 'Mercury&&&Venus&&&Earth&&&Mars')).toBe(1);
    expect(score(planets, ['ANSWER:1', 'ANSWER:2', 'ANSWER:3', 'ANSWER:4'])).toBe(1);
    expect(score(planets, [0, 1, 2, 3])).toBe(1);
    expect(score(planets, [3, 2, 1, 0])).toBe(0);
  });

  it('counts right positions for partial credit', () => {
    expect(score(planets, ['Mercury', 'Venus', 'Mars', 'Earth'])).toBe(0.5);
    expect(checkAnswer(planets, ['Venus', 'Mercury', 'Earth', 'Mars']).details.marks).toEqual([false, false, true, true]);
    expect(score(planets, ['Mercury'])).toBe(0.25);
    expect(score({ ...planets, answerRequire: 2 }, ['Mercury', 'Venus', 'Mars', 'Earth'])).toBe(1);
  });

  it('handles repeated item texts', () => {
    expect(score(q('order', ['a', 'b', 'a']), ['a', 'b', 'a'])).toBe(1);
  });

  it('a response that is not a list is malformed', () => {
    expect(checkAnswer(planets, { a: 'b' })).toMatchObject({ score: 0, details: { reason: 'malformed' } });
  });
});

describe('true/false', () => {
  const question = q('true/false', ['The Earth is round', 'Water is wet'], { options: ['The Moon is cheese'] });
  it('marks per statement, by position or by statement', () => {
    expect(score(question, [true, true, false])).toBe(1);
    expect(score(question, ['true', '+', 'no'])).toBe(1);
    expect(score(question, { 'The Moon is cheese': false, 'Water is wet': true, 'The Earth is round': 'TRUE' })).toBe(1);
    expect(score(question, { 'ANSWER:1': true, 'ANSWER:2': true, 'OPTION:1': false })).toBe(1);
  });

  it('scores the fraction of right marks; unmarked statements are not right', () => {
    expect(score(question, [true, false, false])).toBeCloseTo(2 / 3);
    expect(score(question, [true, null, false])).toBeCloseTo(2 / 3);
    expect(score(question, [false, false, true])).toBe(0);
    expect(score({ ...question, answerRequire: 2 }, [true, true, true])).toBe(1);
  });

  it('the third option', () => {
    const third = q('true/false', ['A'], { options: ['B'], truefalseThirdStatements: ['C'] });
    expect(score(third, [true, false, 'unknown'])).toBe(1);
    expect(score(third, [true, false, false])).toBeCloseTo(2 / 3);
    expect(score(third, { C: '?', A: 't', B: 'f' })).toBe(1);
    expect(score(third, { 'THIRD:1': 'third', A: true, B: false })).toBe(1);
    expect(score(third, ['unknown', false, 'unknown'])).toBeCloseTo(2 / 3);
  });

  it('the third mark is wrong when the question does not offer it', () => {
    expect(score(question, ['unknown', true, false])).toBeCloseTo(2 / 3);
    expect(score({ ...question, truefalseThirdOption: true }, ['unknown', true, false])).toBeCloseTo(2 / 3);
    const offered = q('true/false', ['A'], { options: ['B'], truefalseThirdOption: true });
    expect(score(offered, ['unknown', 'unknown'])).toBe(0);
  });

  it('ignores unknown statements and unreadable marks', () => {
    expect(score(question, { 'Something else': true, 'Water is wet': 'maybe', 'The Earth is round': true })).toBeCloseTo(1 / 3);
    expect(checkAnswer(question, 'true')).toMatchObject({ score: 0, details: { reason: 'malformed' } });
  });
});

describe('pairing', () => {
  const capitals = q('pairing', ['France>>>Paris', 'Italy>>>Rome', 'Spain>>>Madrid'], { options: ['Lisbon'] });
  it('accepts pairs in every response form', () => {
    expect(score(capitals, ['France>>>Paris', 'Italy>>>Rome', 'Spain>>>Madrid'])).toBe(1);
    expect(score(capitals, 'Spain>>>Madrid&&&France>>>Paris&&&Italy>>>Rome')).toBe(1);
    expect(score(capitals, [['France', 'Paris'], ['Italy', 'Rome'], ['Spain', 'Madrid']])).toBe(1);
    expect(score(capitals, { France: 'Paris', Italy: 'Rome', Spain: ' Madrid ' })).toBe(1);
  });

  it('scores the fraction of right pairs', () => {
    expect(score(capitals, { France: 'Paris', Italy: 'Madrid', Spain: 'Rome' })).toBeCloseTo(1 / 3);
    expect(score(capitals, { France: 'Paris', Italy: 'Rome', Spain: 'Lisbon' })).toBeCloseTo(2 / 3);
    expect(score({ ...capitals, answerRequire: 2 }, { France: 'Paris', Italy: 'Rome' })).toBe(1);
  });

  it('a left item paired with several right items earns nothing', () => {
    expect(score(capitals, ['France>>>Paris', 'France>>>Rome', 'Italy>>>Rome', 'Spain>>>Madrid'])).toBeCloseTo(2 / 3);
    expect(score(capitals, { France: ['Paris', 'Rome', 'Madrid'] })).toBe(0);
  });

  it('pairs are directed', () => {
    expect(score(capitals, { Paris: 'France' })).toBe(0);
  });

  it('an unreadable answer makes the question invalid', () => {
    expect(checkAnswer(q('pairing', ['France']), { France: 'Paris' })).toMatchObject({ details: { reason: 'invalid-question' } });
  });
});

describe('grouping', () => {
  const animals = q('grouping', ['mammal>>>dog', 'mammal>>>whale', 'bird>>>eagle', 'bird>>>penguin'], { options: ['oak'] });
  it('accepts a group → items object or pairs', () => {
    expect(score(animals, { mammal: ['dog', 'whale'], bird: ['eagle', 'penguin'] })).toBe(1);
    expect(score(animals, ['bird>>>penguin', 'mammal>>>dog', 'mammal>>>whale', 'bird>>>eagle'])).toBe(1);
  });

  it('scores the fraction of items in the right group', () => {
    expect(score(animals, { mammal: ['dog', 'whale', 'penguin'], bird: ['eagle'] })).toBe(0.75);
    expect(score(animals, { mammal: ['dog'] })).toBe(0.25);
  });

  it('an item put in several groups earns nothing', () => {
    expect(score(animals, { mammal: ['dog', 'whale', 'eagle'], bird: ['eagle', 'penguin'] })).toBe(0.75);
  });

  it('each distractor put in a group cancels a right item', () => {
    expect(score(animals, { mammal: ['dog', 'whale', 'oak'], bird: ['eagle', 'penguin'] })).toBe(0.75);
    expect(score(animals, { mammal: ['oak'] })).toBe(0);
  });

  it('an item may belong to several groups', () => {
    const numbers = q('grouping', ['even>>>2', 'prime>>>2', 'prime>>>3']);
    expect(score(numbers, { even: ['2'], prime: ['2', '3'] })).toBe(1);
    expect(score(numbers, { prime: ['2', '3'] })).toBeCloseTo(2 / 3);
  });
});

describe('set and set:text', () => {
  it('set: unordered numbers, answers as elements or as one set', () => {
    for (const answers of [['1', '2', '3'], ['[1;2;3]']]) {
      const question = q('set', answers);
      expect(score(question, ['3', '1', '2'])).toBe(1);
      expect(score(question, '[2;3;1]')).toBe(1);
      expect(score(question, [3, 2, 1])).toBe(1);
      expect(score(question, '{1; 2; 3}')).toBe(1);
      expect(score(question, ['1', '2', '3', '3'])).toBe(1);
      expect(score(question, ['1', '2'])).toBeCloseTo(2 / 3);
    }
  });

  it('set: an element outside the answer scores 0', () => {
    expect(checkAnswer(q('set', ['1', '2']), ['1', '2', '4'])).toMatchObject({ score: 0, details: { reason: 'wrong-selection' } });
    expect(checkAnswer(q('set', ['1', '2']), ['1', 'x'])).toMatchObject({ score: 0, details: { reason: 'wrong-selection' } });
  });

  it('set: numbers with decimals and tolerance', () => {
    expect(score(q('set', ['[1/3;-1/2]']), ['-0.5', '0.33'])).toBe(1);
    expect(score(q('set', ['[1;2]'], { tolerance: parseTolerance('ABSOLUTE:0.1')! }), ['1.1', '1.9'])).toBe(1);
    expect(score(q('set', ['[1;2]'], { tolerance: parseTolerance('ABSOLUTE:0.1')! }), ['1.2', '2'])).toBe(0);
  });

  it('set: answer_require', () => {
    expect(score(q('set', ['[1;2;3;4]'], { answerRequire: 2 }), ['4', '1'])).toBe(1);
  });

  it('set:text: compared like text', () => {
    const question = q('set:text', ['[Red;Green;Blue]']);
    expect(score(question, ['blue', 'GREEN', 'red!'])).toBe(1);
    expect(score(question, 'green&&&red&&&blue')).toBe(1);
    expect(score(question, ['red', 'green'])).toBeCloseTo(2 / 3);
    expect(score(question, ['red', 'green', 'blue', 'yellow'])).toBe(0);
  });

  it('malformed sets score 0', () => {
    expect(checkAnswer(q('set', ['[1;2]']), '[1;;2')).toMatchObject({ score: 0, details: { reason: 'malformed' } });
    expect(checkAnswer(q('set', ['[1;;2]']), '1')).toMatchObject({ score: 0, details: { reason: 'invalid-question' } });
  });
});

describe('matrix types', () => {
  it('matrix:generic compares cells exactly', () => {
    const question = q('matrix:generic', ['[a;b|c;d]']);
    expect(score(question, '[a;b|c;d]')).toBe(1);
    expect(score(question, [['a', 'b'], ['c', 'd']])).toBe(1);
    expect(score(question, ['a;b', 'c;d'])).toBe(1);
    expect(score(question, '[a;b|c;D]')).toBe(0.75);
    expect(score(question, '[a;|c;d]')).toBe(0.75);
  });

  it('matrix compares numbers with decimals and tolerance', () => {
    const question = q('matrix', ['[1;0.5|-1/3;2]']);
    expect(score(question, '[1;1/2|-0.33;2.00]')).toBe(1);
    expect(score(question, [[1, 0.5], [-0.333, 2]])).toBe(1);
    expect(checkAnswer(question, '[1;0.5|0.33;2]').details.marks).toEqual([true, true, false, true]);
    const loose = q('matrix', ['[10;20]'], { tolerance: parseTolerance('RELATIVE:10%')! });
    expect(score(loose, '[11;18]')).toBe(1);
  });

  it('matrix with QUOTIENT:SYNCED accepts any multiple of the whole matrix', () => {
    const eigenvector = q('matrix', ['[1|2]'], { tolerance: parseTolerance('QUOTIENT:SYNCED')! });
    expect(score(eigenvector, '[3|6]')).toBe(1);
    expect(score(eigenvector, '[0.5|1]')).toBe(1);
    expect(score(eigenvector, '[3|5]')).toBe(0.5);
  });

  it('matrix:expression compares cells as formulas', () => {
    const question = q('matrix:expression', ['[2x;x^2|1;0]']);
    expect(score(question, '[x+x;x*x|1;0]')).toBe(1);
    expect(score(question, '[2x;2x|1;0]')).toBe(0.75);
  });

  it('dimensions must agree', () => {
    expect(checkAnswer(q('matrix', ['[1;2|3;4]']), '[1;2;3;4]')).toMatchObject({ score: 0, details: { reason: 'wrong-size' } });
    expect(checkAnswer(q('matrix', ['[1;2|3;4]']), '[1;2|3]')).toMatchObject({ score: 0, details: { reason: 'malformed' } });
  });

  it('several answers are alternative matrices, the best counts', () => {
    const question = q('matrix', ['[1;0]', '[0|1]']);
    expect(score(question, '[0|1]')).toBe(1);
    expect(score(question, '[1;0]')).toBe(1);
    expect(score(question, '[1|1]')).toBe(0.5);
  });

  it('answer_require counts cells', () => {
    expect(score(q('matrix', ['[1;2|3;4]'], { answerRequire: 3 }), '[1;2|3;0]')).toBe(1);
  });
});

describe('free-text', () => {
  const rules = parseFreeTextRules('photosynthesis>>>50%&&&chlorophyll|chloroplast&&&light&&&wrong claim>>>-25%')!;
  const question = q('free-text', [], { freetextRules: rules, freetextWords: 5 });
  it('is semi-automatic: a provisional score, correctness left to a person', () => {
    const r = checkAnswer(question, 'Photosynthesis happens in the chloroplast, using light.');
    expect(r).toMatchObject({ score: 1, correct: null, grading: 'semi-automatic', details: { reason: 'review' } });
    expect(r.details.freeText).toEqual({ characters: 55, words: 7, matchedRules: [0, 1, 2], overLimit: true });
  });

  it('adds the weights of the matching rules, clamped to 0..1', () => {
    expect(score(question, 'It is photosynthesis.')).toBe(0.5);
    expect(score(question, 'chlorophyll')).toBe(0.25);
    expect(score(question, 'A wrong claim.')).toBe(0);
    expect(score(question, 'Photosynthesis; a WRONG   claim!')).toBe(0.25);
  });

  it('matches whole words only', () => {
    expect(score(question, 'lightning')).toBe(0);
  });

  it('without rules the provisional score is 0, still for review', () => {
    expect(checkAnswer(q('free-text', []), 'Anything')).toMatchObject({ score: 0, correct: null, grading: 'semi-automatic' });
  });

  it('an empty text needs no review', () => {
    expect(checkAnswer(question, '   ')).toMatchObject({ score: 0, correct: false, grading: 'auto' });
  });
});

describe('manual and unscored types', () => {
  it('file and hotspot wait for a person', () => {
    for (const type of ['file', 'hotspot'] as const) {
      expect(checkAnswer(q(type, []), ['upload-1'])).toMatchObject({ score: 0, correct: null, grading: 'manual', details: { reason: 'review' } });
    }
  });

  it('reading is not scored, whatever the response', () => {
    for (const response of [null, 'text', ['a']]) {
      expect(checkAnswer(q('reading', []), response)).toEqual({
        score: 0,
        correct: null,
        grading: 'none',
        points: 0,
        pointsMaximum: 0,
        details: { reason: 'not-scored' },
      });
    }
  });
});

describe('oversized responses', () => {
  it('are refused quickly instead of slowing scoring down', () => {
    const many = Array.from({ length: 5000 }, (_, i) => String(i));
    const started = Date.now();
    expect(checkAnswer(q('numerical', ['1'], { answerRequire: 1 }), many)).toMatchObject({ score: 0, details: { reason: 'malformed' } });
    expect(checkAnswer(q('set', ['1'], { tolerance: parseTolerance('QUOTIENT:SYNCED')! }), many)).toMatchObject({ score: 0 });
    expect(checkAnswer(q('multiple-choice', ['1'], { options: ['2'] }), many).score).toBe(0);
    expect(checkAnswer(q('pairing', ['a>>>b']), many.map((n) => `a>>>${n}`)).score).toBe(0);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a matrix given as ragged rows is malformed', () => {
    expect(checkAnswer(q('matrix', ['[1;2|3;4]']), [[1, 2], [3]])).toMatchObject({ score: 0, details: { reason: 'malformed' } });
  });
});
