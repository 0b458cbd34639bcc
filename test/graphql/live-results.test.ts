import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { grantExam, newExam } from '../helpers/exam-settings-seed.ts';
import { seed } from '../helpers/seed.ts';
import type { App } from '../../src/app.ts';

/**
 * `examResultFinished` over server-sent events, with two instances of the service on one database
 * and Redis between them: a play finished on one instance reaches a dashboard subscribed on the
 * other; only callers with report on the exam may subscribe.
 */

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

let t: TestApp;
/** A second instance: its own platform (and Redis connections) over the same database. */
let second: App;
let redis: Redis;
let owner: Caller;
let student: Caller;
let viewer: Caller;
let stranger: Caller;

beforeAll(async () => {
  t = await createTestApp({ REDIS_URL });
  second = (await t.anotherInstance()).app;
  redis = new Redis(REDIS_URL);
  owner = await t.newCaller('owner');
  student = await t.newCaller('student');
  viewer = await t.newCaller('viewer');
  stranger = await t.newCaller('stranger');
});
afterAll(async () => {
  redis?.disconnect();
  await t?.close();
});

const SUBSCRIBE = `subscription($exam: ID!) { examResultFinished(exam: $exam) { id status user { id } result { valid questionsTotal } } }`;

const bearer = (caller: Caller) => ({ authorization: `Bearer ${caller.app}:${caller.secret}` });

/** Opens a subscription on an instance and reads its events one at a time. */
async function subscribe(app: App, as: Caller, exam: string) {
  const response = await app.fetch(
    new Request(`${BASE_URL}/graphql`, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', ...bearer(as) },
      body: JSON.stringify({ query: SUBSCRIBE, variables: { exam } }),
    }),
  );
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    /** The next `next` event's payload; `complete` when the server ended the stream. */
    async next(): Promise<any> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(message)?.[1];
          const data = /^data: (.*)$/m.exec(message)?.[1];
          if (event === 'next') return JSON.parse(data!);
          if (event === 'complete') return 'complete';
          continue; // a keep-alive comment
        }
        const { value, done } = await reader.read();
        if (done) return 'complete';
        buffer += value;
      }
    },
    cancel: () => reader.cancel(),
  };
}

/** Resolves once some instance listens on the exam's channel in Redis (a subscription starts when its stream is first read). */
async function listening(exam: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [, count] = (await redis.pubsub('NUMSUB', `exam-result:${exam}`)) as [string, number];
    if (Number(count) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`nobody subscribed to exam ${exam}`);
}

async function finishOn(app: App, exam: string, as: Caller): Promise<string> {
  const call = async (query: string, variables: Record<string, unknown>) => {
    const response = await app.fetch(
      new Request(`${BASE_URL}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(as) }, body: JSON.stringify({ query, variables }) }),
    );
    const body = (await response.json()) as { data?: any; errors?: unknown[] };
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data;
  };
  const play = (await call(`mutation($input: StartPlayInput!) { startPlay(input: $input) { id } }`, { input: { exam } })).startPlay.id as string;
  await call(`mutation($input: FinishPlayInput!) { finishPlay(input: $input) { id } }`, { input: { play } });
  return play;
}

async function examWithStudent(): Promise<string> {
  const exam = await newExam(t, owner);
  // The administrator adds the examinee: the owner does not manage the student.
  await seed(t).admin.examinees(exam, [student]);
  return exam;
}

describe('examResultFinished', () => {
  it('pushes a play finished on another instance to a dashboard with report on the exam, and only plays of that exam', async () => {
    const exam = await examWithStudent();
    const otherExam = await examWithStudent();
    const dashboard = await subscribe(t.app, owner, exam);
    const first = dashboard.next();
    await listening(exam);

    await finishOn(second, otherExam, student);
    const play = await finishOn(second, exam, student);
    expect(await first).toEqual({ data: { examResultFinished: { id: play, status: 'finished', user: { id: student.user.id }, result: { valid: true, questionsTotal: 0 } } } });
    await dashboard.cancel();
  });

  it('refuses a caller without report permission, and answers a caller who may not view the exam as for an unknown exam', async () => {
    const exam = await examWithStudent();
    await grantExam(t, exam, viewer, 'view');
    const codeOf = async (as: Caller, id: string) => {
      const stream = await subscribe(t.app, as, id);
      const event = await stream.next();
      expect(event.data ?? null).toBeNull();
      return { code: event.errors[0].extensions.code, message: event.errors[0].message.replaceAll(id, '<id>') };
    };
    expect((await codeOf(viewer, exam)).code).toBe('PERMISSION_DENIED');
    const hidden = await codeOf(stranger, exam);
    expect(hidden).toEqual(await codeOf(stranger, 'exm_unknown000000'));
    expect(hidden.code).toBe('NOT_FOUND');
  });

  it('ends open streams when the instance stops, so they do not hold its shutdown', async () => {
    const exam = await examWithStudent();
    const { app: stopping } = await t.anotherInstance();
    const dashboard = await subscribe(stopping, owner, exam);
    const ended = dashboard.next();
    await listening(exam);
    stopping.markStopping();
    expect(await ended).toBe('complete');
  });
});
