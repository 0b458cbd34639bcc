import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ok } from '../helpers/quiz-seed.ts';
import { browserAvailable, closedNetwork, launchBrowser } from '../helpers/browser.ts';

/**
 * GraphiQL and the reference page in a real browser (Debian's Chromium, which .ci/run installs),
 * against a running server. Every request the browser makes is intercepted: one to any address
 * but 127.0.0.1 is refused and fails the test, so the pages must work on a closed network.
 */

let t: TestApp;
let base: string;
let browser: Browser;
let context: BrowserContext;
let outside: string[];
const RUN = browserAvailable();

beforeAll(async () => {
  if (!RUN) return;
  t = await createTestApp();
  base = await t.app.listen(0, '127.0.0.1');
  browser = await launchBrowser();
  ({ context, outside } = await closedNetwork(browser, { width: 1400, height: 900 }));
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Monaco draws spaces as no-break spaces and wraps long lines: compare words. */
const words = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ');
const result = (page: Page) => words(page.locator('.graphiql-response'));
/** The open editor of the tools pane (Variables or Headers). */
const toolEditor = (page: Page) => page.locator('section.graphiql-editor-tool .graphiql-editor:not(.hidden) .monaco-editor');

async function openTool(page: Page, name: 'Variables' | 'Headers') {
  await page.locator(`.graphiql-editor-tools button[data-name="${name.toLowerCase()}"]`).click();
}

/** Replaces the text of the open tool editor, as typed. */
async function typeInTool(page: Page, name: 'Variables' | 'Headers', value: object) {
  await openTool(page, name);
  await toolEditor(page).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(JSON.stringify(value));
  // Monaco closes the quote and brace it sees opened: drop what it added after the text.
  await page.keyboard.press('Shift+Control+End');
  await page.keyboard.press('Delete');
}

const TABS = ['Me', 'Users', 'OrganizationsWithDepartments', 'Compliance', 'ExamStatistics', 'Exams', 'AssumeExaminee', 'StartPlay', 'AnswerQuestion', 'FinishPlay'];
const kind = (tab: string) => (['AssumeExaminee', 'StartPlay', 'AnswerQuestion', 'FinishPlay'].includes(tab) ? 'mutation' : 'query');

/** Opens a tab, waits for its operation in the editor. */
async function openTab(page: Page, tab: string) {
  // By keyboard: a focused tab moves (the drag-to-reorder list applies its transform), so a mouse
  // click's press and release land on different places in a headless browser.
  await page.locator(`button.graphiql-tab-button[title="${tab}"]`).focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.locator('li.graphiql-tab-active button.graphiql-tab-button').getAttribute('title'), { timeout: 20_000 }).toBe(tab);
  await expect.poll(() => words(page.locator('.graphiql-query-editor')), { timeout: 20_000 }).toContain(`${kind(tab)} ${tab}`);
}

/**
 * Runs the open tab's operation; answers what the server answered (and checks the page shows it).
 * GraphiQL reads the operation's name from the editor a moment after a tab opens: a run sent
 * before that names the previous tab's operation, and is sent again.
 */
async function run(page: Page, tab: string): Promise<{ data?: any; errors?: unknown[] }> {
  for (let attempt = 1; ; attempt++) {
    const response = page.waitForResponse(
      (r) => r.url() === `${base}/graphql` && r.request().method() === 'POST' && (r.request().postData() ?? '').includes(`${kind(tab)} ${tab}`),
      { timeout: 40_000 },
    );
    await page.locator('.graphiql-execute-button').click();
    const answered = await response;
    if (JSON.parse(answered.request().postData()!).operationName !== tab && attempt < 5) {
      await page.waitForTimeout(500);
      continue;
    }
    const body = await answered.json();
    await expect.poll(() => result(page), { timeout: 20_000, message: tab }).toContain('"data"');
    return body;
  }
}

/** Seeds, through the contract, what every example needs: an organization, an exam running now with one question, and an examinee of it. */
async function seedExamples(t: TestApp) {
  const organization = (await ok(t, 'POST', 'organization', { title: 'Example Org' }, t.admin)).organization as string;
  const question = (await ok(t, 'POST', 'question', { id: 'capital', type: 'generic', content: 'Capital of France?', answer: 'Paris' }, t.admin)).question as string;
  const quiz = (await ok(t, 'POST', 'quiz', { title: 'Geography' }, t.admin)).quiz as string;
  await ok(t, 'POST', 'quiz:questions', { quiz, questions: question }, t.admin);
  const at = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 19).replace('T', ' ');
  const exam = (await ok(t, 'POST', 'exam', { title: 'Geography exam', quiz, start: at(-3600_000), end: at(3600_000) }, t.admin)).exam as string;
  const examinee = (await ok(t, 'POST', 'user', { username: 'examinee1', first_name: 'Eva', last_name: 'Examinee', email: 'eva@example.com' }, t.admin)).user as string;
  await ok(t, 'POST', 'exam:users', { exam, users: examinee }, t.admin);
  return { organization, question, exam };
}

describe.skipIf(!RUN)('GraphiQL on a closed network', () => {
  it('takes credentials once for every tab, runs every example, never loses them to a placeholder, keeps them after a reload', { timeout: 300_000 }, async () => {
    const seed = await seedExamples(t);
    const page = await context.newPage();
    await page.goto(`${base}/graphql`);
    // Before credentials: nothing is sent, the page says where they go.
    await expect.poll(() => result(page), { timeout: 40_000 }).toContain('Enter your credentials in the Headers tab');
    expect(await words(toolEditor(page))).toContain('Bearer <app>:<secret>');
    await expect.poll(() => page.locator('.graphiql-tab-button').allInnerTexts()).toEqual(TABS);

    const authorization = `Bearer ${t.admin.app}:${t.admin.secret}`;
    const introspection = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url() === `${base}/graphql` && (r.postData() ?? '').includes('__schema') && r.headers().authorization === authorization,
      { timeout: 40_000 },
    );
    await typeInTool(page, 'Headers', { Authorization: authorization });
    expect((await (await introspection).response())!.status()).toBe(200);

    // The Me tab is open: run it and read the answer on the page.
    const me = await run(page, 'Me');
    expect(me.errors).toBeUndefined();
    expect(me.data.me).toMatchObject({ id: t.admin.user.id, username: 'admin' });
    expect(await result(page)).toContain('"username": "admin"');

    // Every other tab still shows the placeholder and sends the credentials typed in the first one.
    const variables: Record<string, object> = {
      Compliance: { organization: seed.organization },
      ExamStatistics: { exam: seed.exam, attempts: 'FIRST' },
      AssumeExaminee: { user: 'examinee1' },
      StartPlay: { exam: seed.exam },
    };
    const answers: Record<string, any> = {};
    let token = '';
    let play = '';
    for (const tab of TABS.slice(1)) {
      await openTab(page, tab);
      await openTool(page, 'Headers');
      await expect.poll(() => words(toolEditor(page)), { timeout: 20_000, message: tab }).toContain('Bearer <app>:<secret>');
      // The player's steps act as the examinee: the tab's own header, beside the kept credentials.
      if (['StartPlay', 'AnswerQuestion', 'FinishPlay'].includes(tab)) await typeInTool(page, 'Headers', { Authorization: 'Bearer <app>:<secret>', 'Service-API-Assume': token });
      if (tab === 'AnswerQuestion') variables[tab] = { play, question: seed.question, response: 'Paris' };
      if (tab === 'FinishPlay') variables[tab] = { play };
      if (variables[tab]) await typeInTool(page, 'Variables', variables[tab]);
      const body = await run(page, tab);
      expect(body.errors, `${tab}: ${JSON.stringify(body.errors)}`).toBeUndefined();
      expect(body.data, tab).toBeTruthy();
      answers[tab] = body.data;
      if (tab === 'AssumeExaminee') token = body.data.assumeUser.token;
      if (tab === 'StartPlay') play = body.data.startPlay.id;
    }
    expect(answers.Users.users.edges.map((e: any) => e.node.username)).toContain('examinee1');
    expect(answers.OrganizationsWithDepartments.organizations.edges.map((e: any) => e.node.title)).toContain('Example Org');
    expect(answers.Compliance.organization.title).toBe('Example Org');
    expect(answers.ExamStatistics.node.title).toBe('Geography exam');
    expect(answers.Exams.exams.edges.map((e: any) => e.node.id)).toContain(seed.exam);
    expect(answers.StartPlay.startPlay.questions.map((q: any) => q.question.id)).toEqual([seed.question]);
    expect(answers.AnswerQuestion.answerQuestion).toMatchObject({ question: seed.question, response: 'Paris' });
    expect(answers.FinishPlay.finishPlay).toMatchObject({ id: play, status: 'finished', result: { questionsTotal: 1, questionsCorrect: 1 } });
    // The play is the examinee's, not the caller's: the assume header of the tab was sent.
    const examineePlays = await t.db.prisma.play.findMany({ where: { examId: seed.exam }, include: { user: true } });
    expect(examineePlays.map((p) => p.user?.username)).toEqual(['examinee1']);

    // Reloaded, every tab opens with the credentials (none was overwritten by a placeholder) and the tab's own headers.
    await page.reload();
    await page.locator('.graphiql-execute-button').waitFor({ timeout: 40_000 });
    for (const tab of TABS) {
      await openTab(page, tab);
      await openTool(page, 'Headers');
      await expect.poll(() => words(toolEditor(page)), { timeout: 20_000 }).toContain(t.admin.app);
      const shown = await words(toolEditor(page));
      expect(shown).not.toContain('<app>');
      if (['StartPlay', 'AnswerQuestion', 'FinishPlay'].includes(tab)) expect(shown).toContain('Service-API-Assume');
    }
    await openTab(page, 'Me');
    expect((await run(page, 'Me')).data.me.username).toBe('admin');
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
    // The operation's own prose, its example and a curl line to paste; the area's introduction above.
    expect(await operation.locator('.opblock-summary-description').innerText()).toBe('Create a user');
    const shown = await words(operation);
    expect(shown).toContain('writes one email to the outbox with the username and a single-use login link valid for 7 days, never the password');
    expect(shown).toContain(`curl -X POST -H "Authorization: Bearer $APP:$SECRET" -H 'Content-Type: application/json' -d '{"username":"jane.smith"`);
    expect(shown).toContain('"email": "jane.smith@example.com"');
    // The refusal's example is a code of the catalogue with its meaning, not a generated string.
    expect(shown).toContain('"code": "NOT_FOUND"');
    expect(shown).toContain('An argument names nothing the caller may see');
    expect(await words(page.locator('#operations-tag-Users').locator('xpath=..'))).toContain('A user manages the users it created');
    expect(await words(page.locator('.information-container'))).toContain('Authorization: Bearer <base64(app:secret)>');
    // The error catalogue is the first table of the description; the guide's tables follow it.
    const tables = page.locator('.information-container table');
    expect(await tables.first().innerText()).toContain('MISSING_CREDENTIALS');
    expect(await words(page.locator('.information-container h1', { hasText: 'Guide' }))).toBe('Guide');
    expect(await tables.filter({ hasText: 'RateLimit-Policy' }).count()).toBe(1);
    await page.close();
    expect(outside).toEqual([]);
  });
});
