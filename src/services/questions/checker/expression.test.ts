import { describe, expect, it } from 'vitest';
import { evaluateExpression, expressionVariables, expressionsEquivalent, parseExpression } from './expression.ts';

const value = (text: string, vars: Record<string, number> = {}) => evaluateExpression(parseExpression(text)!, vars);
const same = (a: string, b: string, decimals?: number) => expressionsEquivalent(parseExpression(a)!, parseExpression(b)!, decimals);

describe('parseExpression and evaluateExpression', () => {
  it.each([
    ['1+2*3', 7],
    ['(1+2)*3', 9],
    ['2^3^2', 512],
    ['-2^2', -4],
    ['(-2)^2', 4],
    ['2^-1', 0.5],
    ['8/4/2', 1],
    ['10-4-3', 3],
    ['--3', 3],
    ['+3', 3],
    ['2(3+1)', 8],
    ['(1+1)(2+1)', 6],
    ['1/2x', 1.5],
    ['2**3', 8],
    ['3·4', 12],
    ['3×4', 12],
    ['8÷2', 4],
    ['5−2', 3],
    ['x²', 9],
    ['√(16)', 4],
    ['√16', 4],
    ['sqrt(2)^2', 2],
    ['abs(-3)', 3],
    ['ln(e)', 1],
    ['log(1000)', 3],
    ['exp(0)', 1],
    ['sin(pi/2)', 1],
    ['cos(0)', 1],
    ['tan(0)', 0],
    ['arcsin(1)', Math.PI / 2],
    ['atan(1)', Math.PI / 4],
    ['2pi', 2 * Math.PI],
    ['π', Math.PI],
    ['sin x^2', Math.sin(9)],
    ['xsin(x)', 3 * Math.sin(3)],
    ['.5x', 1.5],
  ])('%s', (text, expected) => {
    expect(value(text, { x: 3 })).toBeCloseTo(expected, 10);
  });

  it('reads letter runs as names and single-letter variables', () => {
    expect([...expressionVariables(parseExpression('xy + x1 + x_1 + v_max + α')!)].sort()).toEqual(['v_max', 'x', 'x1', 'x_1', 'y', 'α']);
    expect([...expressionVariables(parseExpression('pix + ex')!)]).toEqual(['x']);
    expect(value('xy', { x: 2, y: 5 })).toBe(10);
  });

  it('keeps variables case-sensitive', () => {
    expect([...expressionVariables(parseExpression('X + x')!)].sort()).toEqual(['X', 'x']);
  });

  it.each(['', '   ', '1+', '(1+2', '1+2)', '*3', 'x = 2', 'a, b', '|x|', 'sin', '2^', '1 # 2', 'x'.repeat(1001)])('%j is refused', (text) => {
    expect(parseExpression(text)).toBeNull();
  });

  it('refuses absurd nesting without overflowing the stack', () => {
    expect(parseExpression('('.repeat(500) + 'x' + ')'.repeat(500))).toBeNull();
    expect(parseExpression('-'.repeat(500) + 'x')).toBeNull();
    expect(parseExpression('('.repeat(20) + 'x' + ')'.repeat(20))).not.toBeNull();
  });

  it('gives NaN outside a domain instead of throwing', () => {
    expect(value('sqrt(-1)')).toBeNaN();
    expect(value('ln(y)')).toBeNaN();
    expect(value('1/0')).toBe(Infinity);
  });
});

describe('expressionsEquivalent', () => {
  it.each([
    ['(x+1)^2', 'x^2+2x+1'],
    ['(x+1)^2', 'x^2 + 2*x + 1'],
    ['x^2-1', '(x-1)(x+1)'],
    ['sin(x)^2 + cos(x)^2', '1'],
    ['2sin(x)cos(x)', 'sin(2x)'],
    ['ln(x*y)', 'ln(x) + ln(y)'],
    ['sqrt(x)^2', 'x'],
    ['e^(2x)', 'exp(x)^2'],
    ['(a+b)/2', 'a/2 + b/2'],
    ['x/2', '1/2x'],
    ['sqrt(x-5)', 'sqrt(x-5)'],
    ['1/(x-5)^(1/2)', '(x-5)^(-1/2)'],
  ])('%s equals %s', (a, b) => {
    expect(same(a, b)).toBe(true);
    expect(same(b, a)).toBe(true);
  });

  it.each([
    ['(x+1)^2', 'x^2+1'],
    ['(x+1)^2', 'x^2+2x+2'],
    ['x+1', 'y+1'],
    ['x', 'X'],
    ['sin(x)', 'cos(x)'],
    ['x^2', 'x^2 + 0.000001'],
    ['2x', 'x^2'],
    ['1/(2x)', '1/2x'],
  ])('%s differs from %s', (a, b) => {
    expect(same(a, b)).toBe(false);
  });

  it('compares constant expressions at the decimals', () => {
    expect(same('sqrt(2)', '1.41')).toBe(true);
    expect(same('sqrt(2)', '1.41', 3)).toBe(false);
    expect(same('sqrt(2)', '1.414', 3)).toBe(true);
    expect(same('1/3', '0.33')).toBe(true);
    expect(same('pi', '22/7')).toBe(true);
    expect(same('pi', '22/7', 3)).toBe(false);
    expect(same('1/0', '1/0')).toBe(true);
    expect(same('1/0', '2/0')).toBe(false);
  });

  it('refuses expressions that are undefined everywhere it looks', () => {
    expect(same('sqrt(-x^2-1)', 'ln(-x^2-1)')).toBe(false);
  });

  it('is deterministic', () => {
    const results = Array.from({ length: 5 }, () => same('tan(x)', 'sin(x)/cos(x)'));
    expect(new Set(results)).toEqual(new Set([true]));
  });
});
