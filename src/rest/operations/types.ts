import type { z } from 'zod';
import type { WireType } from '../../services/contract-meta.ts';

/**
 * The shape of the operation catalogue. Everything is plain, frozen data taken from the two
 * contract documents, so that the router, the tests and generated descriptions (OpenAPI, tools)
 * read one source instead of the documents.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type Area = 'foundation' | 'organizations' | 'permissions' | 'quiz' | 'exams' | 'journeys' | 'results';

/**
 * Types of the documents' type table. Inputs travel as text; `list` is comma-separated text (or
 * another `separator`) or a JSON array, `json` is JSON text (string[json]) or a native JSON value,
 * `hash` a JSON object, `file` a multipart file part or `<filename>=<base64 or URL>` text.
 */
export type ValueType = WireType;

/** Text formats the documents name: string[email], string[phone], string[url], identification strings. */
export type TextFormat = 'email' | 'phone' | 'url' | 'code';

export interface Argument {
  /** As written in the documents; `custom_{field}` stands for one argument per configured field. */
  name: string;
  required: boolean;
  /** Several types when the documents accept either (e.g. `expires`: integer days or a date). */
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
  /** Separator of a list sent as text (comma unless the documents say otherwise). */
  separator?: ',' | '&&&';
  /** The documented fields of a hash, or of each hash of a list. */
  fields?: readonly Argument[];
  /** The documented rule in words, where it is more than the fields above say. */
  note?: string;
}

export type OutputType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'list' | 'hash';

export interface OutputField {
  name: string;
  /** Absent where the documents name the field without its type. */
  type?: OutputType | readonly OutputType[];
  format?: 'url';
  nullable?: boolean;
  /** Present only in some cases ("only if set", "only for LMS integrations"). */
  optional?: boolean;
  /** Element type of a list of plain values. */
  items?: OutputType;
  /** Fields of a hash, or of each hash of a list. */
  fields?: readonly OutputField[];
}

export interface Operation {
  method: HttpMethod;
  /** Endpoint path as written in the documents, e.g. `class:members`. */
  endpoint: string;
  document: 'A' | 'B';
  /** The `###` heading of the document's Endpoints section that defines it. */
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
  /** What the operation does, in words, for OpenAPI and MCP; absent: they describe it from its shape alone. */
  prose?: string;
  /** Top-level response fields; absent where the documents define none ("Where no output is listed"). */
  output?: readonly OutputField[];
  /** What the documents leave "not shown" for this operation. */
  notShown?: readonly ('input' | 'output')[];
  /**
   * An operation this service adds where the documents name an endpoint but show no contract
   * (`exam:round`): designed here and documented in the README, not taken from the documents.
   */
  addition?: true;
}
