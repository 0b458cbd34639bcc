import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ArgumentError } from '../errors.ts';
import type { RestRequest, RestRouter } from '../rest/router.ts';
import { formFields } from './input-hygiene.ts';
import { bodyText } from './body-text.ts';
import { multipartFields } from './multipart-form.ts';
import { IncomingHeaders } from './incoming-headers.ts';

/** A body that could not be parsed: the router asks for the body only after routing, so the refusal waits for it. */
class Unparsable {
  constructor(readonly error: AppError) {}
}

const invalidJson = new Unparsable(new ArgumentError('body', 'is not valid JSON', 'INVALID_BODY'));
const notAnObject = new Unparsable(new ArgumentError('body', 'must be a JSON object of arguments', 'INVALID_BODY'));
/** The arguments of a request's body: urlencoded and multipart forms as text (files as File objects), a JSON object with its native types. */
async function bodyArgs(request: FastifyRequest): Promise<Record<string, unknown>> {
  const body = request.body;
  if (body instanceof Unparsable) throw body.error;
  return (body as Record<string, unknown> | undefined) ?? {};
}

/**
 * A request under /api as the router reads it: one object per call with methods, instead of the
 * closures made per call before (a header reader and a body reader, each a new function, under tsx
 * with its name defined on it): REST GET user:me over HTTP took 33.5 / 39.5 µs of server CPU
 * (least / median) where it took 42.5 / 46.0 (bench/cpu-per-request.ts, 8 rounds in turns).
 */
class ApiRequest implements RestRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Iterable<[string, string]>;
  readonly headers: IncomingHeaders;
  readonly requestId: string;

  constructor(
    private readonly request: FastifyRequest,
    private readonly withBody: boolean,
  ) {
    const url = request.url;
    const q = url.indexOf('?');
    this.method = request.method;
    this.path = (q < 0 ? url : url.slice(0, q)).slice(4);
    this.query = q < 0 ? [] : Object.entries(formFields(url.slice(q + 1)));
    this.headers = new IncomingHeaders(request.headers);
    this.requestId = request.id;
  }

  body(): Promise<Record<string, unknown>> {
    return this.withBody ? bodyArgs(this.request) : Promise.resolve({});
  }
}

/** The REST router's answer to a request under /api, sent; `withBody`: its body holds arguments (else it is not read). */
export async function restAnswer(rest: RestRouter, request: FastifyRequest, reply: FastifyReply, withBody: boolean): Promise<FastifyReply> {
  const result = await rest.handle(new ApiRequest(request, withBody));
  return reply.code(result.status).headers(result.headers).send(result.body);
}

/**
 * The REST face: every method on `/api` and below goes to the router (rest/router.ts), which
 * answers unknown endpoints (400), methods (405 with Allow) and versions (406) itself. Bodies are
 * read by fastify and parsed here from their bytes: urlencoded forms and JSON (body-text.ts),
 * multipart forms (multipart-form.ts); a body without a known type is read as a urlencoded form (curl -d sends one).
 */
export async function restRoutes(app: FastifyInstance, options: { rest: RestRouter }): Promise<void> {
  const { rest } = options;
  // Multipart forms: read as bytes within the body limit like the others, then split and decoded
  // in multipart-form.ts (busboy's own decoding would store bytes that are not UTF-8 as U+FFFD).
  const multipart = (request: FastifyRequest, bytes: Buffer) =>
    multipartFields(bytes, request.headers['content-type'] ?? '').catch((error: unknown) => {
      if (error instanceof AppError) return new Unparsable(error);
      throw error;
    });
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, multipart);
  app.removeContentTypeParser(['application/json']);
  const json = (_request: FastifyRequest, bytes: string | Buffer, done: (error: Error | null, body?: unknown) => void) => {
    if (bytes.length === 0) return done(null, {});
    let parsed: unknown;
    try {
      parsed = JSON.parse(bodyText(bytes as Buffer));
    } catch {
      return done(null, invalidJson);
    }
    done(null, parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) ? notAnObject : parsed);
  };
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, json);
  app.addContentTypeParser(/^[\w.+-]+\/[\w.+-]+\+json$/i, { parseAs: 'buffer' }, json);
  app.removeContentTypeParser(['text/plain']);
  // Urlencoded forms, and bodies of no known type (curl -d): read as bytes, as @fastify/formbody's
  // decoding would turn bytes that are not UTF-8 into U+FFFD before formFields could refuse them.
  const form = (_request: FastifyRequest, bytes: Buffer, done: (error: Error | null, body?: unknown) => void) => done(null, formFields(bodyText(bytes)));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, form);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, form);

  const handler = (request: FastifyRequest, reply: FastifyReply) => restAnswer(rest, request, reply, true);
  app.all('/api', handler);
  app.all('/api/*', handler);
}
