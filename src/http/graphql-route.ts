import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import type { GraphQLHandler } from '../graphql/yoga.ts';
import { AppError } from '../errors.ts';
import { sendError } from './errors.ts';
import { bodyText } from './body-text.ts';
import { IncomingHeaders } from './incoming-headers.ts';

/**
 * GraphQL at /graphql: yoga inside fastify as its integration guide shows, every method handed to
 * it (it answers 405 and CORS preflights itself). Bodies of any type are read by fastify, within
 * its size limit and the minimum rate, and handed to yoga as they came, so yoga's own request
 * parsing (JSON, forms, multipart, GraphQL over HTTP's rules) decides. A same-origin JSON POST
 * takes the fast path (graphql/yoga.ts) when it can.
 */
export async function graphqlRoute(app: FastifyInstance, options: { graphql: GraphQLHandler }): Promise<void> {
  const { graphql } = options;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.all('/graphql', async (request, reply) => {
    const headers = new IncomingHeaders(request.headers);
    if (graphql.acceptsJson({ method: request.method, headers })) {
      const url = `http://${request.headers.host ?? 'localhost'}${request.url}`;
      const body = request.body ? bodyText(request.body as Buffer) : '';
      const result = await graphql.json({ method: request.method, url, headers, requestId: request.id }, body);
      if (result) return reply.code(result.status).headers(result.headers).send(result.body);
    }
    // Past the fast path yoga decodes the body itself, and would read bytes that are not UTF-8 as U+FFFD.
    if (isJson(request.headers['content-type']) && request.body instanceof Buffer && !isUtf8(request.body)) {
      return sendError(reply, new AppError(400, 'BAD_REQUEST', 'The body is not UTF-8 text'), request.id);
    }
    // yoga builds its context from the request's headers: it sees the id the answer carries.
    request.headers['x-request-id'] = request.id;
    const response = await graphql.fastify(request, reply);
    // yoga's 415 (a body of a type it does not read) has no body: the contract's error instead.
    if (response.status === 415) return sendError(reply, new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'POST /graphql reads application/json, forms and multipart bodies'), request.id);
    return response;
  });
}

const isJson = (type: string | undefined) => type !== undefined && /^application\/(graphql-response\+)?json\b/i.test(type);
