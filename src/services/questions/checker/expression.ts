/**
 * A small, safe parser and evaluator for mathematical expressions (no eval, bounded size and
 * depth), and the equivalence test of the expression type.
 *
 * Syntax: numbers ('2', '0.5', '.5'; no exponent notation: '2e3' is 2·e·3), + - * / ^ (also ** ·
 * × ÷ and the Unicode minus; ² and ³), parentheses, unary minus (-x^2 is -(x^2)), right-associative
 * powers (2^3^2 = 2^9), functions sin cos tan asin acos atan (arcsin arccos arctan) sqrt (√) abs
 * ln log (base 10) exp, constants pi (π) and e (e is always Euler's number, never a variable).
 * Implicit multiplication: '2x', 'x(x+1)', '(x+1)(x-1)', 'xy' (= x·y); it binds like '*', so
 * 1/2x is x/2. A run of letters is read as known names (longest first) and single-letter variables:
 * 'xsin(x)' is x·sin(x), 'pix' is π·x. A letter followed by digits or by '_' and letters/digits is
 * one variable ('x1', 'x_1', 'v_max'). Variables are case-sensitive. A function without parentheses
 * applies to the following power: 'sin x^2' is sin(x^2). Other characters (=, <, ',', |) are errors.
 */

import { sameAtDecimals } from './numbers.ts';

export type Expr =
  | { type: 'num'; value: number }
  | { type: 'var'; name: string }
  | { type: 'neg'; arg: Expr }
  | { type: 'bin'; op: '+' | '-' | '*' | '/' | '^'; left: Expr; right: Expr }
  | { type: 'call'; fn: FunctionName; arg: Expr };

const FUNCTIONS = {
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  arcsin: Math.asin,
  arccos: Math.acos,
  arctan: Math.atan,
  sqrt: Math.sqrt,
  abs: Math.abs,
  ln: Math.log,
  log: Math.log10,
  exp: Math.exp,
} as const;
type FunctionName = keyof typeof FUNCTIONS;

/** Longest first, so 'arcsin' wins over 'asin'… and 'exp' over 'e'. */
const NAMES = [...Object.keys(FUNCTIONS), 'pi'].sort((a, b) => b.length - a.length);

const MAX_LENGTH = 1000;
const MAX_DEPTH = 100;

type Token =
  | { t: 'num'; value: number }
  | { t: 'var'; name: string }
  | { t: 'fn'; name: FunctionName }
  | { t: 'op'; op: '+' | '-' | '*' | '/' | '^' }
  | { t: '(' }
  | { t: ')' };

class ExprError extends Error {}

function tokenize(input: string): Token[] {
  const s = input
    .replace(/²/g, '^2')
    .replace(/³/g, '^3')
    .replace(/\*\*/g, '^')
    .replace(/[·×⋅∙]/g, '*')
    .replace(/÷/g, '/')
    .replace(/[\u2212\u2013]/g, '-')
    .replace(/√/g, 'sqrt')
    .replace(/π/g, 'pi')
    .normalize('NFKC');
  const tokens: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const num = /^(?:\d+(?:\.\d*)?|\.\d+)/.exec(s.slice(i, i + 64));
    if (num) {
      tokens.push({ t: 'num', value: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    if ('+-*/^'.includes(c)) {
      tokens.push({ t: 'op', op: c as '+' });
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      tokens.push({ t: c });
      i++;
      continue;
    }
    if (/\p{L}/u.test(c)) {
      const name = NAMES.find((n) => s.startsWith(n, i));
      if (name === 'pi') tokens.push({ t: 'num', value: Math.PI });
      else if (name) tokens.push({ t: 'fn', name: name as FunctionName });
      if (name) {
        i += name.length;
        continue;
      }
      if (c === 'e') {
        tokens.push({ t: 'num', value: Math.E });
        i++;
        continue;
      }
      const index = /^(?:\d+|_[\p{L}\d]+)/u.exec(s.slice(i + 1, i + 65));
      const v = c + (index ? index[0] : '');
      tokens.push({ t: 'var', name: v });
      i += v.length;
      continue;
    }
    throw new ExprError(`unexpected '${c}'`);
  }
  return tokens;
}

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Expr {
    const e = this.expr();
    if (this.pos !== this.tokens.length) throw new ExprError('unexpected input');
    return e;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private isOp(op: string): boolean {
    const t = this.peek();
    return t?.t === 'op' && t.op === op;
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) throw new ExprError('too deeply nested');
  }

  private expr(): Expr {
    this.enter();
    let left = this.term();
    while (this.isOp('+') || this.isOp('-')) {
      const op = (this.tokens[this.pos++] as { op: '+' | '-' }).op;
      left = { type: 'bin', op, left, right: this.term() };
    }
    this.depth--;
    return left;
  }

  /** Starts an operand: the place where implicit multiplication applies. */
  private startsOperand(): boolean {
    const t = this.peek();
    return t !== undefined && (t.t === 'num' || t.t === 'var' || t.t === 'fn' || t.t === '(');
  }

  private term(): Expr {
    let left = this.unary();
    for (;;) {
      if (this.isOp('*') || this.isOp('/')) {
        const op = (this.tokens[this.pos++] as { op: '*' | '/' }).op;
        left = { type: 'bin', op, left, right: this.unary() };
      } else if (this.startsOperand()) {
        left = { type: 'bin', op: '*', left, right: this.power() };
      } else return left;
    }
  }

  private unary(): Expr {
    if (this.isOp('-') || this.isOp('+')) {
      const minus = this.isOp('-');
      this.pos++;
      this.enter();
      const arg = this.unary();
      this.depth--;
      return minus ? { type: 'neg', arg } : arg;
    }
    return this.power();
  }

  private power(): Expr {
    const base = this.primary();
    if (!this.isOp('^')) return base;
    this.pos++;
    this.enter();
    const exponent = this.unary();
    this.depth--;
    return { type: 'bin', op: '^', left: base, right: exponent };
  }

  private primary(): Expr {
    const t = this.tokens[this.pos++];
    if (!t) throw new ExprError('unexpected end');
    switch (t.t) {
      case 'num':
        return { type: 'num', value: t.value };
      case 'var':
        return { type: 'var', name: t.name };
      case '(': {
        const e = this.expr();
        if (this.peek()?.t !== ')') throw new ExprError("missing ')'");
        this.pos++;
        return e;
      }
      case 'fn': {
        this.enter();
        const arg = this.peek()?.t === '(' ? this.primary() : this.power();
        this.depth--;
        return { type: 'call', fn: t.name, arg };
      }
      default:
        throw new ExprError('unexpected token');
    }
  }
}

/** The syntax tree of an expression, or null when it cannot be read. */
export function parseExpression(text: string): Expr | null {
  if (typeof text !== 'string' || text.length > MAX_LENGTH || text.trim() === '') return null;
  try {
    return new Parser(tokenize(text)).parse();
  } catch (e) {
    if (e instanceof ExprError || e instanceof RangeError) return null;
    throw e;
  }
}

export function expressionVariables(e: Expr, into = new Set<string>()): Set<string> {
  switch (e.type) {
    case 'var':
      into.add(e.name);
      break;
    case 'neg':
    case 'call':
      expressionVariables(e.arg, into);
      break;
    case 'bin':
      expressionVariables(e.left, into);
      expressionVariables(e.right, into);
      break;
  }
  return into;
}

/** Real-valued evaluation; outside a function's domain the result is NaN (never throws). */
export function evaluateExpression(e: Expr, vars: Readonly<Record<string, number>>): number {
  switch (e.type) {
    case 'num':
      return e.value;
    case 'var':
      return vars[e.name] ?? NaN;
    case 'neg':
      return -evaluateExpression(e.arg, vars);
    case 'call':
      return FUNCTIONS[e.fn](evaluateExpression(e.arg, vars));
    case 'bin': {
      const l = evaluateExpression(e.left, vars);
      const r = evaluateExpression(e.right, vars);
      switch (e.op) {
        case '+':
          return l + r;
        case '-':
          return l - r;
        case '*':
          return l * r;
        case '/':
          return l / r;
        case '^':
          return l ** r;
      }
    }
  }
}

/** Deterministic generator (mulberry32): the same response always gets the same grade. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const POINTS_NEEDED = 8;
const POINTS_TRIED = 64;

/**
 * Are two expressions the same function?
 * - Without variables: both values are compared like numbers, at `decimals` places ('sqrt(2)' and
 *   '1.41' are equal at 2 decimals).
 * - With variables (the union of both sides): both are evaluated at pseudo-random points (fixed
 *   seed), every variable in ±[0.1, 3] (every other point positive only, so sqrt and ln have a
 *   domain; after 32 tries the range widens to ±[0.1, 30]). Points where either side is undefined or infinite are skipped (domain differences are
 *   ignored, sqrt(x)^2 equals x); at least 8 defined points must agree within 1e-7 relative
 *   (absolute near zero), one disagreeing point is enough to refuse.
 */
export function expressionsEquivalent(a: Expr, b: Expr, decimals = 2): boolean {
  if (JSON.stringify(a) === JSON.stringify(b)) return true;
  const names = [...expressionVariables(b, expressionVariables(a))].sort();
  if (names.length === 0) {
    const va = evaluateExpression(a, {});
    const vb = evaluateExpression(b, {});
    return Number.isFinite(va) && Number.isFinite(vb) && sameAtDecimals(va, vb, decimals);
  }
  const next = random(0x5eed);
  let agreed = 0;
  for (let i = 0; i < POINTS_TRIED && agreed < POINTS_NEEDED; i++) {
    const vars: Record<string, number> = {};
    for (const n of names) {
      // A wider range for the later points, for expressions defined only away from zero.
      const magnitude = 0.1 + (i < POINTS_TRIED / 2 ? 2.9 : 29.9) * next();
      vars[n] = i % 2 === 0 || next() < 0.5 ? magnitude : -magnitude;
    }
    const va = evaluateExpression(a, vars);
    const vb = evaluateExpression(b, vars);
    if (!Number.isFinite(va) || !Number.isFinite(vb)) continue;
    if (Math.abs(va - vb) > 1e-7 * Math.max(1, Math.abs(va), Math.abs(vb))) return false;
    agreed++;
  }
  return agreed >= POINTS_NEEDED;
}
