import type { FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError, getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
import { createLRUCache, createYoga, processRegularResult, type YogaInitialContext } from 'graphql-yoga';
import type { Context, Platform } from '../context.ts';
import { createContext } from '../create-context.ts';
import type { HeaderReader } from '../auth/authenticate.ts';
import type { RateLimiter } from '../rate-limit.ts';
import type { SimpleResponse } from '../http/pages.ts';
import { requestIdFrom } from '../http/request-id.ts';
import { schema } from './schema.ts';
import { isGraphQLError, maskError } from './errors.ts';
import { endsMaintenance } from './maintenance.ts';
import { urlParameterError, useInputHygiene } from './plugins/input-hygiene.ts';
import { errorCodesOf, logGraphQL, useObservation, type GraphQLObserver } from './observe.ts';
import { graphiqlOptions, renderOfflineGraphiQL } from './graphiql.ts';
import { spentByRequest, useShapeLimits } from './plugins/limits.ts';
import { createExecute, useExecution } from './plugins/execution.ts';
import { queryArgs, useCsrfPrevention, useSuggestionsForCallers } from './plugins/browser-safety.ts';
import { addRateLimitHeaders, rateLimitHeaders } from '../rate-limit.ts';

/** Whether a document is over the size limit (UTF-8 bytes; the length in characters decides most without counting). */
const documentTooLarge = (query: string, maxBytes: number) => query.length > maxBytes || (query.length * 3 > maxBytes && Buffer.byteLength(query) > maxBytes);

const documentTooLargeError = (maxBytes: number) =>
  new GraphQLError(`The GraphQL document exceeds ${maxBytes} bytes`, { extensions: { code: 'DOCUMENT_TOO_LARGE', status: 413, http: { status: 413 } } });

export interface GraphQLRequest {
  method: string;
  /** The full URL: GraphQL takes credentials from its query parameters too. */
  url: string;
  headers: HeaderReader;
  requestId: string;
}

export interface GraphQLHandler {
  /** Whether a call with these headers can take the fast path (then its body is read as text and handed to `json`). */
  acceptsJson(request: Pick<GraphQLRequest, 'method' | 'headers'>): boolean;
  /** A JSON GraphQL request without yoga's HTTP layer; undefined when the body needs yoga after all. */
  json(request: GraphQLRequest, body: string): Promise<SimpleResponse | undefined>;
  /** Everything else (GraphiQL, GET, forms, batches, cross-origin calls): yoga itself. */
  fetch(request: Request): Promise<Response>;
  /** yoga inside fastify, as its integration guide has it: the answer is a fetch Response fastify sends. */
  fastify(request: FastifyRequest, reply: FastifyReply): Promise<Response>;
}

type JsonMediaType = 'application/json' | 'application/graphql-response+json';

/** Clients send a handful of distinct Accept headers: each is negotiated once. */
const negotiated = new Map<string, JsonMediaType | undefined>();

/** The JSON media type yoga would answer with for this Accept header (its own negotiation, for the regular result processor). */
export function jsonMediaType(accept: string | null | undefined): JsonMediaType | undefined {
  const key = accept ?? '';
  if (negotiated.has(key)) return negotiated.get(key);
  const type = negotiate(key);
  if (negotiated.size >= 100) negotiated.clear();
  negotiated.set(key, type);
  return type;
}

function negotiate(accept: string): JsonMediaType | undefined {
  const matches = (asked: string, offered: string) => {
    const [askedType, askedSub] = asked.split('/');
    const [type, sub] = offered.split('/');
    return (askedType === '*' || askedType === type) && (askedSub === '*' || askedSub === sub);
  };
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType = '', ...params] = entry.split(';');
    const charset = params.find((p) => p.includes('charset=')) ?? 'charset=utf-8';
    if (charset !== 'charset=utf-8') continue;
    if (matches(mediaType, 'application/json')) return 'application/json';
    if (matches(mediaType, 'application/graphql-response+json')) return 'application/graphql-response+json';
  }
  return undefined;
}

/** yoga's result processor builds a fetch Response; this one just keeps what it was given. */
class CapturedResponse {
  constructor(
    readonly body: string,
    readonly init: { status: number; headers: Record<string, string> },
  ) {}
}

const PARAMETERS = new Set(['query', 'variables', 'operationName', 'extensions']);

/** A single operation in the shape GraphQL over HTTP gives it; anything else is yoga's to answer. */
function operationParams(body: string): { query: string; variables?: Record<string, unknown>; operationName?: string } | undefined {
  let params: unknown;
  try {
    params = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return undefined;
  const { query, variables, operationName, extensions } = params as Record<string, unknown>;
  // An `extensions` that is not an object is yoga's to refuse (400), as GraphQL over HTTP has it.
  if (extensions != null && (typeof extensions !== 'object' || Array.isArray(extensions))) return undefined;
  if (typeof query !== 'string') return undefined;
  for (const key in params) if (!PARAMETERS.has(key)) return undefined;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  return { query, variables: (variables ?? undefined) as Record<string, unknown> | undefined, operationName: operationName ?? undefined };
}

/**
 * graphql-yoga at /graphql with GraphiQL, and a fast path for the call a dashboard makes most: a
 * same-origin POST of one JSON operation. yoga's fetch-API HTTP layer (Request, Response, streams)
 * and its per-request plugin orchestration cost several times what a small operation costs to
 * execute, so for that call:
 * - the body is read by the HTTP adapter (app.ts), as for REST;
 * - a query string seen for the first time is parsed and validated by yoga's own pipeline (the
 *   same plugins and rules, so limits configured there apply) and kept; one that fails to parse
 *   or validate, a batch, or odd parameters go to yoga, which answers them;
 * - the context is createContext(), exactly what yoga's context function builds;
 * - the operation runs through the same execute function yoga's path runs (plugins/execution.ts:
 *   input checks, cost, graphql-js), and its errors are masked by the same function;
 * - the result is formatted by yoga's own `processRegularResult` (status, headers, body).
 * test/graphql/fast-path.test.ts holds both paths to the same answers.
 */
export function createGraphQLHandler(platform: Platform, limiter: RateLimiter, observe?: GraphQLObserver): GraphQLHandler {
  // Every request is logged with its operation, duration and error codes, on both paths.
  const record = logGraphQL(platform.log, observe);
  const maskErrors = (error: unknown) => {
    const masked = maskError(error);
    // The client sees only 'Unexpected error'; the cause goes to the log.
    if ((masked as GraphQLError).extensions?.code === 'INTERNAL_ERROR') platform.log.error({ err: error }, 'unexpected GraphQL error');
    return masked;
  };
  /** What yoga's masked-errors plugin does to an execution result, for the fast path. */
  const maskResult = (result: ExecutionResult): ExecutionResult => (result.errors ? { ...result, errors: result.errors.map((e) => maskErrors(e) as GraphQLError) } : result);
  const execute = createExecute(platform.config.graphqlLimits, limiter);
  // Whether the call ends maintenance is asked only during maintenance; a fresh snapshot is read without awaiting.
  // The call is written out, not spread: a spread on every request is V8's slow path (src/platform-fields.ts).
  const contextFor = (headers: HeaderReader, args: Record<string, unknown>, requestId: string, params: unknown): Promise<Context> => {
    const settings = platform.settings.fresh();
    // The operation's cost is spent when it executes (plugins/execution.ts), not one point here.
    if (settings && !settings.maintenance) return createContext(platform, limiter, { headers, args, requestId, points: 0 });
    return platform.settings.current().then((current) =>
      createContext(platform, limiter, { headers, args, requestId, points: 0, endsMaintenance: current.maintenance && endsMaintenance(params as never) }),
    );
  };

  const maxDocumentBytes = platform.config.graphqlLimits.maxDocumentBytes;
  /** Contexts built before parsing (credentials first), for yoga's context factory to take up. */
  const early = new WeakMap<Request, Promise<Context>>();
  const contextOfRequest = (request: Request, params: unknown) =>
    contextFor(request.headers, queryArgs(request.url), requestIdFrom(request.headers.get('x-request-id')), params);

  const yoga = createYoga<{ req?: FastifyRequest; reply?: FastifyReply }, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    // Served offline, with credentials and example operations at hand (graphiql.ts).
    graphiql: graphiqlOptions('Learning platform GraphQL'),
    renderGraphiQL: renderOfflineGraphiQL,
    landingPage: false,
    // Browsers on other origins get no CORS headers unless CORS_ORIGINS names them (yoga's default reflects any origin).
    cors: platform.config.corsOrigins.length > 0 ? { origin: platform.config.corsOrigins, credentials: true, methods: ['GET', 'POST'] } : false,
    plugins: [
      useExecution(execute),
      useInputHygiene(platform.config.graphqlLimits.maxTokens),
      useShapeLimits(platform.config.graphqlLimits),
      useObservation(record),
      useCsrfPrevention(),
      useSuggestionsForCallers(platform),
      {
        /**
         * Before the document is parsed or validated: a document over GRAPHQL_MAX_DOCUMENT_BYTES is
         * refused (413), and the context is built, so a caller without valid credentials gets its
         * 401 and learns nothing of the schema from parse or validation errors.
         */
        onParams({ request, params, setResult }) {
          if (urlParameterError(request)) return undefined;
          if (typeof params.query === 'string' && documentTooLarge(params.query, maxDocumentBytes)) {
            return setResult({ errors: [documentTooLargeError(maxDocumentBytes)] });
          }
          const context = contextOfRequest(request, params);
          early.set(request, context);
          return context.then(
            () => undefined,
            (error: unknown) => setResult({ errors: [maskErrors(error) as GraphQLError] }),
          );
        },
        onResponse({ request, response }) {
          for (const [name, value] of Object.entries(rateLimitHeaders(spentByRequest.get(request)))) response.headers.set(name, value);
        },
      },
    ],
    logging: false,
    maskedErrors: { maskError: maskErrors },
    context: (initial: YogaInitialContext): Promise<Context> => early.get(initial.request) ?? contextOfRequest(initial.request, initial.params),
  });
  /** Query texts the fast path has seen, parsed and validated once by yoga's own pipeline. */
  const prepared = createLRUCache<DocumentNode>({ max: 1000 });

  function prepare(request: GraphQLRequest, params: { query: string }): DocumentNode | undefined {
    const enveloped = yoga.getEnveloped({ request: requestLike(request), params } as never);
    try {
      const document = enveloped.parse(params.query);
      if (enveloped.validate(enveloped.schema, document).length > 0) return undefined;
      prepared.set(params.query, document);
      return document;
    } catch {
      return undefined;
    }
  }

  return {
    acceptsJson({ method, headers }) {
      const type = headers.get('content-type');
      return (
        method === 'POST' &&
        // Browsers on other origins go through yoga, which answers their CORS questions.
        !headers.get('origin') &&
        !!type &&
        /^application\/json\s*(;\s*charset=utf-8\s*)?$/i.test(type) &&
        jsonMediaType(headers.get('accept')) !== undefined
      );
    },

    async json(request, body) {
      // yoga's request-level checks (onParams) are not run here: a call they refuse goes to yoga.
      const started = performance.now();
      if (urlParameterError(request)) return undefined;
      const params = operationParams(body);
      if (!params || documentTooLarge(params.query, maxDocumentBytes)) return undefined;
      const document = prepared.get(params.query) ?? prepare(request, params);
      const operation = document && getOperationAST(document, params.operationName);
      if (!document || !operation || operation.operation === 'subscription') return undefined;
      let result: ExecutionResult;
      let contextValue: Context | undefined;
      try {
        contextValue = await contextFor(request.headers, queryArgs(request.url), request.requestId, params);
        const executed = execute({ schema, document, contextValue, variableValues: params.variables, operationName: params.operationName });
        // Most small operations complete synchronously: no extra turn of the microtask queue for them.
        result = maskResult(executed instanceof Promise ? await executed : executed);
      } catch (error) {
        // Refused before execution (credentials, maintenance, rate limit), as yoga's handleError does.
        const masked = maskErrors(error);
        result = { errors: [isGraphQLError(masked) ? masked : new GraphQLError(masked.message, { originalError: masked })] };
      }
      const response = (processRegularResult(result as never, { Response: CapturedResponse } as never, jsonMediaType(request.headers.get('accept'))!)) as unknown as CapturedResponse;
      const headers: Record<string, string> = { 'x-request-id': request.requestId };
      if (contextValue?.rateLimit) addRateLimitHeaders(headers, contextValue.rateLimit);
      for (const name in response.init.headers) headers[name.toLowerCase()] = String(response.init.headers[name]);
      record({
        requestId: request.requestId,
        operation: operation.name?.value ?? params.operationName,
        type: operation.operation,
        status: response.init.status,
        ms: performance.now() - started,
        errorCodes: errorCodesOf(result.errors),
      });
      return { status: response.init.status, headers, body: response.body };
    },

    fetch: (request) => Promise.resolve(yoga.fetch(request)),
    fastify: (req, reply) => Promise.resolve(yoga.handleNodeRequestAndResponse(req, reply, { req, reply })),
  };
}

/** What yoga's plugins read of a request (usePreventMutationViaGET: the method). */
const requestLike = (request: GraphQLRequest) => ({ method: request.method, url: request.url, headers: request.headers });
