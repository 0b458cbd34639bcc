import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { openApiJson } from './openapi.ts';
import { guideMarkdown } from './guide.ts';
import type { AssetResponse } from './asset.ts';

/**
 * The reference page at /api/docs: Swagger UI (swagger-ui-dist, served from the installed package,
 * no CDN) over /api/openapi.json. Swagger UI's validator badge would send the description's address
 * to an outside validator: it is switched off. The guide for operators and integrators (guide.md)
 * is part of the description, and served alone as Markdown.
 */

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';
/** The guide (guide.md) as Markdown; the reference page shows it too, in the description. */
export const GUIDE_PATH = '/api/docs/guide';
const ASSET_PREFIX = '/api/docs/assets/';

const swaggerDir = () => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const START_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '${OPENAPI_PATH}',
    dom_id: '#swagger-ui',
    deepLinking: true,
    // 194 operations: the sections open on demand.
    docExpansion: 'none',
    filter: true,
    validatorUrl: null,
    persistAuthorization: true,
    tryItOutEnabled: false,
    presets: [SwaggerUIBundle.presets.apis],
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Learning platform REST/RPC API</title>
<link rel="icon" type="image/png" href="${ASSET_PREFIX}favicon-32x32.png">
<link rel="stylesheet" href="${ASSET_PREFIX}swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSET_PREFIX}swagger-ui-bundle.js"></script>
<script src="${ASSET_PREFIX}start.js"></script>
</body>
</html>`;

const cache = new Map<string, Uint8Array<ArrayBuffer>>();

/** /api/openapi.json, /api/docs and its files; undefined for any other path (the REST router's). */
export async function describePage(method: string, path: string): Promise<AssetResponse | undefined> {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  if (path === OPENAPI_PATH) {
    return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' }, body: openApiJson() };
  }
  if (path === DOCS_PATH || path === `${DOCS_PATH}/`) {
    return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }, body: PAGE };
  }
  if (path === GUIDE_PATH) {
    return { status: 200, headers: { 'content-type': 'text/markdown; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }, body: guideMarkdown() };
  }
  if (!path.startsWith(ASSET_PREFIX)) return undefined;
  const name = path.slice(ASSET_PREFIX.length);
  const headers = { 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' };
  if (name === 'start.js') return { status: 200, headers: { ...headers, 'content-type': 'text/javascript; charset=utf-8' }, body: START_SCRIPT };
  const type = FILES[name];
  if (!type) return undefined;
  let body = cache.get(name);
  if (!body) cache.set(name, (body = await readFile(join(swaggerDir(), name))));
  return { status: 200, headers: { ...headers, 'content-type': type }, body };
}
