import {
  GraphQLError,
  getNamedType,
  getNullableType,
  isLeafType,
  isListType,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLField,
  type GraphQLSchema,
  validate,
  type ValidationContext,
} from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import type { Plugin } from 'graphql-yoga';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import type { Context } from '../../context.ts';
import { RateLimitError, type RateLimitState } from '../../errors.ts';
import type { RateLimiter } from '../../rate-limit.ts';
import { maskError } from '../errors.ts';

/** The limits every operation is held to; the defaults and variables are in config.ts and the guide (http/guide.md). The token limit is input-hygiene.ts's. */
export interface GraphQLLimits {
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxDirectives: number;
  maxCost: number;
  /** Cost that spends one point of the application's rate limit (one REST call). */
  costPerPoint: number;
}

/** Page size a connection gets without `first`/`last`, and the most it returns (plugin-relay's defaults). */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Plain lists (not connections) have no size argument: this many items are assumed. */
export const ASSUMED_LIST_SIZE = 10;

/**
 * A GraphQL error for an operation over a limit, shaped like a validation error (yoga's
 * `http.spec`): 400 with application/graphql-response+json, 200 with application/json.
 */
export function limitError(code: string, message: string, extra: Record<string, unknown> = {}, nodes?: GraphQLError['nodes']): GraphQLError {
  return new GraphQLError(message, { nodes, extensions: { code, ...extra, http: { spec: true, status: 400 } } });
}

/**
 * graphql-armor's rules report a plain "Syntax Error: …"; each limit is given its own code instead,
 * so a client can tell which one it hit.
 */
function reportAs(code: string) {
  return [
    (ctx: ValidationContext | null, error: GraphQLError) => {
      ctx?.reportError(limitError(code, error.message.replace(/^Syntax Error: /, ''), {}, error.nodes));
    },
  ];
}

const isConnection = (field: GraphQLField<unknown, unknown>) => ['first', 'last', 'after', 'before'].every((name) => field.args.some((a) => a.name === name));
const pageSize = (args: Record<string, unknown>) => {
  const asked = [args.first, args.last].filter((n): n is number => typeof n === 'number');
  return asked.length === 0 ? DEFAULT_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, Math.max(0, ...asked));
};

/**
 * The cost of a field: its weight (`extensions.cost` on the field, else 1 for a field that returns
 * objects and 0 for a scalar) plus what it selects times how many items it returns: `first`/`last`
 * (capped at the page size the connection returns) on connections, ASSUMED_LIST_SIZE on other lists.
 * The edges of a connection are counted once, by their connection.
 */
export const estimateCost: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  const named = getNamedType(field.type);
  const weight = typeof field.extensions?.cost === 'number' ? field.extensions.cost : isLeafType(named) ? 0 : 1;
  if (isConnection(field)) return weight + pageSize(args) * childComplexity;
  if (isListType(getNullableType(field.type)) && !type.name.endsWith('Connection')) return weight + ASSUMED_LIST_SIZE * childComplexity;
  return weight + childComplexity;
};

/** Costs of documents without variables: they cost the same every time (the fast path sees them again and again). */
const constantCosts = new WeakMap<DocumentNode, Map<string, number>>();

export function operationCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined, operationName?: string | null): number {
  const constant = !document.definitions.some((d) => d.kind === 'OperationDefinition' && d.variableDefinitions?.length);
  const key = operationName ?? '';
  const known = constant ? constantCosts.get(document)?.get(key) : undefined;
  if (known !== undefined) return known;
  let cost: number;
  try {
    cost = getComplexity({ schema, query: document, variables: variables ?? {}, operationName: operationName ?? undefined, estimators: [estimateCost] });
  } catch {
    // Variables that do not fit the schema: execution refuses them with their own error.
    return 0;
  }
  if (constant) {
    const costs = constantCosts.get(document) ?? new Map<string, number>();
    costs.set(key, cost);
    constantCosts.set(document, costs);
  }
  return cost;
}

/** Where the rate limit stands after each yoga request's operation, for its response headers. */
export const spentByRequest = new WeakMap<object, RateLimitState>();

/**
 * The cost budget, checked when the operation is about to execute (variables known), on both
 * paths (execution.ts): over the budget nothing runs; under it, the cost is spent from the
 * application's rate limit, ceil(cost / costPerPoint) points, at least one. The refusal, if any.
 */
export function spendCost(limits: GraphQLLimits, limiter: RateLimiter, args: ExecutionArgs): GraphQLError | undefined | Promise<GraphQLError | undefined> {
  const cost = operationCost(args.schema, args.document, args.variableValues ?? undefined, args.operationName);
  if (cost > limits.maxCost) {
    return limitError('COST_LIMIT_EXCEEDED', `The operation costs ${cost}, more than the limit of ${limits.maxCost}`, { cost, maxCost: limits.maxCost });
  }
  if (!limiter.active) return undefined;
  const ctx = args.contextValue as Context & { request?: object };
  const points = Math.min(limiter.capacity, Math.max(1, Math.ceil(cost / limits.costPerPoint)));
  return limiter.consume(ctx.viewer.integration.id, points).then(
    (state) => {
      ctx.rateLimit = state;
      if (ctx.request && state) spentByRequest.set(ctx.request, state);
      return undefined;
    },
    (error: unknown) => {
      if (!(error instanceof RateLimitError)) throw error;
      return maskError(error) as GraphQLError;
    },
  );
}

/**
 * graphql-armor's depth, alias and directive limits, as validation rules (the fast path's
 * prepare() runs them too). The cost is spendCost's, when the operation executes.
 */
export function useShapeLimits(limits: GraphQLLimits): Plugin {
  const rules = [
    maxDepthRule({ n: limits.maxDepth, propagateOnRejection: false, onReject: reportAs('DEPTH_LIMIT_EXCEEDED') }),
    maxAliasesRule({ n: limits.maxAliases, propagateOnRejection: false, onReject: reportAs('ALIAS_LIMIT_EXCEEDED') }),
    maxDirectivesRule({ n: limits.maxDirectives, propagateOnRejection: false, onReject: reportAs('DIRECTIVE_LIMIT_EXCEEDED') }),
  ];
  // The limits are checked on their own, before graphql's rules: an oversized document is
  // refused after one linear walk, instead of being validated in full first.
  return {
    onValidate({ params: { schema, documentAST }, setResult }) {
      const errors = validate(schema, documentAST, rules);
      if (errors.length > 0) setResult(errors);
    },
  };
}
