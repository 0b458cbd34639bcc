import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type TestApp } from '../helpers/app.ts';
import { ERROR_CODES } from '../../src/error-codes.ts';

const ROOT = join(import.meta.dirname, '../..');

/** Every TypeScript source of the service but generated code. */
function sources(dir = join(ROOT, 'src')): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [{ file: relative(ROOT, path), text: readFileSync(path, 'utf8') }] : [];
  });
}

/** UPPER_SNAKE literals that are not error codes: configuration variables, an internal reason, Node's codes and enum values. */
const NOT_ERROR_CODES = new Set(['SECRET_KEY', 'DATA_DIR', 'BOOTSTRAP_SECRET', 'NON_PUBLIC', 'PG_VERSION',
  // Node's own error codes, read (not answered) by the HTTP layer.
  'ERR_STREAM_PREMATURE_CLOSE', 'HPE_HEADER_OVERFLOW', 'ERR_HTTP_REQUEST_TIMEOUT', 'HPE_HEADERS_TIMEOUT',
  // The flags item analysis puts on a question (GraphQL enum values).
  'VERY_EASY', 'VERY_HARD', 'POOR_DISCRIMINATION', 'NEGATIVE_DISCRIMINATION']);

const all = sources().filter((s) => s.file !== join('src', 'error-codes.ts'));
const catalogued = new Map(ERROR_CODES.map((e) => [e.code, e]));

describe('the error catalogue', () => {
  it('lists every code the source can answer with', () => {
    const found = new Map<string, string>();
    for (const { file, text } of all) {
      for (const m of text.matchAll(/['"`]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"`]/g)) if (!NOT_ERROR_CODES.has(m[1]!)) found.set(m[1]!, file);
      // Single-word codes: those given to an error class.
      for (const m of text.matchAll(/super\(\d{3}, '([A-Z][A-Z0-9_]*)'/g)) found.set(m[1]!, file);
    }
    expect(found.size).toBeGreaterThan(40);
    const missing = [...found].filter(([code]) => !catalogued.has(code)).map(([code, file]) => `${code} (${file})`);
    expect(missing).toEqual([]);
  });

  it('lists no code the source never uses', () => {
    const text = all.map((s) => s.text).join('\n');
    const unused = ERROR_CODES.filter((e) => !text.includes(`'${e.code}'`)).map((e) => e.code);
    expect(unused).toEqual([]);
  });

  it('gives each code the status its error class answers with', () => {
    const statusOf: [RegExp, number][] = [
      [/new AuthenticationError\('([A-Z_]+)'/g, 401],
      [/new NotAcceptableError\('([A-Z_]+)'/g, 406],
      [/new ArgumentError\([^;]*?'([A-Z][A-Z_]+)'\)/g, 403],
      [/new PermissionError\([^;]*?'([A-Z][A-Z_]+)'\)/g, 403],
      [/super\((\d{3}), '([A-Z][A-Z0-9_]*)'/g, 0],
    ];
    let checked = 0;
    for (const { text } of all) {
      for (const [pattern, status] of statusOf) {
        for (const m of text.matchAll(pattern)) {
          const [code, expected] = status === 0 ? [m[2]!, Number(m[1])] : [m[1]!, status];
          expect(catalogued.get(code)?.statuses, code).toContain(expected);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});

describe('the catalogue against the service', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('is on the reference page (the OpenAPI description)', async () => {
    const doc = (await (await t.app.fetch(new Request(`${BASE_URL}/api/openapi.json`))).json()) as any;
    for (const e of ERROR_CODES) expect(doc.info.description).toContain(`| \`${e.code}\` | ${e.statuses.join(', ')} |`);
  });

  it('has the statuses the service answers with', async () => {
    const status = (code: string) => catalogued.get(code)!.statuses;
    const cases = [
      [await t.rpc('GET', 'no:such-endpoint'), 'UNKNOWN_ENDPOINT'],
      [await t.rpc('GET', 'test:app', {}, { as: null }), 'MISSING_CREDENTIALS'],
      [await t.rpc('GET', 'test:app', { app: t.admin.app, secret: 'wrong' }, { as: null }), 'INVALID_CREDENTIALS'],
      [await t.rpc('GET', 'user', {}), 'MISSING_ARGUMENT'],
      [await t.rpc('PUT', 'user:me'), 'METHOD_NOT_ALLOWED'],
      [await t.rpc('GET', 'test:app', {}, { version: '/v7' }), 'UNSUPPORTED_VERSION'],
      [await t.rpc('POST', 'user', { username: 'x' }, { encoding: 'json' }), 'INVALID_ARGUMENT'],
    ] as const;
    for (const [r, code] of cases) {
      expect(r.code, JSON.stringify(r.body)).toBe(code);
      expect(status(code)).toContain(r.status);
    }
    const page = await t.app.fetch(new Request(`${BASE_URL}/no-such-page`));
    expect(status('NOT_FOUND')).toContain(page.status);
    expect(((await page.json()) as any).error.code).toBe('NOT_FOUND');
  });
});
