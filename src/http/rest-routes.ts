import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ArgumentError } from '../errors.ts';
import type { RestRouter } from '../rest/router.ts';
import { formFields } from './input-hygiene.ts';
import { bodyText } from './body-text.ts';
import { multipartFields } from './multipart-form.ts';

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

/** The REST router's answer to a request under /api, sent. */
export async function restAnswer(rest: RestRouter, request: FastifyRequest, reply: FastifyReply, body: () => Promise<Record<string, unknown>>): Promise<FastifyReply> {
  const url = request.url;
  const q = url.indexOf('?');
  const pathname = q < 0 ? url : url.slice(0, q);
  const headers = request.headers;
  const result = await rest.handle({
    method: request.method,
    path: pathname.slice(4),
    query: q < 0 ? [] : Object.entries(formFields(url.slice(q + 1))),
    headers: { get: (name: string) => headers[name] as string | undefined },
    requestId: request.id,
    body,
  });
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

  const handler = (request: FastifyRequest, reply: FastifyReply) => restAnswer(rest, request, reply, () => bodyArgs(request));
  app.all('/api', handler);
  app.all('/api/*', handler);
}
