import type { z } from 'zod';
import type { WireType } from '../../services/contract-meta.ts';

/**
 * The shape of the operation catalogue: one frozen entry per operation of the REST/RPC contract,
 * with the input schema its service parses, so that the router, the tests and the generated
 * descriptions (OpenAPI, tools) read one source.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type Area = 'foundation' | 'organizations' | 'permissions' | 'quiz' | 'exams' | 'journeys' | 'results';

/**
 * Types of the contract's arguments. Inputs travel as text; `list` is comma-separated text (or
 * another `separator`) or a JSON array, `json` is JSON text (string[json]) or a native JSON value,
 * `hash` a JSON object, `file` a multipart file part or `<filename>=<base64 or URL>` text.
 */
export type ValueType = WireType;

/** Text formats of the contract: string[email], string[phone], string[url], identification strings. */
export type TextFormat = 'email' | 'phone' | 'url' | 'code';

export interface Argument {
  /** As the contract names it; `custom_{field}` stands for one argument per configured field. */
  name: string;
  required: boolean;
  /** Several types when the contract accepts either (e.g. `expires`: integer days or a date). */
  type: ValueType | readonly ValueType[];
  format?: TextFormat;
  /** Text: length; integer and number: value; list: item count. */
  min?: number;
  max?: number;
  /** A regular expression the text must match (from the service's schema). */
  pattern?: string;
  /** The documented values, when the argument takes one of a fixed set. */
  values?: readonly string[];
  default?: string | number | boolean;
  /** Element type of a list. */
  items?: ValueType;
  /** Separator of a list sent as text (comma unless said otherwise). */
  separator?: ',' | '&&&';
  /** The documented fields of a hash, or of each hash of a list. */
  fields?: readonly Argument[];
  /** The JSON Schema of a hash, or of each item of a list, where the domain keeps one (instead of `fields`). */
  jsonSchema?: Readonly<Record<string, unknown>>;
  /** The documented rule in words, where it is more than the fields above say. */
  note?: string;
}

export type OutputType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'list' | 'hash';

export interface OutputField {
  name: string;
  /** Absent where the contract names the field without its type. */
  type?: OutputType | readonly OutputType[];
  format?: 'url';
  nullable?: boolean;
  /** Present only in some cases ("only if set", "only for LMS integrations"). */
  optional?: boolean;
  /** Element type of a list of plain values. */
  items?: OutputType;
  /** Fields of a hash, or of each hash of a list. */
  fields?: readonly OutputField[];
  /** The JSON Schema the domain keeps for a hash (or each item of a list): what it says of the fields inside. */
  jsonSchema?: Readonly<Record<string, unknown>>;
}

export interface Operation {
  method: HttpMethod;
  /** Endpoint path, e.g. `class:members`. */
  endpoint: string;
  /** The part of the contract it belongs to: accounts and access, or assessments. */
  part: 'accounts' | 'assessments';
  /** The group of operations it belongs to (an OpenAPI tag), e.g. `Users`. */
  section: string;
  /** the issue area that implements it */
  area: Area;
  /**
   * The zod schema the service parses the call's arguments with (or one built from the schemas it
   * parses): the one source of the arguments below, of OpenAPI and of the MCP tool's input.
   */
  input?: z.ZodType;
  /** Arguments besides the credentials and `version` (see COMMON_ARGUMENTS): from `input` where it is set. */
  arguments: readonly Argument[];
  /** Top-level response fields; absent where the contract defines none. */
  output?: readonly OutputField[];
  /** What the contract leaves undefined for this operation. */
  notShown?: readonly ('input' | 'output')[];
  /**
   * An operation this service adds where the contract names an endpoint but does not define it
   * (`exam:round`): designed here and described in the reference (/api/docs).
   */
  addition?: true;
}
