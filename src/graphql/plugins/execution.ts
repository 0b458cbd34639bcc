import { GraphQLError, execute, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RateLimiter } from '../../rate-limit.ts';
import { variablesError, withCursorErrors } from './input-hygiene.ts';
import { spendCost, type GraphQLLimits } from './limits.ts';

export type Execute = (args: ExecutionArgs) => ExecutionResult | Promise<ExecutionResult>;

/**
 * How an operation executes, on both paths: yoga's (useExecution makes it yoga's execute
 * function) and the fast path (yoga.ts calls it directly):
 * 1. variables with bad text, or paging out of range, are refused (input-hygiene.ts);
 * 2. an operation over the cost limit is refused, and its cost is spent from the application's
 *    rate limit (limits.ts);
 * 3. graphql-js's own `execute` runs it: the operations here need none of
 *    @graphql-tools/executor's extras (incremental delivery, cancellation), and it is markedly
 *    cheaper per operation;
 * 4. cursors Pothos could not read are reported as bad input.
 * One function, not an execute hook per concern: envelop runs each hook through promise helpers
 * and fresh closures on every request, which cost more than these checks on a small operation.
 * Masking errors stays yoga's (the fast path masks with the same function).
 */
export function createExecute(limits: GraphQLLimits, limiter: RateLimiter): Execute {
  return (args) => {
    const refused = variablesError(args) ?? spendCost(limits, limiter, args);
    if (refused === undefined) return run(args);
    if (refused instanceof GraphQLError) return { errors: [refused] };
    return refused.then((error) => (error ? { errors: [error] } : run(args)));
  };
}

function run(args: ExecutionArgs): ExecutionResult | Promise<ExecutionResult> {
  const result = execute(args);
  return result instanceof Promise ? result.then(withCursorErrors) : withCursorErrors(result);
}

/** `execute` as yoga's execute function. */
export const useExecution = (executeOperation: Execute): Plugin => ({
  onExecute: ({ setExecuteFn }) => setExecuteFn(executeOperation as Parameters<typeof setExecuteFn>[0]),
});
