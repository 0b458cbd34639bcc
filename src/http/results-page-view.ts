import { createHash } from 'node:crypto';
import type { ExamBranding, Play } from '../generated/prisma/client.ts';
import { datetime } from '../dates.ts';
import type { SimpleResponse } from './pages.ts';

/**
 * The HTML of the results page, the one page examinees see: in the exam's language and colours,
 * with its logo or cover image, laid out for a phone and a desktop alike. Every text that comes
 * from the exam or the examinee is escaped; the page runs no script and its only style is the one
 * below, allowed by its hash.
 */

/** The page's fixed texts, in the languages the service writes for examinees (English otherwise). */
const words = {
  en: {
    results: 'Results', show: 'Show my result', yours: 'Your result', attempt: 'Attempt', started: 'Started', finished: 'Finished',
    none: 'No result is available for this value.', tooMany: 'Too many attempts from your address. Please try again later.',
    notFound: 'Not found', noPage: 'There is no results page here.',
  },
  de: {
    results: 'Ergebnisse', show: 'Mein Ergebnis anzeigen', yours: 'Ihr Ergebnis', attempt: 'Versuch', started: 'Begonnen', finished: 'Beendet',
    none: 'Für diesen Wert ist kein Ergebnis verfügbar.', tooMany: 'Zu viele Versuche von Ihrer Adresse. Bitte versuchen Sie es später erneut.',
    notFound: 'Nicht gefunden', noPage: 'Hier gibt es keine Ergebnisseite.',
  },
  hu: {
    results: 'Eredmények', show: 'Eredményem megtekintése', yours: 'Az Ön eredménye', attempt: 'Próbálkozás', started: 'Kezdés', finished: 'Befejezés',
    none: 'Ehhez az értékhez nem érhető el eredmény.', tooMany: 'Túl sok próbálkozás az Ön címéről. Kérjük, próbálja újra később.',
    notFound: 'Nem található', noPage: 'Itt nincs eredményoldal.',
  },
} satisfies Record<string, Record<string, string>>;
type Words = (typeof words)['en'];

/** The language the page is written in: the exam's when the page knows it, else English. */
export const pageLanguage = (language: string): keyof typeof words => (language in words ? (language as keyof typeof words) : 'en');

/**
 * The branding colours (exam:branding `color`) as an accent and the text drawn on it; each pair
 * has a contrast of at least 4.5:1 (WCAG AA), and the accent against the white page too, except
 * yellow, which is used only behind dark text.
 */
const PALETTE: Record<string, { accent: string; on: string; ink: string }> = {
  branding: { accent: '#295999', on: '#ffffff', ink: '#295999' },
  red: { accent: '#b3261e', on: '#ffffff', ink: '#b3261e' },
  blue: { accent: '#1a56b0', on: '#ffffff', ink: '#1a56b0' },
  yellow: { accent: '#f5c518', on: '#1b1b1b', ink: '#6b5200' },
  green: { accent: '#1e7b34', on: '#ffffff', ink: '#1e7b34' },
  purple: { accent: '#6b3fa0', on: '#ffffff', ink: '#6b3fa0' },
  gray: { accent: '#4a5361', on: '#ffffff', ink: '#4a5361' },
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = (colors: { accent: string; on: string; ink: string }) => `
:root{--accent:${colors.accent};--on-accent:${colors.on};--ink-accent:${colors.ink};--ink:#1c2430;--muted:#525c69;--line:#d5dae1;--page:#f4f6f8}
*{box-sizing:border-box}
html{font-size:100%;-webkit-text-size-adjust:100%}
body{margin:0;background:var(--page);color:var(--ink);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Arial,sans-serif}
.cover{display:block;width:100%;height:9rem;object-fit:cover}
header{background:var(--accent);color:var(--on-accent);padding:1.5rem 1rem}
.bar{max-width:38rem;margin:0 auto;display:flex;align-items:center;gap:1rem}
.logo{max-height:3.5rem;max-width:8rem;background:#fff;border-radius:.5rem;padding:.25rem}
.kicker{margin:0;font-size:.875rem;letter-spacing:.04em;text-transform:uppercase}
h1{margin:.1rem 0 0;font-size:1.5rem;line-height:1.25;overflow-wrap:anywhere}
main{max-width:40rem;margin:0 auto;padding:1.5rem 1rem 3rem}
.card{background:#fff;border:1px solid var(--line);border-radius:.75rem;padding:1.25rem;margin:0 0 1.25rem}
h2{margin:0 0 .75rem;font-size:1.25rem;color:var(--ink-accent)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.5rem 1rem;margin:0}
dt{color:var(--muted)}
dd{margin:0;overflow-wrap:anywhere}
.note{margin:0 0 1.25rem;padding:1rem 1.25rem;border-left:.3rem solid var(--accent);background:#fff;border-radius:.5rem}
label{display:block;font-weight:600;margin-bottom:.5rem;overflow-wrap:anywhere}
input{display:block;width:100%;font:inherit;padding:.7rem .8rem;border:1px solid #7a8491;border-radius:.5rem;background:#fff;color:var(--ink)}
button{margin-top:1rem;width:100%;font:inherit;font-weight:600;padding:.75rem 1.25rem;border:0;border-radius:.5rem;background:var(--accent);color:var(--on-accent);cursor:pointer}
input:focus-visible,button:focus-visible{outline:3px solid var(--ink);outline-offset:2px}
@media (min-width:40em){header{padding:2rem 1.5rem}h1{font-size:2rem}main{padding-top:2rem}button{width:auto}}
`;

export interface PageLook {
  /** The exam's language (its texts), which chooses the page's. */
  language: string;
  branding: ExamBranding | null;
  /** Where the stored branding image is served. */
  imagePath: string;
}

/** The page's one stylesheet is allowed by its hash, so no other style (injected or not) applies. */
const styleHash = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

function imageSource(look: PageLook): string | undefined {
  const b = look.branding;
  if (!b) return undefined;
  if (b.fileId) return look.imagePath;
  return b.imageUrl ?? undefined;
}

/** The origin an image URL loads from, for the page's content security policy. */
function imageOrigin(src: string | undefined): string {
  if (!src || src.startsWith('/')) return '';
  try {
    return ` ${new URL(src).origin}`;
  } catch {
    return '';
  }
}

/** A whole page: `title` (the exam's, in its own language) over `content`. */
export function resultsHtml(status: number, look: PageLook, title: string, content: (w: Words) => string, extra: Record<string, string> = {}): SimpleResponse {
  const lang = pageLanguage(look.language);
  const w = words[lang];
  const css = STYLE(PALETTE[look.branding?.color ?? 'branding'] ?? PALETTE.branding!);
  const src = imageSource(look);
  const logo = src && look.branding?.type !== 'background' ? `<img class="logo" src="${escape(src)}" alt="">` : '';
  const cover = src && look.branding?.type === 'background' ? `<img class="cover" src="${escape(src)}" alt="">` : '';
  const titleLang = look.language === lang ? '' : ` lang="${escape(look.language)}"`;
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': `default-src 'none'; style-src ${styleHash(css)}; img-src 'self'${imageOrigin(src)}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      ...extra,
    },
    body:
      `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${escape(`${w.results}: ${title}`)}</title><style>${css}</style></head><body>${cover}` +
      `<header><div class="bar">${logo}<div><p class="kicker">${escape(w.results)}</p><h1${titleLang}>${escape(title)}</h1></div></div></header>` +
      `<main>${content(w)}</main></body></html>`,
  };
}

/** The page of an address that has none (no exam known: English). */
export const notFoundHtml = () =>
  resultsHtml(404, { language: 'en', branding: null, imagePath: '' }, words.en.notFound, (w) => `<p class="note">${escape(w.noPage)}</p>`);

/** The form asking for the identifier field's value. */
export const lookupForm = (label: string) => (w: Words) =>
  `<form class="card" method="post"><label for="value">${escape(label)}</label>` +
  `<input id="value" name="value" required autocomplete="off" spellcheck="false"><button type="submit">${escape(w.show)}</button></form>`;

export const resultView = (play: Play) => (w: Words) =>
  `<section class="card" id="result" aria-labelledby="result-title"><h2 id="result-title">${escape(w.yours)}</h2><dl>` +
  `<dt>${escape(w.attempt)}</dt><dd>${play.attempt}</dd><dt>${escape(w.started)}</dt><dd>${datetime(play.timeStart)} UTC</dd>` +
  `<dt>${escape(w.finished)}</dt><dd>${play.timeEnd ? `${datetime(play.timeEnd)} UTC` : ''}</dd></dl></section>`;

export const noneView = (w: Words) => `<p class="note" id="none" role="status">${escape(w.none)}</p>`;
export const tooManyView = (w: Words) => `<p class="note" role="alert">${escape(w.tooMany)}</p>`;
