import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type TestApp } from '../helpers/app.ts';
import { EXAMPLE_OPERATIONS } from '../../src/graphql/graphiql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const get = (path: string, accept = 'text/html') => t.app.fetch(new Request(`${BASE_URL}${path}`, { headers: { accept } }));

describe('GraphiQL page', () => {
  it('references only files of this service, which it serves', async () => {
    const page = await get('/graphql');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toContain('unpkg.com');
    const files = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(files).toEqual(['/graphiql/favicon.ico', '/graphiql/graphiql.css', '/graphiql/graphiql.js', '/graphiql/start.js']);
    for (const file of [...files, '/graphiql/editor.worker.js', '/graphiql/json.worker.js', '/graphiql/graphql.worker.js']) {
      const r = await get(file, '*/*');
      expect(r.status, file).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^(text\/javascript|text\/css|image\/x-icon)/);
      const body = await r.text();
      expect(body.length).toBeGreaterThan(100);
      expect(body).not.toMatch(/(src|href)=["']https?:\/\//);
    }
    expect((await get('/graphiql/nothing.js', '*/*')).status).toBe(404);
  });

  it('opens with the shape of the credentials and the example tabs', async () => {
    const html = await (await get('/graphql')).text();
    const options = JSON.parse(/<script type="application\/json" id="graphiql-options">(.*?)<\/script>/s.exec(html)![1]!);
    expect(JSON.parse(options.headers)).toEqual({ Authorization: 'Bearer <app>:<secret>' });
    expect(options.shouldPersistHeaders).toBe(true);
    expect(options.defaultTabs.map((tab: { query: string }) => /query (\w+)/.exec(tab.query)![1])).toEqual(['Me', 'Users', 'OrganizationsWithDepartments', 'Compliance', 'ExamStatistics']);
  });
});

describe('the example operations', () => {
  it('run against the schema as a dashboard would send them', async () => {
    const made = await t.rpc('POST', 'organization', { title: 'Example Org' });
    expect(made.status).toBe(200);
    const exam = await t.rpc('POST', 'exam', { title: 'Example exam', quiz: (await t.rpc('POST', 'quiz', { title: 'Example quiz' })).body.quiz, start: '2030-01-01 08:00:00', end: '2030-01-31 20:00:00' });
    expect(exam.status).toBe(200);
    const ids: Record<number, object> = { 3: { organization: made.body.organization }, 4: { exam: exam.body.exam } };
    const variables = (i: number) => ({ ...JSON.parse(EXAMPLE_OPERATIONS[i]!.variables ?? '{}'), ...ids[i] });
    const [me, users, organizations, compliance, statistics] = await Promise.all(EXAMPLE_OPERATIONS.map((e, i) => t.gql(e.query, variables(i))));
    expect(me!.body.errors).toBeUndefined();
    expect(me!.body.data.me).toMatchObject({ id: t.admin.user.id, username: 'admin', admin: true });
    expect(users!.body.errors).toBeUndefined();
    expect(users!.body.data.users.pageInfo).toEqual({ hasNextPage: false, endCursor: expect.any(String) });
    expect(organizations!.body.errors).toBeUndefined();
    expect(organizations!.body.data.organizations.edges.map((e: any) => e.node.title)).toContain('Example Org');
    expect(compliance!.body.errors).toBeUndefined();
    expect(compliance!.body.data.organization.title).toBe('Example Org');
    expect(statistics!.body.errors).toBeUndefined();
    expect(statistics!.body.data.node).toEqual({
      title: 'Example exam',
      statistics: {
        round: 1, results: 0, leftOut: { awaitingGrading: 0, withoutPoints: 0 }, mean: null, median: null, standardDeviation: null,
        skewness: null, kurtosis: null, cronbachAlpha: null, errorRatio: null, standardError: null, questions: [],
      },
    });
  });
});
