import { GraphQLError } from 'graphql';
import { AppError, ArgumentError, JourneyInvalidError, knownError, RateLimitError } from '../errors.ts';
import { rateLimitHeaders } from '../rate-limit.ts';

/**
 * graphql ships a CommonJS and an ES build; where both get loaded (a bundler or test runner
 * resolving differently from node) `instanceof GraphQLError` misses the other copy's errors. The
 * class's toStringTag is the same in both, subclasses included.
 */
export function isGraphQLError(error: unknown): error is GraphQLError {
  return error instanceof GraphQLError || Object.prototype.toString.call(error) === '[object GraphQLError]';
}

/**
 * Variables that do not fit the schema (a required field left out, a value of the wrong type) are
 * refused by graphql before any service runs. They get the codes the service would have given, so
 * a dashboard handles every bad argument alike: MISSING_ARGUMENT or INVALID_ARGUMENT, naming the
 * argument as the service does (fields of an input object by their own name: `$input.email` is
 * `email`). The messages are graphql-js 16's (values.js, coerceInputValue.js).
 */
export function argumentProblem(message: string): { code: string; argument: string } | undefined {
  const m = /^Variable "\$(\w+)" ([\s\S]*)$/.exec(message);
  if (!m) return undefined;
  const [, variable, rest] = m as unknown as [string, string, string];
  if (/^of (required|non-null) type /.test(rest)) return { code: 'MISSING_ARGUMENT', argument: variable };
  const path = (/^got invalid value [\s\S]*? at "([^"]+)"; /.exec(rest)?.[1] ?? variable).split('.').slice(1);
  const field = /; Field "(\w+)" of required type "[^"]+" was not provided\.$/.exec(rest)?.[1];
  if (field) return { code: 'MISSING_ARGUMENT', argument: [...path, field].join('.') };
  const nulled = /; Expected non-nullable type "[^"]+" not to be null\.$/.test(rest);
  return { code: nulled ? 'MISSING_ARGUMENT' : 'INVALID_ARGUMENT', argument: path.join('.') || variable };
}

/**
 * Service errors reach clients as `extensions.code` (plus the REST status and the argument at
 * fault); anything else is an internal error and is masked, with the request id for the logs.
 */
export function maskError(error: unknown, requestId?: string): Error {
  const wrapped = isGraphQLError(error);
  const original = knownError(wrapped ? error.originalError : error) ?? (wrapped ? error.originalError : error);
  const location = wrapped ? { nodes: error.nodes, path: error.path } : {};
  if (original instanceof AppError) {
    // Refused before execution (credentials, maintenance): the response itself takes the status.
    const retryAfter = 'retryAfter' in original ? Number(original.retryAfter) : undefined;
    const headers = retryAfter
      ? { 'Retry-After': String(retryAfter), ...(original instanceof RateLimitError ? rateLimitHeaders(original.state) : {}) }
      : undefined;
    const http = !wrapped || original.status === 401 ? { status: original.status, ...(headers ? { headers } : {}) } : undefined;
    return new GraphQLError(original.message, {
      ...location,
      extensions: {
        code: original.code,
        status: original.status,
        ...(original instanceof ArgumentError ? { argument: original.argument } : {}),
        ...(retryAfter ? { retryAfter } : {}),
        ...(original instanceof JourneyInvalidError ? original.extra : {}),
        ...(http ? { http } : {}),
      },
    });
  }
  if (wrapped) {
    const problem = argumentProblem(error.message);
    if (problem) return new GraphQLError(error.message, { ...location, extensions: { ...error.extensions, ...problem, status: 403 } });
    // Parse and validation errors of the operation, and errors graphql raises on purpose (a bad
    // scalar value), are the client's to see; Pothos's own errors are schema faults and are not.
    const onPurpose = original === undefined || original === null || (isGraphQLError(original) && !original.name.startsWith('Pothos'));
    if (onPurpose) return error;
  }
  return new GraphQLError('Unexpected error', {
    ...location,
    extensions: { code: 'INTERNAL_ERROR', ...(requestId ? { requestId } : {}) },
  });
}
