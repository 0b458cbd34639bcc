import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type TestApp } from '../helpers/app.ts';
import { ASSUME_SHAPE, EXAMPLE_OPERATIONS } from '../../src/graphql/graphiql.ts';
import { ok } from '../helpers/quiz-seed.ts';

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
    expect(options.defaultTabs.map((tab: { query: string }) => /(?:query|mutation) (\w+)/.exec(tab.query)![1])).toEqual([
      'Me', 'Users', 'OrganizationsWithDepartments', 'Compliance', 'ExamStatistics', 'Exams', 'AssumeExaminee', 'StartPlay', 'AnswerQuestion', 'FinishPlay',
    ]);
    // Every tab shows where the credentials go; the player's steps also where the examinee's token goes.
    expect(options.defaultTabs.map((tab: { headers: string }) => JSON.parse(tab.headers))).toEqual([
      ...Array(7).fill({ Authorization: 'Bearer <app>:<secret>' }),
      ...Array(3).fill({ Authorization: 'Bearer <app>:<secret>', 'Service-API-Assume': ASSUME_SHAPE }),
    ]);
  });
});

describe('the example operations', () => {
  it('run against the schema as a dashboard and a player would send them', async () => {
    const made = await t.rpc('POST', 'organization', { title: 'Example Org' });
    expect(made.status).toBe(200);
    const exam = await t.rpc('POST', 'exam', { title: 'Example exam', quiz: (await t.rpc('POST', 'quiz', { title: 'Example quiz' })).body.quiz, start: '2030-01-01 08:00:00', end: '2030-01-31 20:00:00' });
    expect(exam.status).toBe(200);
    const ids: Record<number, object> = { 3: { organization: made.body.organization }, 4: { exam: exam.body.exam } };
    const variables = (i: number) => ({ ...JSON.parse(EXAMPLE_OPERATIONS[i]!.variables ?? '{}'), ...ids[i] });
    const [me, users, organizations, compliance, statistics, exams] = await Promise.all(EXAMPLE_OPERATIONS.slice(0, 6).map((e, i) => t.gql(e.query, variables(i))));
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
    expect(exams!.body.errors).toBeUndefined();
    expect(exams!.body.data.exams.edges.map((e: any) => e.node)).toEqual([
      {
        id: exam.body.exam, title: 'Example exam', type: 'exam', language: 'en', start: '2030-01-01T08:00:00.000Z', end: '2030-01-31T20:00:00.000Z',
        status: { status: 'INACTIVE', users: 0, started: 0, finished: 0 }, round: { current: { round: 1, results: 0 } },
      },
    ]);
  });

  it('play an exam as an examinee: assume, start, answer, finish', async () => {
    const question = (await ok(t, 'POST', 'question', { id: 'capital', type: 'generic', content: 'Capital of France?', answer: 'Paris' }, t.admin)).question;
    const quiz = (await ok(t, 'POST', 'quiz', { title: 'Geography' }, t.admin)).quiz;
    await ok(t, 'POST', 'quiz:questions', { quiz, questions: question }, t.admin);
    const at = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 19).replace('T', ' ');
    const exam = (await ok(t, 'POST', 'exam', { title: 'Geography exam', quiz, start: at(-3600_000), end: at(3600_000) }, t.admin)).exam;
    const examinee = (await ok(t, 'POST', 'user', { username: 'examinee1', first_name: 'Eva', last_name: 'Examinee', email: 'eva@example.com' }, t.admin)).user;
    await ok(t, 'POST', 'exam:users', { exam, users: examinee }, t.admin);
    const [, , , , , , assume, start, answer, finish] = EXAMPLE_OPERATIONS;

    const token = await t.gql(assume!.query, { user: 'examinee1' });
    expect(token.body.errors).toBeUndefined();
    const as = { headers: { 'service-api-assume': token.body.data.assumeUser.token } };
    const started = await t.gql(start!.query, { exam }, as);
    expect(started.body.errors).toBeUndefined();
    expect(started.body.data.startPlay).toMatchObject({ status: 'open', attempt: 1, questions: [{ index: 1, question: { id: question, type: 'generic', content: 'Capital of France?', choices: null } }] });
    const play = started.body.data.startPlay.id;
    const answered = await t.gql(answer!.query, { play, question, response: 'Paris' }, as);
    expect(answered.body.errors).toBeUndefined();
    expect(answered.body.data.answerQuestion).toMatchObject({ question, index: 1, response: 'Paris' });
    const finished = await t.gql(finish!.query, { play }, as);
    expect(finished.body.errors).toBeUndefined();
    expect(finished.body.data.finishPlay).toMatchObject({ id: play, status: 'finished', result: { questionsTotal: 1, questionsCorrect: 1, valid: true } });
    // The play is the examinee's.
    expect((await t.db.prisma.play.findUniqueOrThrow({ where: { id: play } })).userId).toBe(examinee);
  });
});
