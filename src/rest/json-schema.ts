import type { Argument, Operation, OutputField, OutputType, ValueType } from './operations.ts';

/**
 * JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1 and of MCP tool schemas) for the operation
 * catalogue: one mapping from documented arguments and output fields, used by the OpenAPI
 * description and by the MCP tools, so the two cannot tell different stories.
 */
export type JsonSchema = Record<string, unknown>;

/** `GET user:me` → `get_user_me`: an OpenAPI operationId and an MCP tool name (letters, digits, `_`, `-`). */
export function operationId(operation: Pick<Operation, 'method' | 'endpoint'>): string {
  return `${operation.method.toLowerCase()}_${operation.endpoint.replace(/:/g, '_')}`;
}

/** Arguments named `custom_{field}` stand for any number of `custom_<name>` arguments. */
export const isCustomFieldPattern = (argument: Argument) => argument.name.includes('{');

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const DATETIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}(:\\d{2})?';

function scalar(type: ValueType, argument: Argument): JsonSchema {
  switch (type) {
    case 'string': {
      const s: JsonSchema = { type: 'string' };
      if (argument.format === 'email') s.format = 'email';
      if (argument.format === 'url') s.format = 'uri';
      if (argument.format === 'phone') s.description = "'+prefix number'";
      if (argument.values) s.enum = [...argument.values];
      if (argument.min !== undefined) s.minLength = argument.min;
      if (argument.max !== undefined) s.maxLength = argument.max;
      if (argument.pattern !== undefined) s.pattern = argument.pattern;
      return s;
    }
    case 'integer':
    case 'number': {
      const s: JsonSchema = { type };
      if (argument.min !== undefined) s.minimum = argument.min;
      if (argument.max !== undefined) s.maximum = argument.max;
      return s;
    }
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date', pattern: DATE_PATTERN };
    case 'datetime':
      return { type: 'string', pattern: DATETIME_PATTERN, description: 'YYYY-MM-DD HH:ii:ss, in UTC' };
    case 'list': {
      const item = objectOf(argument) ?? scalar(argument.items ?? 'string', { ...argument, min: undefined, max: undefined, values: undefined });
      const array: JsonSchema = { type: 'array', items: item };
      if (argument.min !== undefined) array.minItems = argument.min;
      if (argument.max !== undefined) array.maxItems = argument.max;
      // Objects travel only as JSON: no separated text form.
      if (argument.fields || argument.jsonSchema) return array;
      const separator = argument.separator ?? ',';
      return { anyOf: [array, { type: 'string', description: `items separated by '${separator}'` }] };
    }
    case 'hash':
      return objectOf(argument) ?? { type: 'object' };
    case 'json':
      return { description: 'JSON text, or the JSON value itself in a JSON body' };
    case 'file':
      return {
        anyOf: [
          { type: 'string', contentMediaType: 'application/octet-stream', description: 'a file part of a multipart form' },
          { type: 'string', description: "'<filename>=<base64 data or http(s) URL>'" },
        ],
      };
  }
}

/** A hash (or each hash of a list) with what is known of its fields: from zod, or the domain's own JSON Schema. */
function objectOf(argument: Argument): JsonSchema | undefined {
  if (argument.fields) return hashSchema(argument.fields);
  return argument.jsonSchema ? { ...argument.jsonSchema } : undefined;
}

function hashSchema(fields: readonly Argument[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const f of fields) properties[f.name] = argumentSchema(f);
  const required = fields.filter((f) => f.required).map((f) => f.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

const words = (name: string) => name.replace(/_/g, ' ');

/** What an argument is, from its type alone: said where nothing more specific is. */
function typeDescription(argument: Argument, types: readonly ValueType[]): string {
  if (argument.format === 'code') return types.includes('list') ? `identification strings (${words(argument.name)})` : `identification string of the ${words(argument.name)}`;
  if (argument.values) return `one of ${argument.values.join(', ')}`;
  const type = types[0];
  if (type === 'integer') return 'a whole number';
  if (type === 'number') return "a number, '.' as decimal separator";
  if (type === 'boolean') return 'true or false';
  if (type === 'date') return 'a date, YYYY-MM-DD';
  if (type === 'hash') return 'a JSON object';
  if (argument.format === 'email') return 'an email address';
  if (argument.format === 'url') return 'a URL';
  return words(argument.name);
}

/** The schema of one argument; every argument is described, by its note or else by its type. */
export function argumentSchema(argument: Argument): JsonSchema {
  const types = typeof argument.type === 'string' ? [argument.type] : argument.type;
  const schema = types.length === 1 ? scalar(types[0]!, argument) : { anyOf: types.map((t) => scalar(t, argument)) };
  if (argument.default !== undefined) schema.default = argument.default;
  const description = [schema.description, argument.note].filter(Boolean).join('; ');
  schema.description = description || typeDescription(argument, types);
  return schema;
}

/**
 * The arguments of an operation as one object schema (a JSON or form body, an MCP tool's input).
 * `custom_{field}` becomes a pattern of property names; `extra` adds arguments every call may send.
 */
export function argumentsSchema(operation: Operation, extra: readonly Argument[] = []): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const patternProperties: Record<string, JsonSchema> = {};
  for (const argument of [...operation.arguments, ...extra]) {
    if (isCustomFieldPattern(argument)) patternProperties['^custom_[a-z0-9_]+$'] = argumentSchema({ ...argument, name: 'custom_' });
    else properties[argument.name] = argumentSchema(argument);
  }
  const required = operation.arguments.filter((a) => a.required && !isCustomFieldPattern(a)).map((a) => a.name);
  return {
    type: 'object',
    properties,
    ...(Object.keys(patternProperties).length ? { patternProperties } : {}),
    ...(required.length ? { required } : {}),
  };
}

/** A hash of the output (or each hash of a list): its listed fields, and what the domain's JSON Schema adds. */
function outputHash(field: OutputField): JsonSchema | undefined {
  const listed = field.fields && outputObject(field.fields);
  const own = field.jsonSchema && { ...field.jsonSchema };
  return listed && own ? { allOf: [listed, own] } : (listed ?? own);
}

function outputType(type: OutputType, field: OutputField): JsonSchema {
  switch (type) {
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', description: 'YYYY-MM-DD HH:ii:ss, in UTC' };
    case 'list': {
      const item = outputHash(field) ?? (field.items && outputType(field.items, { name: field.name }));
      return { type: 'array', ...(item ? { items: item } : {}) };
    }
    case 'hash':
      return outputHash(field) ?? { type: 'object' };
    case 'string':
      return field.format === 'url' ? { type: 'string', format: 'uri' } : { type: 'string' };
    default:
      return { type };
  }
}

/** One output field; a field the contract names without a type is any JSON value. */
export function outputFieldSchema(field: OutputField): JsonSchema {
  const types = field.type === undefined ? [] : typeof field.type === 'string' ? [field.type] : field.type;
  const variants = types.map((t) => outputType(t, field));
  if (field.nullable) variants.push({ type: 'null' });
  if (variants.length === 0) return {};
  return variants.length === 1 ? variants[0]! : { anyOf: variants };
}

/** The documented fields of a response (or of each element of a list); fields present only in some cases are not required. */
export function outputObject(fields: readonly OutputField[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const f of fields) properties[f.name] = outputFieldSchema(f);
  const required = fields.filter((f) => !f.optional).map((f) => f.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}
