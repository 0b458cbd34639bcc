import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import type { Platform } from '../../context.ts';
import { authenticate, readCredentials } from '../../auth/authenticate.ts';
import { isGraphQLError } from '../errors.ts';

/**
 * Headers a browser cannot send cross-origin without a CORS preflight: with any of them a form
 * or multipart POST is the client's own. API clients send `authorization` anyway.
 */
export const PREFLIGHT_HEADERS = ['authorization', 'x-graphql-yoga-csrf', 'graphql-preflight', 'apollo-require-preflight'];

/**
 * yoga's CSRF prevention: a form-encoded, multipart or text/plain POST (the "simple" requests a
 * page on any site can make without a preflight) needs one of PREFLIGHT_HEADERS; refused with
 * 403 and the code CSRF_PREVENTED otherwise. GET stays open: it never mutates (yoga refuses
 * mutations over GET) and GraphiQL and cached queries use it.
 */
export function useCsrfPrevention(): Plugin {
  const plugin = useCSRFPrevention({ requestHeaders: PREFLIGHT_HEADERS });
  return {
    onRequestParse(payload) {
      if (payload.request.method !== 'POST') return;
      try {
        plugin.onRequestParse!(payload);
      } catch (error) {
        if (!isGraphQLError(error)) throw error;
        throw new GraphQLError('Required CSRF header(s) not present: send one of Authorization, X-GraphQL-Yoga-CSRF or GraphQL-Preflight', {
          extensions: { code: 'CSRF_PREVENTED', http: { status: 403 } },
        });
      }
    },
  };
}

const SUGGESTION = /\s*Did you mean .+\?$/;
/** A request URL's query parameters, where GraphQL callers may send credentials (`app`, `secret`, `assume`). */
export const queryArgs = (url: string): Record<string, string> => (url.includes('?') ? Object.fromEntries(new URL(url).searchParams) : {});

/**
 * graphql-js suggests names ("Did you mean …?") in validation errors, which lets anyone map the
 * schema by guessing. Only callers with valid credentials see them; introspection needs
 * credentials anyway (the context, and so every execution, does). Validation errors are yoga's
 * to answer on both paths (the fast path hands a document that fails validation to yoga), so this
 * one hook sees every suggestion; credentials are checked only when there is one to hide.
 */
export function useSuggestionsForCallers(platform: Platform): Plugin {
  return {
    async onResultProcess({ request, result, setResult }) {
      if (Array.isArray(result) || !('errors' in result) || !result.errors?.some((e) => SUGGESTION.test(e.message))) return;
      try {
        await authenticate(platform, readCredentials(request.headers, queryArgs(request.url)));
        return;
      } catch {
        // No valid credentials: the suggestions go.
      }
      const errors = result.errors.map((error) => {
        if (!SUGGESTION.test(error.message) || !isGraphQLError(error)) return error;
        return new GraphQLError(error.message.replace(SUGGESTION, ''), { nodes: error.nodes, path: error.path, extensions: error.extensions });
      });
      setResult({ ...result, errors });
    },
  };
}
