/**
 * The operation table: every REST/RPC operation (method + endpoint path) of the contract, with
 * its input (the zod schema its service parses, from which its arguments are read) and output
 * fields (see operations/types.ts); its prose is in operations/prose/.
 *
 * The router uses it to tell an unknown endpoint (400) from a method the endpoint does not
 * support (405), the input checks and tests sweep its arguments, and descriptions of the
 * contract (OpenAPI, MCP tools) are generated from it. Each issue area implements its own slice.
 *
 * Deliberately absent:
 * - GET `exam:journey`: the contract names it, but does not define it. GET/POST `exam:round` and
 *   POST `exam:certificates`, named the same way, are in `additions`: designed by this service
 *   and described in their prose in the reference (/api/docs).
 * - the journey user-state record: its path and method are not shown.
 * - metrics endpoints (the contract does not define them).
 */
import type { Argument, HttpMethod, Operation } from './operations/types.ts';
import { accountOperations } from './operations/accounts.ts';
import { assessmentOperations, assessmentAdditions } from './operations/assessments.ts';
import { text } from './operations/build.ts';

export type { Area, Argument, HttpMethod, Operation, OutputField, OutputType, TextFormat, ValueType } from './operations/types.ts';
export { PERMISSION_LEVELS, PERMISSION_PREFIXES, TAGGABLE_TYPES } from './operations/accounts.ts';
export { NOT_SHOWN_ENDPOINTS } from './operations/assessments.ts';

/** Canonical method order (also the order used by `allowedMethods`, e.g. for `Allow`). */
export const HTTP_METHODS: readonly HttpMethod[] = Object.freeze(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Arguments every call may carry (credentials, an assumed user, the version). The credentials
 * may travel as headers instead (`Authorization: Bearer <app>:<secret>`, `Service-API-App`,
 * `Service-API-Secret`); `app` and `secret` are required in one of the forms.
 */
export const COMMON_ARGUMENTS: readonly Argument[] = Object.freeze(
  [
    text('app', { note: 'application identification string; or the Authorization or Service-API-App header' }),
    text('secret', { note: 'application secret; or the Authorization or Service-API-Secret header' }),
    text('assume', { note: 'token of POST user:assume: the call acts as that user' }),
    text('version', { note: 'numeric or text; the path form /v<XX> is recommended' }),
  ].map((a) => Object.freeze(a)),
);

const key = (method: string, endpoint: string): string => `${method.toUpperCase()} ${endpoint}`;

/** Every operation the contract defines (194), in its order. */
export const documentedOperations: readonly Operation[] = Object.freeze([...accountOperations, ...assessmentOperations]);

/** Operations this service adds where the contract names an endpoint but does not define it (marked `addition`). */
export const additions: readonly Operation[] = Object.freeze([...assessmentAdditions]);

/** What the router serves: the documented operations and the additions. */
export const operations: readonly Operation[] = Object.freeze([...documentedOperations, ...additions]);

// ---------------------------------------------------------------------------
// Lookups (built once)
// ---------------------------------------------------------------------------

const byKey: ReadonlyMap<string, Operation> = new Map(operations.map((o) => [key(o.method, o.endpoint), o]));

const methodsByEndpoint: ReadonlyMap<string, readonly HttpMethod[]> = (() => {
  const m = new Map<string, Set<HttpMethod>>();
  for (const o of operations) {
    let set = m.get(o.endpoint);
    if (!set) m.set(o.endpoint, (set = new Set()));
    set.add(o.method);
  }
  return new Map([...m].map(([ep, set]) => [ep, HTTP_METHODS.filter((x) => set.has(x))]));
})();

/** Every distinct endpoint path of the catalogue. */
export const endpoints: readonly string[] = Object.freeze([...methodsByEndpoint.keys()]);

/** True when the endpoint exists with any method (otherwise the call is a 400). */
export function isKnownEndpoint(endpoint: string): boolean {
  return methodsByEndpoint.has(endpoint);
}

/**
 * Methods the endpoint supports, in canonical order (GET, POST, PUT, PATCH, DELETE);
 * empty for an unknown endpoint.
 */
export function allowedMethods(endpoint: string): HttpMethod[] {
  return [...(methodsByEndpoint.get(endpoint) ?? [])];
}

/** The operation for a method and endpoint (method matched case-insensitively), if defined. */
export function findOperation(method: string, endpoint: string): Operation | undefined {
  return byKey.get(key(method, endpoint));
}
