import { z } from 'zod';
import { wire, type WireMeta } from '../../services/contract-meta.ts';
import { toContractName } from '../names.ts';
import type { Argument, ValueType } from './types.ts';

/**
 * The contract arguments of an operation, read from the zod schema its service parses: names (in
 * snake_case), whether each is required, its wire type and limits from zod, and what zod cannot
 * say (a date, a separator, a stated default) from the schema's contract metadata and description.
 */

type Shape = Omit<Argument, 'name' | 'required' | 'type'> & { type?: Argument['type'] };

/** zod's JSON Schema of one node (its parsed side); unrepresentable parts are left open. */
function jsonOf(schema: z.ZodType): Record<string, unknown> {
  try {
    return z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** A bound worth stating: not one of the whole-number limits every integer has. */
const bound = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && Math.abs(n) < Number.MAX_SAFE_INTEGER ? n : undefined);

function leaf(schema: z.ZodType, type: ValueType): Shape {
  const json = jsonOf(schema);
  const shape: Shape = { type };
  const min = bound(json.minLength ?? json.minimum ?? json.minItems);
  const max = bound(json.maxLength ?? json.maximum ?? json.maxItems);
  if (min !== undefined && !(type === 'string' && min === 0)) shape.min = min;
  if (max !== undefined && !(type === 'string' && max === 65535)) shape.max = max;
  if (typeof json.pattern === 'string') shape.pattern = json.pattern;
  if (json.format === 'email') shape.format = 'email';
  if (Array.isArray(json.enum)) shape.values = json.enum.map(String);
  return shape;
}

const typesOf = (s: Shape): ValueType[] => (s.type === undefined ? [] : typeof s.type === 'string' ? [s.type] : [...s.type]);

/** Two views of one value (the sides of a pipe, the options of a union): every type, every limit. */
function merge(a: Shape, b: Shape): Shape {
  const types = [...new Set([...typesOf(a), ...typesOf(b)])];
  const merged: Shape = { ...a, ...Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) };
  merged.type = types.length === 0 ? undefined : types.length === 1 ? types[0] : types;
  return merged;
}

/**
 * A pipe's sides describe one value: the type it ends as, with the limits of both sides. A list or
 * hash read from JSON text (`json().pipe(...)`) still travels as that text in a form.
 */
function pipe(inner: Shape, outer: Shape): Shape {
  const shape = { ...inner, ...Object.fromEntries(Object.entries(outer).filter(([, v]) => v !== undefined)) };
  shape.type = outer.type ?? inner.type;
  if (typesOf(inner).includes('json') && (outer.type === 'list' || outer.type === 'hash')) shape.type = [outer.type, 'json'];
  return shape;
}

/** The options of a union: a pattern holds only if every option has one (`''` or a pattern accepts the empty text). */
function union(options: Shape[]): Shape {
  const shape = options.reduce(merge, {});
  if (options.some((o) => o.pattern === undefined)) delete shape.pattern;
  return shape;
}

function shapeOf(schema: z.ZodType): Shape {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  let shape: Shape;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      shape = shapeOf(def.innerType as z.ZodType);
      break;
    case 'default':
    case 'prefault': {
      shape = shapeOf(def.innerType as z.ZodType);
      const value = typeof def.defaultValue === 'function' ? undefined : def.defaultValue;
      if (['string', 'number', 'boolean'].includes(typeof value)) shape.default = value as string | number | boolean;
      break;
    }
    case 'pipe':
      shape = pipe(shapeOf(def.in as z.ZodType), shapeOf(def.out as z.ZodType));
      break;
    case 'union':
      shape = union((def.options as z.ZodType[]).map(shapeOf));
      break;
    case 'string':
      shape = leaf(schema, 'string');
      break;
    case 'number':
      shape = leaf(schema, jsonOf(schema).type === 'integer' ? 'integer' : 'number');
      break;
    case 'boolean':
      shape = { type: 'boolean' };
      break;
    case 'enum':
    case 'literal':
      shape = leaf(schema, 'string');
      break;
    case 'date':
      shape = { type: 'date' };
      break;
    case 'array': {
      const item = shapeOf(def.element as z.ZodType);
      shape = { ...leaf(schema, 'list'), separator: ',' };
      delete shape.pattern;
      delete shape.values;
      if (item.fields) {
        shape.items = 'hash';
        shape.fields = item.fields;
      } else {
        const itemType = typesOf(item)[0];
        shape.items = itemType ?? 'string';
        if (item.format) shape.format = item.format;
        if (item.values) shape.values = item.values;
      }
      break;
    }
    case 'object':
      shape = { type: 'hash', fields: contractArguments(schema as z.ZodObject) };
      break;
    case 'record':
      shape = { type: 'hash' };
      break;
    default:
      shape = {};
  }
  return withMeta(schema, shape);
}

/** What the schema's own metadata adds: it says more than the type zod sees. */
function withMeta(schema: z.ZodType, shape: Shape): Shape {
  const meta: WireMeta | undefined = wire.get(schema);
  const description = z.globalRegistry.get(schema)?.description;
  const result: Shape = { ...shape };
  if (meta?.type) {
    result.type = meta.type;
    // Said of another type than the metadata's, zod's limits and list details describe nothing sent.
    const types = typesOf(result);
    if (!types.some((t) => typesOf(shape).includes(t))) for (const key of ['min', 'max', 'pattern', 'values'] as const) delete result[key];
    if (!types.includes('list')) {
      delete result.items;
      delete result.separator;
    }
  }
  if (meta?.format) result.format = meta.format;
  if (meta?.separator) result.separator = meta.separator;
  if (meta?.min !== undefined) result.min = meta.min;
  if (meta?.max !== undefined) result.max = meta.max;
  if (meta?.default !== undefined) result.default = meta.default;
  if (meta?.jsonSchema) result.jsonSchema = meta.jsonSchema;
  if (description !== undefined) result.note = description;
  if (meta?.type === 'date' || meta?.type === 'datetime') delete result.pattern;
  return result;
}

/** Required: the service refuses the call without it (a default or an optional makes it optional). */
const isRequired = (schema: z.ZodType) => wire.get(schema)?.required === true || !schema.safeParse(undefined).success;

/** The object a schema parses its input with: itself, or the first step of a pipe (an object reshaped afterwards). */
export function inputObject(schema: z.ZodType): z.ZodObject {
  const def = schema._zod.def as unknown as { type: string; in?: z.ZodType };
  if (def.type === 'object') return schema as z.ZodObject;
  if (def.type === 'pipe' && def.in) return inputObject(def.in);
  throw new Error(`an operation's input must be a zod object, not ${def.type}`);
}

/** The arguments of a zod object, in its field order; `customFields` stands for `custom_{field}`. */
export function contractArguments(schema: z.ZodType): Argument[] {
  return Object.entries(inputObject(schema).shape as Record<string, z.ZodType>).map(([key, field]) => {
    const shape = shapeOf(field);
    const name = key === 'customFields' ? 'custom_{field}' : toContractName(key);
    const type = key === 'customFields' ? 'string' : (shape.type ?? 'json');
    const argument: Argument = { name, required: isRequired(field), ...shape, type };
    if (key === 'customFields') {
      delete argument.fields;
      argument.note ??= 'one argument per custom field configured on the instance';
    }
    if (argument.required) delete argument.default;
    return argument;
  });
}
