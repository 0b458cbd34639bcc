import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { AppError, knownError } from '../errors.ts';
import { errorResponse } from '../rest/router.ts';
import { isClientGone } from './client-gone.ts';
import { MAX_BODY_BYTES } from './server.ts';

export class PayloadTooLargeError extends AppError {
  constructor() {
    super(413, 'PAYLOAD_TOO_LARGE', `The request body exceeds ${MAX_BODY_BYTES} bytes`);
  }
}

const notFound = () => new AppError(404, 'NOT_FOUND', 'Not found');

/** An AppError as fastify's reply: the status, the contract's error headers and its JSON body. */
export function sendError(reply: FastifyReply, error: AppError, requestId: string): FastifyReply {
  const response = errorResponse(error, requestId);
  return reply.code(response.status).headers(response.headers).send(response.body);
}

/** 404 with the error headers and a JSON body, for any path no route serves (and ids of nothing). */
export const notFoundReply = (reply: FastifyReply, requestId: string) => sendError(reply, notFound(), requestId);

/** What fastify (its body reader, content-type parsers, plugins) refused, as the contract's error. */
function appErrorOf(error: FastifyError): AppError | undefined {
  const known = knownError(error);
  if (known) return known;
  switch (error.statusCode) {
    case 413:
      return new PayloadTooLargeError();
    case 415:
      return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Type '${String(error.message).slice(0, 100)}' is not accepted here`);
    case 408:
      return new AppError(408, 'REQUEST_TIMEOUT', 'The request was not received in time');
    case 400:
      return new AppError(400, 'BAD_REQUEST', 'The request is not valid HTTP');
    default:
      return undefined;
  }
}

/**
 * One error model on every route: a refusal answers its status with `Service-API-Error`,
 * `Service-API-Error-Code` and a JSON body, a path nobody serves 404 alike; anything unexpected is
 * logged and answered 500 with a reference.
 */
export function errorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => notFoundReply(reply, request.id));
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // The client went away: nobody to answer, and nothing went wrong here.
    if (isClientGone(error)) {
      request.log.debug({ err: error }, 'client disconnected');
      return sendError(reply, new AppError(400, 'CLIENT_CLOSED', 'The client closed the connection'), request.id);
    }
    const known = appErrorOf(error);
    if (known) return sendError(reply, known, request.id);
    request.log.error({ err: error }, 'unhandled request error');
    return sendError(reply, new AppError(500, 'INTERNAL_ERROR', `Unexpected error; reference ${request.id}`), request.id);
  });
}
