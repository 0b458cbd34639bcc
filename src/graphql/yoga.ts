import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createYoga } from 'graphql-yoga';
import type { Context, Platform } from '../context.ts';
import { authenticate, readCredentials } from '../auth/authenticate.ts';
import { resolveLanguage } from '../services/instance/language.ts';
import { UnavailableError } from '../errors.ts';
import { schema } from './schema.ts';
import { maskError } from './errors.ts';

export interface GraphQLHandler {
  fetch(request: Request): Promise<Response>;
  node(req: IncomingMessage, res: ServerResponse): void;
}

/**
 * graphql-yoga at /graphql with GraphiQL. The context authenticates exactly like the REST router
 * (Bearer, Service-API-* headers, `app`/`secret`/`assume` query parameters).
 */
export function createGraphQLHandler(platform: Platform): GraphQLHandler {
  const yoga = createYoga<{ req?: IncomingMessage; res?: ServerResponse }, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: { title: 'Learning platform GraphQL' },
    landingPage: false,
    logging: false,
    maskedErrors: { maskError: (error) => maskError(error) },
    context: async ({ request }): Promise<Context> => {
      const requestId = request.headers.get('x-request-id') ?? randomUUID();
      const settings = await platform.settings.current();
      if (settings.maintenance) throw new UnavailableError(120);
      const query = Object.fromEntries(new URL(request.url).searchParams);
      const viewer = await authenticate(platform, readCredentials(request.headers, query));
      return {
        ...platform,
        viewer,
        requestId,
        language: resolveLanguage(request.headers.get('service-language'), viewer.user.language, settings.activeLanguages),
      };
    },
  });
  return {
    fetch: (request) => Promise.resolve(yoga.fetch(request)),
    node: (req, res) => void yoga(req, res),
  };
}
