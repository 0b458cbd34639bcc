import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverAudits } from 'graphql-http';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { serve } from '../http/serve.ts';

/**
 * The GraphQL over HTTP specification's own audit suite (graphql-http's serverAudits) against the
 * running server over a real socket, with credentials, on whichever path serves each request (the
 * fast path or yoga).
 */
let t: TestApp;
let http: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => {
  t = await createTestApp();
  http = await serve(t);
});
afterAll(async () => {
  await http?.close();
  await t?.close();
});

describe('GraphQL over HTTP', () => {
  it('passes every audit of graphql-http', async () => {
    const authorization = `Bearer ${t.admin.app}:${t.admin.secret}`;
    const audits = serverAudits({
      url: `${http.url}/graphql`,
      fetchFn: (input: RequestInfo | URL, init?: RequestInit) => {
        const headers = new Headers(init?.headers);
        headers.set('authorization', authorization);
        return fetch(input, { ...init, headers });
      },
    });
    const failed: string[] = [];
    for (const audit of audits) {
      const result = await audit.fn();
      if (result.status !== 'ok') failed.push(`${audit.id} ${audit.name}: ${result.status} ${result.reason}`);
    }
    expect(failed).toEqual([]);
    expect(audits).toHaveLength(61);
  }, 60_000);
});
