import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Platform } from '../context.ts';
import { lookUpResult, resultsPageImage, resultsPageOf } from '../services/exams/results-lookup.service.ts';
import type { SimpleResponse } from './pages.ts';
import type { AssetResponse } from './asset.ts';
import { lookupForm, noneView, notFoundHtml, resultView, resultsHtml, tooManyView, type PageLook } from './results-page-view.ts';

/**
 * `BASE_URL/results/<exam>`: the identifier-based results page. GET shows a form asking for the
 * value of the exam's identifier field; POST (a form with `value`) shows the examinee's own
 * result, or one answer for every other case (a value nobody entered, no finished result, the
 * viewing period not begun), so the page tells nothing about other examinees. Lookups are limited
 * per client address; the page is 404 when the exam offers none. It wears the exam's branding,
 * whose stored image it serves at `/results/<exam>/image`.
 */

/** Lookups one address may make per window. */
export const RESULTS_LOOKUPS = 10;
export const RESULTS_WINDOW_SECONDS = 600;

const PATH = /^\/results\/([a-z]{3}_[a-z0-9]{1,60})$/;
const IMAGE_PATH = /^\/results\/([a-z]{3}_[a-z0-9]{1,60})\/image$/;

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

export function resultsPages(platform: Platform) {
  const limiter = new RateLimiterMemory({ points: RESULTS_LOOKUPS, duration: RESULTS_WINDOW_SECONDS, keyPrefix: 'results_page' });

  /** The page's answer, or undefined when the path is not a results page. */
  async function handle(request: ResultsRequest): Promise<SimpleResponse | undefined> {
    const m = PATH.exec(request.path);
    if (!m) return undefined;
    const page = request.method === 'GET' || request.method === 'HEAD' || request.method === 'POST' ? await resultsPageOf(platform, m[1]!) : undefined;
    if (!page) return notFoundHtml();
    const look: PageLook = { language: page.exam.language, branding: page.exam.branding, imagePath: `/results/${page.exam.id}/image` };
    const title = page.exam.title;
    const form = lookupForm(page.label);
    if (request.method !== 'POST') return resultsHtml(200, look, title, form);
    try {
      await limiter.consume(clientAddress(request.forwardedFor, request.socketAddress));
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const retry = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      return resultsHtml(429, look, title, tooManyView, { 'retry-after': String(retry) });
    }
    const value = new URLSearchParams(await request.body()).get('value') ?? '';
    const found = await lookUpResult(platform, page, value);
    return resultsHtml(200, look, title, (w) => (found.found ? resultView(found.play)(w) : noneView(w)) + form(w));
  }

  /** `GET /results/<exam>/image`: the stored branding image of a results page; undefined when there is none. */
  async function image(path: string): Promise<AssetResponse | undefined> {
    const m = IMAGE_PATH.exec(path);
    const file = m ? await resultsPageImage(platform, m[1]!) : undefined;
    if (!file) return undefined;
    return {
      status: 200,
      headers: { 'content-type': file.contentType, 'cache-control': 'private, max-age=300', 'x-content-type-options': 'nosniff' },
      body: new Uint8Array(file.data),
    };
  }

  return { handle, image };
}
