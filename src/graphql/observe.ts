import { getOperationAST, type DocumentNode, type GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { requestIdFrom } from '../http/request-id.ts';
import { logAccess } from '../access-log.ts';

/** One answered GraphQL request, as the log and the metrics see it. */
export interface GraphQLObservation {
  requestId: string;
  /** The operation's name (from the document, else the request's operationName). */
  operation: string | undefined;
  /** query, mutation, subscription; `none` when no operation was run (a parse or validation failure). */
  type: string;
  status: number;
  ms: number;
  /** Codes of the errors in the response (extensions.code), only when there are any. */
  errorCodes?: string[];
}

export type GraphQLObserver = (observation: GraphQLObservation) => void;

export const errorCodesOf = (errors: readonly GraphQLError[] | undefined): string[] | undefined =>
  errors?.length ? errors.map((e) => String(e.extensions?.code ?? 'UNSPECIFIED')) : undefined;

/** Logs every GraphQL request (one line, like REST calls) and hands it on to `then` (metrics). */
export function logGraphQL(log: Logger, then?: GraphQLObserver): GraphQLObserver {
  return (o) => {
    logAccess(log, 'graphql request', { reqId: o.requestId, operation: o.operation, type: o.type, status: o.status, errors: o.errorCodes, ms: +o.ms.toFixed(2) });
    then?.(o);
  };
}

interface Seen {
  started: number;
  operation?: string;
  type: string;
  errorCodes?: string[];
}

/**
 * The same observation for requests yoga answers itself (everything off the fast path): timed from
 * yoga's first hook to its response, named from the document that ran, errors from the result it
 * formatted. Requests that never reach GraphQL parameters (GraphiQL's page) are not observed.
 */
export function useObservation(observe: GraphQLObserver): Plugin {
  const seen = new WeakMap<Request, Seen>();
  return {
    onRequest({ request }) {
      seen.set(request, { started: performance.now(), type: 'none' });
    },
    onParams({ params, request }) {
      const s = seen.get(request);
      if (s && typeof params.operationName === 'string') s.operation = params.operationName;
    },
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request }).request;
      const s = request && seen.get(request);
      const operation = getOperationAST(args.document as DocumentNode, args.operationName);
      if (s && operation) {
        s.type = operation.operation;
        s.operation = operation.name?.value ?? s.operation;
      }
    },
    onResultProcess({ request, result }) {
      const s = seen.get(request);
      if (s && !Array.isArray(result) && result && typeof result === 'object' && 'errors' in result) {
        s.errorCodes = errorCodesOf((result as { errors?: readonly GraphQLError[] }).errors);
      }
    },
    onResponse({ request, response }) {
      const s = seen.get(request);
      seen.delete(request);
      if (!s || (s.type === 'none' && !s.errorCodes && response.headers.get('content-type')?.startsWith('text/html'))) return;
      observe({
        requestId: requestIdFrom(request.headers.get('x-request-id')),
        operation: s.operation,
        type: s.type,
        status: response.status,
        ms: performance.now() - s.started,
        errorCodes: s.errorCodes,
      });
    },
  };
}
