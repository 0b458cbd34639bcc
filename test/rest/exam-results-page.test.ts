import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { ok } from '../helpers/quiz-seed.ts';
import { enterValue, newExam, newPlay } from '../helpers/exam-settings-seed.ts';

let t: TestApp;
let me: Caller;
beforeAll(async () => {
  t = await createTestApp();
  me = await t.newCaller('page-owner');
});
afterAll(async () => t?.close());

const HOUR = 3600_000;
const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('T', ' ').slice(0, 19);

let address = 0;
/** Each test looks up from addresses of its own, so the per-address limit of one does not touch another. */
const nextAddress = () => `203.0.113.${++address}`;

async function page(exam: string, options: { value?: string; from?: string; method?: string } = {}) {
  const method = options.method ?? (options.value === undefined ? 'GET' : 'POST');
  const response = await t.app.fetch(
    new Request(`${BASE_URL}/results/${exam}`, {
      method,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `198.51.100.7, ${options.from ?? nextAddress()}` },
      body: method === 'POST' ? new URLSearchParams({ value: options.value ?? '' }) : undefined,
    }),
  );
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** An exam whose results page is open: datetime results from half an hour ago, identified by `Code`. */
async function openExam(title = 'Physics') {
  const now = Date.now();
  const exam = await newExam(t, me, { title, start: new Date(now - 2 * HOUR), end: new Date(now + 2 * HOUR) });
  await ok(t, 'POST', 'exam:fields', { exam, fields: JSON.stringify([{ label: 'Student code', unique: true }, { label: 'Nick' }]) }, me);
  await ok(t, 'POST', 'exam:settings', { exam, view_results: 'datetime', view_results_start: at(now - HOUR / 2), view_results_identifier: 'Student code' }, me);
  return exam;
}

describe('the results page', () => {
  it('offers a form asking for the identifier field, announced as results_url', async () => {
    const exam = await openExam('Physics <b>& co</b>');
    expect((await ok(t, 'GET', 'exam:settings', { exam }, me)).results_url).toBe(`${BASE_URL}/results/${exam}`);
    const r = await page(exam);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toContain('<form method="post">');
    expect(r.body).toContain('Student code');
    expect(r.body).toContain('Physics &#60;b&#62;&#38; co&#60;/b&#62;');
    expect(r.body).not.toContain('<b>');
  });

  it('shows the examinee its own finished result for the right value, and the same answer for unknown and not-yet', async () => {
    const exam = await openExam();
    const anna = await t.newCaller('page-anna');
    const bela = await t.newCaller('page-bela');
    const cecil = await t.newCaller('page-cecil');
    await enterValue(t, exam, 'Student code', anna, 'A-100');
    await enterValue(t, exam, 'Student code', bela, 'B-200');
    await enterValue(t, exam, 'Student code', cecil, 'C-300');
    await enterValue(t, exam, 'Nick', cecil, 'A-100x');
    await newPlay(t, exam, anna, { attempt: 1 });
    await newPlay(t, exam, anna, { attempt: 2 });
    await newPlay(t, exam, bela, { status: 'open' });
    await newPlay(t, exam, cecil, { archived: true });

    const found = await page(exam, { value: '  A-100 ' });
    expect(found.status).toBe(200);
    expect(found.body).toContain('Your result');
    expect(found.body).toMatch(/<dt>Attempt<\/dt><dd>2<\/dd>/);
    expect(found.body).toContain('2026-01-02 10:00:00 UTC');
    expect(found.body).toContain('2026-01-02 10:30:00 UTC');
    expect(found.body).not.toContain('page-anna');

    const unknown = await page(exam, { value: 'Z-999' });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toContain('No result is available for this value.');
    expect(unknown.body).not.toContain('Your result');
    // An unfinished result, an archived one, a value of another field, an empty value: the same answer.
    for (const value of ['B-200', 'C-300', 'A-100x', '', 'a-100']) expect((await page(exam, { value })).body, value).toBe(unknown.body);

    // Before the viewing period: the right value gets the answer of an unknown one.
    await ok(t, 'POST', 'exam:settings', { exam, view_results_start: at(Date.now() + HOUR) }, me);
    const early = await page(exam, { value: 'A-100' });
    expect(early.status).toBe(200);
    expect(early.body).toBe(unknown.body);
  });

  it('limits lookups per address', async () => {
    const exam = await openExam();
    const from = nextAddress();
    for (let i = 0; i < 10; i++) expect((await page(exam, { value: `guess-${i}`, from })).status).toBe(200);
    const limited = await page(exam, { value: 'guess-10', from });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).not.toContain('No result');
    // The form itself stays readable, and other addresses are not limited.
    expect((await page(exam, { from })).status).toBe(200);
    expect((await page(exam, { value: 'guess', from: nextAddress() })).status).toBe(200);
  });

  it('is not found when the exam offers no identifier-based results page', async () => {
    const plain = await newExam(t, me);
    expect((await page(plain)).status).toBe(404);
    expect((await page(plain, { value: 'x' })).status).toBe(404);
    expect((await page('exm_nothing')).status).toBe(404);
    const exam = await openExam();
    expect((await ok(t, 'POST', 'exam:settings', { exam, view_results_identifier: 'none' }, me))).not.toHaveProperty('results_url');
    expect((await page(exam)).status).toBe(404);
    const archived = await openExam();
    await t.db.prisma.exam.update({ where: { id: archived }, data: { archived: true } });
    expect((await page(archived)).status).toBe(404);
    const removed = await openExam();
    await ok(t, 'DELETE', 'exam:fields', { exam: removed }, me);
    expect((await page(removed, { value: 'x' })).status).toBe(404);
  });
});
