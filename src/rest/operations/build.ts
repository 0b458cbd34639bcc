import type { z } from 'zod';
import { contractArguments } from './from-zod.ts';
import type { Area, Argument, HttpMethod, Operation, OutputField, OutputType } from './types.ts';

type Extra = Partial<Omit<Argument, 'name' | 'required' | 'type'>>;

/** An optional text argument written by hand: only the arguments every call takes (COMMON_ARGUMENTS). */
export const text = (name: string, extra: Extra = {}): Argument => ({ name, required: false, type: 'string', ...extra });

/**
 * Output fields in a compact notation, so each entry reads like one line of the contract:
 * `users[user, name]` is a list of hashes, `content{type, code, id}` a hash, `description?` a field
 * present only in some cases, `start:datetime/null` a typed nullable field, `outcomes:string[]` a
 * list of plain values and `url` (as a type) a string[url].
 */
export function out(spec: string): readonly OutputField[] {
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`output spec ${JSON.stringify(spec)} at ${i}: ${why}`);
  };
  const skip = () => {
    while (spec[i] === ' ') i++;
  };
  const read = (re: RegExp) => {
    skip();
    const m = re.exec(spec.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    return m[0];
  };
  const scalar = (t: string): { type: OutputType; format?: 'url' } => {
    if (t === 'url') return { type: 'string', format: 'url' };
    if (!/^(string|integer|number|boolean|date|datetime|hash|list)$/.test(t)) fail(`unknown type ${t}`);
    return { type: t as OutputType };
  };
  const field = (): OutputField => {
    const name = read(/^[$a-z_][a-z0-9_]*/) ?? fail('field name expected');
    const f: { -readonly [K in keyof OutputField]: OutputField[K] } = { name };
    if (read(/^\?/)) f.optional = true;
    if (read(/^:/)) {
      const t = read(/^[a-z|]+(\[\])?(\/null)?/) ?? fail('type expected');
      const nullable = t.endsWith('/null');
      const bare = t.replace('/null', '');
      if (bare.endsWith('[]')) {
        const item = scalar(bare.slice(0, -2));
        f.type = 'list';
        f.items = item.type;
      } else {
        const types = bare.split('|').map(scalar);
        f.type = types.length === 1 ? types[0]!.type : types.map((x) => x.type);
        if (types.some((x) => x.format)) f.format = 'url';
      }
      if (nullable) f.nullable = true;
    }
    const open = read(/^[[{]/);
    if (open) {
      f.type = open === '[' ? 'list' : 'hash';
      f.fields = fields(open === '[' ? ']' : '}');
    }
    return Object.freeze(f);
  };
  const fields = (close?: string): readonly OutputField[] => {
    const result: OutputField[] = [];
    do result.push(field());
    while (read(/^,/));
    if (close && !read(close === ']' ? /^\]/ : /^\}/)) fail(`'${close}' expected`);
    return Object.freeze(result);
  };
  const result = fields();
  skip();
  if (i < spec.length) fail('unexpected text');
  return result;
}

const freezeArgument = (a: Argument): Argument => Object.freeze({ ...a, ...(a.fields ? { fields: Object.freeze(a.fields.map(freezeArgument)) } : {}) });

/** One operation per method of an endpoint, frozen, with the same arguments and output. */
export function op(
  where: { part: 'accounts' | 'assessments'; section: string; area: Area },
  endpoint: string,
  methods: HttpMethod | readonly HttpMethod[],
  shape: {
    /** The schema the service parses; the arguments are read from it (none without it). */
    input?: z.ZodType;
    output?: string | readonly OutputField[];
    notShown?: Operation['notShown'];
    addition?: true;
  } = {},
): Operation[] {
  const args = Object.freeze((shape.input ? contractArguments(shape.input) : []).map(freezeArgument));
  const output = typeof shape.output === 'string' ? out(shape.output) : shape.output;
  return (typeof methods === 'string' ? [methods] : methods).map((method) =>
    Object.freeze({
      method,
      endpoint,
      ...where,
      ...(shape.input ? { input: shape.input } : {}),
      arguments: args,
      ...(output ? { output } : {}),
      ...(shape.notShown ? { notShown: Object.freeze([...shape.notShown]) } : {}),
      ...(shape.addition ? { addition: true as const } : {}),
    }),
  );
}
