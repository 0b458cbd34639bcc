import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Platform } from '../context.ts';
import type { Play } from '../generated/prisma/client.ts';
import { datetime } from '../rest/format.ts';
import { lookUpResult, resultsPageOf, type ResultsPage } from '../services/exams/results-lookup.service.ts';
import type { SimpleResponse } from './pages.ts';

/**
 * `BASE_URL/results/<exam>`: the identifier-based results page. GET shows a form asking for the
 * value of the exam's identifier field; POST (a form with `value`) shows the examinee's own
 * result, or one answer for every other case (a value nobody entered, no finished result, the
 * viewing period not begun), so the page tells nothing about other examinees. Lookups are limited
 * per client address; the page is 404 when the exam offers none.
 */

/** Lookups one address may make per window. */
export const RESULTS_LOOKUPS = 10;
export const RESULTS_WINDOW_SECONDS = 600;

const PATH = /^\/results\/([a-z]{3}_[a-z0-9]{1,60})$/;

export interface ResultsRequest {
  method: string;
  path: string;
  /** The X-Forwarded-For header, if any. */
  forwardedFor?: string | null;
  /** The peer's address when the request came over a socket. */
  socketAddress?: string;
  body(): Promise<string>;
}

/**
 * The client's address: the last X-Forwarded-For entry (written by the load balancer in front of
 * the service; entries before it come from the client and could be forged), else the peer's.
 */
export function clientAddress(forwardedFor: string | null | undefined, socketAddress?: string): string {
  const last = forwardedFor?.split(',').map((s) => s.trim()).filter(Boolean).at(-1);
  return last || socketAddress || 'unknown';
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const NONE = 'No result is available for this value.';

function html(status: number, title: string, content: string, extra: Record<string, string> = {}): SimpleResponse {
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      'referrer-policy': 'no-referrer',
      ...extra,
    },
    body: `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escape(title)}</title></head><body><main><h1>${escape(title)}</h1>${content}</main></body></html>`,
  };
}

const form = (page: ResultsPage) =>
  `<form method="post"><label>${escape(page.label)} <input name="value" required autocomplete="off"></label> <button type="submit">Show my result</button></form>`;

const resultView = (play: Play) =>
  `<section id="result"><h2>Your result</h2><dl><dt>Attempt</dt><dd>${play.attempt}</dd><dt>Started</dt><dd>${datetime(play.timeStart)} UTC</dd>` +
  `<dt>Finished</dt><dd>${play.timeEnd ? `${datetime(play.timeEnd)} UTC` : ''}</dd></dl></section>`;

export function resultsPages(platform: Platform) {
  const limiter = new RateLimiterMemory({ points: RESULTS_LOOKUPS, duration: RESULTS_WINDOW_SECONDS, keyPrefix: 'results_page' });

  /** The page's answer, or undefined when the path is not a results page. */
  async function handle(request: ResultsRequest): Promise<SimpleResponse | undefined> {
    const m = PATH.exec(request.path);
    if (!m) return undefined;
    const page = request.method === 'GET' || request.method === 'HEAD' || request.method === 'POST' ? await resultsPageOf(platform, m[1]!) : undefined;
    if (!page) return html(404, 'Not found', '<p>There is no results page here.</p>');
    const title = `Results: ${page.exam.title}`;
    if (request.method !== 'POST') return html(200, title, form(page));
    try {
      await limiter.consume(clientAddress(request.forwardedFor, request.socketAddress));
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const retry = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      return html(429, title, '<p>Too many attempts from your address. Please try again later.</p>', { 'retry-after': String(retry) });
    }
    const value = new URLSearchParams(await request.body()).get('value') ?? '';
    const found = await lookUpResult(platform, page, value);
    return html(200, title, (found.found ? resultView(found.play) : `<p id="none">${NONE}</p>`) + form(page));
  }

  return { handle };
}
