import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { ok } from '../helpers/quiz-seed.ts';
import { enterValue, newExam, newPlay } from '../helpers/exam-settings-seed.ts';
import { solidPng } from '../helpers/png.ts';
import { browserAvailable, closedNetwork, launchBrowser } from '../helpers/browser.ts';

/**
 * The results page, the one page examinees see, in a real browser at a phone's width and a
 * desktop's: it wears the exam's branding and language, fits the phone without sideways
 * scrolling, works from the keyboard, breaks no rule of its own content security policy, and
 * axe-core finds no accessibility violation in it.
 */

const RUN = browserAvailable();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WIDTHS = [375, 1280];
const HOUR = 3600_000;

let t: TestApp;
let owner: Caller;
let base: string;
let browser: Browser;
let shots: string;

beforeAll(async () => {
  if (!RUN) return;
  t = await createTestApp();
  owner = await t.newCaller('results-owner');
  base = await t.app.listen(0, '127.0.0.1');
  browser = await launchBrowser();
  shots = mkdtempSync(path.join(os.tmpdir(), 'results-page-'));
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  if (shots) rmSync(shots, { recursive: true, force: true });
});

let address = 0;
/** Lookups are limited per address: each browser context comes from one of its own (the balancer's header). */
const ownAddress = () => ({ 'x-forwarded-for': `203.0.113.${++address}` });

const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('T', ' ').slice(0, 19);

/** An exam with an open results page, a branding and an examinee with a finished result, seeded through the contract where it has a call. */
async function brandedExam(options: { title: string; language: string; color: string; type: 'foreground' | 'background' }) {
  const now = Date.now();
  const exam = await newExam(t, owner, { title: options.title, start: new Date(now - 2 * HOUR), end: new Date(now + 2 * HOUR) });
  await t.db.prisma.exam.update({ where: { id: exam }, data: { language: options.language } });
  await ok(t, 'POST', 'exam:fields', { exam, fields: JSON.stringify([{ label: 'Student code', unique: true }]) }, owner);
  await ok(t, 'POST', 'exam:settings', { exam, view_results: 'datetime', view_results_start: at(now - HOUR / 2), view_results_identifier: 'Student code' }, owner);
  const image = solidPng(options.type === 'foreground' ? 96 : 640, options.type === 'foreground' ? 48 : 160, [40, 120, 200]);
  await ok(t, 'POST', 'exam:branding', { exam, image: image.toString('base64'), color: options.color, type: options.type }, owner);
  const examinee = await t.newCaller(`examinee-${exam}`);
  await enterValue(t, exam, 'Student code', examinee, 'S-1001');
  await newPlay(t, exam, examinee, { attempt: 1 });
  return exam;
}

/** axe-core's violations on the page as it is now. */
async function axeViolations(page: Page) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const results = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n: any) => n.target.join(' ')) }));
  });
}

describe.skipIf(!RUN)('the results page in a browser', () => {
  const cases = [
    { title: 'Fizika vizsga – 2026 <tavasz>', language: 'hu', color: 'purple', type: 'foreground' as const, words: { button: 'Eredményem megtekintése', yours: 'Az Ön eredménye' } },
    { title: 'Physics final examination of the spring semester with a long title', language: 'en', color: 'yellow', type: 'background' as const, words: { button: 'Show my result', yours: 'Your result' } },
  ];
  for (const c of cases) {
    it(`wears the exam's branding and language (${c.language}, ${c.color} ${c.type}), fits a phone and a desktop, and is accessible`, { timeout: 180_000 }, async () => {
      const exam = await brandedExam(c);
      for (const width of WIDTHS) {
        const { context, outside } = await closedNetwork(browser, { width, height: 800 });
        await context.setExtraHTTPHeaders(ownAddress());
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
        page.on('pageerror', (e) => problems.push(e.message));
        await page.goto(`${base}/results/${exam}`);

        expect(await page.evaluate(() => document.documentElement.lang)).toBe(c.language);
        expect(await page.locator('h1').innerText()).toBe(c.title);
        // The branding image is served with the page and drawn.
        const image = page.locator(c.type === 'foreground' ? 'img.logo' : 'img.cover');
        await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
        // The accent is the branding colour (the header's background).
        const accent = await page.locator('header').evaluate((h) => getComputedStyle(h).backgroundColor);
        expect(accent).toBe({ purple: 'rgb(107, 63, 160)', yellow: 'rgb(245, 197, 24)' }[c.color]);

        // By keyboard: the field is reached with Tab, named by its label, and Enter sends it.
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).labels?.[0]?.textContent)).toBe('Student code');
        await page.keyboard.type('S-1001');
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(c.words.button);
        await page.keyboard.press('Enter');
        await page.locator('#result').waitFor();
        expect(await page.locator('#result h2').innerText()).toBe(c.words.yours);
        expect(await page.locator('#result dd').first().innerText()).toBe('1');

        // No sideways scrolling on a phone (nor on a desktop).
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        const file = path.join(shots, `${exam}-${width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        expect(statSync(file).size).toBeGreaterThan(1000);
        // Nothing was refused by the page's content security policy, and nothing was fetched from elsewhere.
        expect(problems).toEqual([]);
        expect(outside).toEqual([]);
        await context.close();

        // axe-core runs as an injected script, which the page's policy refuses: its own context lets it in.
        const audit = await browser.newContext({ viewport: { width, height: 800 }, bypassCSP: true, extraHTTPHeaders: ownAddress() });
        const checked = await audit.newPage();
        await checked.goto(`${base}/results/${exam}`);
        expect(await axeViolations(checked), `form at ${width}px`).toEqual([]);
        await checked.fill('#value', 'S-1001');
        await checked.press('#value', 'Enter');
        await checked.locator('#result').waitFor();
        expect(await axeViolations(checked), `result at ${width}px`).toEqual([]);
        await checked.fill('#value', 'nobody');
        await checked.press('#value', 'Enter');
        await checked.locator('#none').waitFor();
        expect(await axeViolations(checked), `no result at ${width}px`).toEqual([]);
        await audit.close();
      }
    });
  }
});
