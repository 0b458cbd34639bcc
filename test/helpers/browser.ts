import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/**
 * The browser tests drive Debian's Chromium. On a machine without it they are skipped with a loud
 * warning, so `npm install && npm test` works anywhere; CI sets REQUIRE_BROWSER=1 (.ci/run), under
 * which a missing browser fails them instead.
 */
export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const INSTALL = 'sudo apt-get install -y chromium';

/** Whether the browser tests run here; throws when they must and cannot. */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`${CHROMIUM} is missing and REQUIRE_BROWSER=1: install it with \`${INSTALL}\``);
  console.warn(
    `\n${'!'.repeat(100)}\n!! BROWSER TESTS SKIPPED: ${CHROMIUM} is missing. Install it with: ${INSTALL}\n` +
      `!! (REQUIRE_BROWSER=1 makes a missing browser fail the tests, as in CI)\n${'!'.repeat(100)}\n`,
  );
  return false;
}

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: FLAGS });

/**
 * A browser context on a closed network: every request to an address other than 127.0.0.1 is
 * refused and recorded in `outside`, so a test can assert the page needed nothing from elsewhere.
 */
export async function closedNetwork(browser: Browser, viewport: { width: number; height: number }): Promise<{ context: BrowserContext; outside: string[] }> {
  const context = await browser.newContext({ viewport });
  const outside: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    outside.push(url.href);
    return route.abort();
  });
  return { context, outside };
}
