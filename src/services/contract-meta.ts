import { z } from 'zod';

/**
 * How an input travels on the REST/RPC contract where zod's own type does not say it: a date
 * (zod sees a Date), JSON text, a file, a list with another separator, an identification string.
 * The operation table reads it, with the schema's `.describe()` text, to describe each argument
 * in OpenAPI and MCP; parsing never looks at it.
 */
export type WireType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'list' | 'hash' | 'json' | 'file';

export interface WireMeta {
  /** Several types when either is accepted (e.g. whole days or a date). */
  type?: WireType | readonly WireType[];
  format?: 'email' | 'phone' | 'url' | 'code';
  /** Separator of a list sent as text (comma unless said otherwise). */
  separator?: ',' | '&&&';
  /** Limits the service checks after parsing (text: length; numbers: value; lists: item count). */
  min?: number;
  max?: number;
  /** Required although the schema lets it be absent: the service refuses its absence itself (a file read after parsing). */
  required?: true;
  /** The default the contract states where the schema leaves the value unset instead. */
  default?: string | number | boolean;
  /**
   * The JSON Schema of the value (of each item, for a list) where its domain keeps one and the
   * service checks it by hand rather than with zod (the journey format: every problem at once).
   */
  jsonSchema?: Readonly<Record<string, unknown>>;
}

export const wire = z.registry<WireMeta>();

/** `schema`, described for the contract: how it travels and what it means. */
export function contract<S extends z.ZodType>(schema: S, meta: WireMeta & { description?: string }): S {
  const { description, ...how } = meta;
  // A copy: the schema may be shared, and what is said here is said of this use of it. The copy
  // inherits what was said of the original (zod registries follow a clone to its parent).
  const described = (description === undefined ? schema.clone() : schema.describe(description)) as S;
  wire.add(described, how);
  return described;
}
