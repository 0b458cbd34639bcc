import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { ok } from '../helpers/quiz-seed.ts';
import { enterValue, newExam, newPlay } from '../helpers/exam-settings-seed.ts';
import { solidPng } from '../helpers/png.ts';

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
    expect(r.body).toMatch(/<form [^>]*method="post"/);
    expect(r.body).toMatch(/<label for="value">Student code<\/label><input id="value" name="value"/);
    expect(r.body).toContain('<html lang="en">');
    // No script may run; the only style is the page's own, named by its hash.
    expect(r.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'self';/);
    expect(r.body).not.toMatch(/<script|\son\w+=/i);
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

  it("speaks the exam's language where the page knows it, English otherwise", async () => {
    const german = await openExam('Physik');
    await t.db.prisma.exam.update({ where: { id: german }, data: { language: 'de' } });
    const de = await page(german, { value: 'nobody' });
    expect(de.body).toContain('<html lang="de">');
    expect(de.body).toContain('<title>Ergebnisse: Physik</title>');
    expect(de.body).toContain('Für diesen Wert ist kein Ergebnis verfügbar.');
    expect(de.body).toContain('Mein Ergebnis anzeigen');
    const hungarian = await openExam('Fizika');
    await t.db.prisma.exam.update({ where: { id: hungarian }, data: { language: 'hu' } });
    expect((await page(hungarian)).body).toContain('Eredményem megtekintése');
    // A language without texts of its own: English, with the title marked in the exam's language.
    const french = await openExam('Physique');
    await t.db.prisma.exam.update({ where: { id: french }, data: { language: 'fr' } });
    const fr = await page(french);
    expect(fr.body).toContain('<html lang="en">');
    expect(fr.body).toContain('<h1 lang="fr">Physique</h1>');
    expect(fr.body).toContain('Show my result');
  });

  it("wears the exam's branding: its colour and its image, served with the page and only while there is a page", async () => {
    const exam = await openExam();
    const plain = await page(exam);
    const png = solidPng(4, 2, [200, 30, 30]);
    await ok(t, 'POST', 'exam:branding', { exam, image: png.toString('base64'), color: 'green', type: 'foreground' }, me);
    const branded = await page(exam);
    expect(branded.body).toContain('--accent:#1e7b34');
    expect(plain.body).not.toContain('--accent:#1e7b34');
    expect(branded.body).toContain(`<img class="logo" src="/results/${exam}/image" alt="">`);
    const image = await t.app.fetch(new Request(`${BASE_URL}/results/${exam}/image`));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(png);

    // A cover given as a URL: the page loads it from there (and its policy allows that origin alone); nothing is served here.
    await ok(t, 'POST', 'exam:branding', { exam, image: 'https://cdn.example.org/cover.png?a=1&b="2"', color: 'yellow', type: 'background' }, me);
    const cover = await page(exam);
    expect(cover.body).toContain('<img class="cover" src="https://cdn.example.org/cover.png?a=1&#38;b=&#34;2&#34;" alt="">');
    expect(cover.headers.get('content-security-policy')).toContain("img-src 'self' https://cdn.example.org;");
    expect((await t.app.fetch(new Request(`${BASE_URL}/results/${exam}/image`))).status).toBe(404);

    // Without a results page the image is not public.
    const hidden = await openExam();
    await ok(t, 'POST', 'exam:branding', { exam: hidden, image: png.toString('base64'), color: 'red' }, me);
    expect((await t.app.fetch(new Request(`${BASE_URL}/results/${hidden}/image`))).status).toBe(200);
    await ok(t, 'POST', 'exam:settings', { exam: hidden, view_results_identifier: 'none' }, me);
    expect((await t.app.fetch(new Request(`${BASE_URL}/results/${hidden}/image`))).status).toBe(404);
    expect((await t.app.fetch(new Request(`${BASE_URL}/results/exm_nothing/image`))).status).toBe(404);
  });

  it('escapes what the owner and the examinee wrote', async () => {
    const exam = await openExam('<script>alert(1)</script>');
    await ok(t, 'POST', 'exam:fields', { exam, fields: JSON.stringify([{ label: '"><img src=x onerror=alert(2)>', unique: true }]) }, me);
    await ok(t, 'POST', 'exam:settings', { exam, view_results_identifier: '"><img src=x onerror=alert(2)>' }, me);
    const r = await page(exam, { value: '<b>me</b>' });
    expect(r.status).toBe(200);
    expect(r.body).not.toMatch(/<script|<img src=x|<b>/);
    expect(r.body).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(r.body).toContain('&#34;&#62;&#60;img src=x onerror=alert(2)&#62;');
  });

  it('limits lookups per address', async () => {
    const exam = await openExam();
    const from = nextAddress();
    for (let i = 0; i < 10; i++) expect((await page(exam, { value: `guess-${i}`, from })).status).toBe(200);
    const limited = await page(exam, { value: 'guess-10', from });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).not.toContain('No result');
    expect(limited.body).toContain('Too many attempts from your address.');
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
