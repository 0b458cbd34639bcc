import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * GraphiQL and the reference page in a real browser (Debian's Chromium, which .ci/run installs),
 * against a running server. Every request the browser makes is intercepted: one to any address
 * but 127.0.0.1 is refused and fails the test, so the pages must work on a closed network.
 */
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

let t: TestApp;
let base: string;
let browser: Browser;
let context: BrowserContext;
const outside: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does)`);
  t = await createTestApp();
  base = await t.app.listen(0, '127.0.0.1');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    outside.push(url.href);
    return route.abort();
  });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Monaco draws spaces as no-break spaces and wraps long lines: compare words. */
const words = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ');
const result = (page: Page) => words(page.locator('.graphiql-response'));
const headersEditor = (page: Page) => page.locator('section.graphiql-editor-tool .graphiql-editor:not(.hidden) .monaco-editor');

describe('GraphiQL on a closed network', () => {
  it('takes credentials in the headers editor, fetches the schema with them, runs an example and keeps them', { timeout: 120_000 }, async () => {
    const page = await context.newPage();
    await page.goto(`${base}/graphql`);
    // Before credentials: nothing is sent, the page says where they go.
    await expect.poll(() => result(page), { timeout: 40_000 }).toContain('Enter your credentials in the Headers tab');
    expect(await words(headersEditor(page))).toContain('Bearer <app>:<secret>');
    await expect.poll(() => page.locator('.graphiql-tab-button').allInnerTexts()).toEqual(['Me', 'Users', 'OrganizationsWithDepartments', 'Compliance', 'ExamStatistics']);

    const authorization = `Bearer ${t.admin.app}:${t.admin.secret}`;
    const introspection = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url() === `${base}/graphql` && (r.postData() ?? '').includes('__schema') && r.headers().authorization === authorization,
      { timeout: 40_000 },
    );
    await headersEditor(page).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(JSON.stringify({ Authorization: authorization }));
    // Monaco closes the quote and brace it sees opened: drop what it added after the text.
    await page.keyboard.press('Shift+Control+End');
    await page.keyboard.press('Delete');
    const schemaRequest = await introspection;
    expect((await schemaRequest.response())!.status()).toBe(200);

    // The Me tab is open: run it and read the answer on the page.
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => result(page), { timeout: 40_000 }).toContain('"username": "admin"');
    expect(await result(page)).toContain(`"id": "${t.admin.user.id}"`);

    // The browser kept the headers: after a reload the same operation runs without entering them again.
    await page.reload();
    await page.locator('.graphiql-execute-button').waitFor({ timeout: 40_000 });
    await expect.poll(() => words(headersEditor(page)), { timeout: 40_000 }).toContain(t.admin.app);
    await expect.poll(() => words(page.locator('.graphiql-query-editor')), { timeout: 40_000 }).toContain('query Me {');
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => result(page), { timeout: 40_000 }).toContain('"username": "admin"');
    await page.close();
    expect(outside).toEqual([]);
  });

  it('shows the reference page of the REST contract', { timeout: 90_000 }, async () => {
    const page = await context.newPage();
    // Swagger UI renders the operations as they scroll into view; a deep link opens one.
    await page.goto(`${base}/api/docs#/Users/post_user`);
    const operation = page.locator('#operations-Users-post_user');
    await operation.locator('.opblock-summary-path').waitFor({ timeout: 60_000 });
    expect(await operation.locator('.opblock-summary-path').innerText()).toBe('/user');
    await expect.poll(() => operation.innerText(), { timeout: 30_000 }).toContain('first_name');
    expect(await operation.innerText()).toContain('MISSING_ARGUMENT');
    expect(await words(page.locator('.information-container'))).toContain('Authorization: Bearer <base64(app:secret)>');
    expect(await page.locator('.information-container table').innerText()).toContain('MISSING_CREDENTIALS');
    await page.close();
    expect(outside).toEqual([]);
  });
});
