import type { Platform } from '../context.ts';
import { createContext } from '../create-context.ts';
import { AppError, ArgumentError, JourneyInvalidError, knownError, MethodNotAllowedError, RateLimitError, type RateLimitState, NotAcceptableError, NotImplementedError, UnknownEndpointError } from '../errors.ts';
import { allowedMethods, findOperation, isKnownEndpoint, type Operation } from './operations.ts';
import { routes, type Handler } from './routes.ts';
import { toContractName, toServiceArgs } from './names.ts';
import { addRateLimitHeaders, type RateLimiter } from '../rate-limit.ts';
import { checkedArguments, decodeSegment } from '../http/input-hygiene.ts';
import { isClientGone } from '../http/client-gone.ts';
import { logAccess } from '../access-log.ts';

export interface RestRequest {
  method: string;
  /** Path below `/api`, e.g. `/v1/user:name`. */
  path: string;
  /** Arguments of the query string (a URLSearchParams, or pairs read by http/input-hygiene.ts's formFields). */
  query: Iterable<[string, string]>;
  headers: { get(name: string): string | null | undefined };
  /** Arguments from the body (form or JSON), parsed by the HTTP adapter. */
  body(): Promise<Record<string, unknown>>;
  requestId: string;
}

export interface RestResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const ENDPOINT = /^[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)*$/;
/** Version 1 is the only version, and the default. */
const SUPPORTED_VERSIONS = new Set(['1']);

/** Header values must be printable ASCII; the JSON body carries the full text. */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 1000);

/** What an error lists besides its message (a journey graph's issues and ignored fields). */
const details = (error: AppError) => (error instanceof JourneyInvalidError ? error.extra : {});

export function errorResponse(error: AppError, requestId: string): RestResponse {
  const argument = error instanceof ArgumentError ? toContractName(error.argument) : undefined;
  const message = argument && error instanceof ArgumentError ? error.message.replace(`'${error.argument}'`, `'${argument}'`) : error.message;
  const headers: Record<string, string> = {
    'content-type': JSON_TYPE,
    'service-api-error': headerSafe(message),
    'service-api-error-code': error.code,
    'x-request-id': requestId,
  };
  if (error instanceof MethodNotAllowedError) headers.allow = error.allow.join(', ');
  if ('retryAfter' in error && typeof error.retryAfter === 'number') headers['retry-after'] = String(error.retryAfter);
  if (error instanceof RateLimitError && error.state) addRateLimitHeaders(headers, error.state);
  const body = { error: { status: error.status, code: error.code, message, ...(argument ? { argument } : {}), ...details(error) } };
  return { status: error.status, headers, body: JSON.stringify(body) };
}

/** `v01`, `1`, `v1` select version 1; `default`/`latest` the default. Anything else is unknown. */
function normaliseVersion(raw: string): string | undefined {
  const t = raw.trim().toLowerCase();
  if (t === 'default' || t === 'latest') return undefined;
  const m = /^v?0*(\d+)$/.exec(t);
  return m ? m[1] : `unknown:${raw}`;
}

/** Told of every call once it is answered (metrics); `endpoint` is '' when the path names no operation. */
export type RestObserver = (method: string, endpoint: string, status: number, ms: number) => void;

const PATH = /^\/(?:v([^/]*)\/)?([^/]+)\/?$/;

/** Each operation's handler, found without building its 'METHOD endpoint' key on every call. */
const handlers = new Map<Operation, Handler | undefined>();
function handlerOf(operation: Operation): Handler | undefined {
  if (!handlers.has(operation)) handlers.set(operation, routes[`${operation.method} ${operation.endpoint}`]);
  return handlers.get(operation);
}

/**
 * The headers of an answer. Written into one object rather than spread: a spread into a literal
 * takes V8's slow path, and most calls have no limit to report.
 */
function answerHeaders(requestId: string, rateLimit: RateLimitState | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': JSON_TYPE, 'x-request-id': requestId };
  return rateLimit ? addRateLimitHeaders(headers, rateLimit) : headers;
}

export class RestRouter {
  constructor(
    private readonly platform: Platform,
    private readonly limiter: RateLimiter,
    private readonly observe?: RestObserver,
  ) {}

  async handle(req: RestRequest): Promise<RestResponse> {
    const started = performance.now();
    let response: RestResponse;
    // Known before routing, so a refused call is logged with the endpoint it asked for.
    let endpoint = '';
    const m = PATH.exec(req.path);
    // Set once the call spent its point, so a refusal by the service still reports the budget.
    const spent: { state?: RateLimitState } = {};
    try {
      if (m?.[2]) endpoint = decodeSegment(m[2]);
      response = await this.route(req, m, endpoint, spent);
    } catch (error) {
      response = errorResponse(this.toAppError(error, req), req.requestId);
      if (spent.state) addRateLimitHeaders(response.headers, spent.state);
    }
    const ms = performance.now() - started;
    const code = response.status === 200 ? undefined : response.headers['service-api-error-code'];
    logAccess(this.platform.log, 'rest call', {
      reqId: req.requestId,
      method: req.method,
      endpoint: endpoint.length > 100 ? endpoint.slice(0, 100) : endpoint,
      status: response.status,
      code,
      ms: Math.round(ms * 100) / 100,
    });
    // An answered call named an operation of the contract; only a refused one needs the check.
    this.observe?.(req.method, code === undefined || (code !== 'UNKNOWN_ENDPOINT' && ENDPOINT.test(endpoint)) ? endpoint : '', response.status, ms);
    return response;
  }

  private toAppError(error: unknown, req: RestRequest): AppError {
    const known = knownError(error);
    if (known) return known;
    // The client went away mid-body: the answer goes nowhere, and nothing went wrong here.
    if (isClientGone(error)) return new AppError(400, 'CLIENT_CLOSED', 'The client closed the connection');
    this.platform.log.error({ reqId: req.requestId, err: error }, 'unexpected error');
    return new AppError(500, 'INTERNAL_ERROR', `Unexpected error; reference ${req.requestId}`);
  }

  private async route(req: RestRequest, m: RegExpExecArray | null, endpoint: string, spent: { state?: RateLimitState }): Promise<RestResponse> {
    if (!m || !ENDPOINT.test(endpoint) || !isKnownEndpoint(endpoint)) {
      throw new UnknownEndpointError(endpoint || req.path);
    }
    const operation = findOperation(req.method, endpoint);
    if (!operation) throw new MethodNotAllowedError(req.method, allowedMethods(endpoint));
    const queryArgs = Object.fromEntries(req.query);
    // A GET has no body arguments: nothing to merge (a spread costs V8's slow path).
    const args = checkedArguments(req.method === 'GET' ? queryArgs : { ...queryArgs, ...(await req.body()) }, operation);

    const requested = m[1] !== undefined ? m[1] : typeof args.version === 'string' ? args.version : undefined;
    const version = requested === undefined ? undefined : normaliseVersion(requested);
    if (version !== undefined && !SUPPORTED_VERSIONS.has(version)) {
      throw new NotAcceptableError('UNSUPPORTED_VERSION', `Version '${requested}' is not supported; version 1 is the only version`);
    }

    const ctx = await createContext(this.platform, this.limiter, { headers: req.headers, args, requestId: req.requestId });
    spent.state = ctx.rateLimit;
    const handler = handlerOf(operation);
    if (!handler) throw new NotImplementedError(`${operation.method} ${endpoint}`);
    const output = await handler(ctx, toServiceArgs(args), { version });
    return { status: 200, headers: answerHeaders(req.requestId, ctx.rateLimit), body: JSON.stringify(output) };
  }
}
