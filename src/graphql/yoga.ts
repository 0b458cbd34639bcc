import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { GraphQLError } from 'graphql';
import { createYoga } from 'graphql-yoga';
import type { Context, Platform } from '../context.ts';
import { authenticate, readCredentials } from '../auth/authenticate.ts';
import { resolveLanguage } from '../services/instance/language.ts';
import { UnavailableError } from '../errors.ts';
import type { RateLimiter } from '../rest/rate-limit.ts';
import { schema } from './schema.ts';
import { maskError } from './errors.ts';
import { useInputHygiene } from './plugins/input-hygiene.ts';

export interface GraphQLHandler {
  fetch(request: Request): Promise<Response>;
  node(req: IncomingMessage, res: ServerResponse): void;
}

/**
 * graphql-yoga at /graphql with GraphiQL. The context authenticates exactly like the REST router
 * (Bearer, Service-API-* headers, `app`/`secret`/`assume` query parameters) and shares the
 * per-application rate limits.
 */
export function createGraphQLHandler(platform: Platform, limiter: RateLimiter): GraphQLHandler {
  const yoga = createYoga<{ req?: IncomingMessage; res?: ServerResponse }, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: { title: 'Learning platform GraphQL' },
    landingPage: false,
    plugins: [useInputHygiene()],
    logging: false,
    maskedErrors: {
      maskError: (error) => {
        const masked = maskError(error);
        // The client sees only 'Unexpected error'; the cause goes to the log.
        if ((masked as GraphQLError).extensions?.code === 'INTERNAL_ERROR') platform.log.error({ err: error }, 'unexpected GraphQL error');
        return masked;
      },
    },
    context: async ({ request }): Promise<Context> => {
      const requestId = request.headers.get('x-request-id') ?? randomUUID();
      const settings = await platform.settings.current();
      const query = Object.fromEntries(new URL(request.url).searchParams);
      const viewer = await authenticate(platform, readCredentials(request.headers, query));
      // Instance administrators still get through, so that they can switch maintenance off again.
      if (settings.maintenance && !viewer.user.admin) throw new UnavailableError(120);
      await limiter.consume(viewer.integration.id);
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
