import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  allowedMethods,
  findOperation,
  operations,
  PERMISSION_PREFIXES,
  TAGGABLE_TYPES,
  type Area,
  type HttpMethod,
} from '../../src/rest/operations.ts';

// ---------------------------------------------------------------------------
// Reading the contract documents at test time
// ---------------------------------------------------------------------------

const SPEC_DIR = path.resolve(process.cwd(), '../shared/spec');
const METHOD = '(?:GET|POST|PUT|PATCH|DELETE)';

/** Endpoints named with methods but whose contract is "not shown" (Document B, Exam journeys). */
const NOT_SHOWN = new Set(['exam:journey', 'exam:round', 'exam:certificates']);

interface ParsedDoc {
  document: 'A' | 'B';
  /** The text of the "## Endpoints" section (up to the next "## " heading). */
  endpointsSection: string;
  /** Method + endpoint pairs stated by bullets, with the "###" heading they appear under. */
  bullets: { methods: HttpMethod[]; endpoint: string; section: string }[];
}

function parseDoc(document: 'A' | 'B'): ParsedDoc {
  const file = path.join(SPEC_DIR, `document-${document.toLowerCase()}.md`);
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const start = lines.findIndex((l) => /^## Endpoints\s*$/.test(l));
  if (start < 0) throw new Error(`no "## Endpoints" section in ${file}`);
  let end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  if (end < 0) end = lines.length;
  const section = lines.slice(start, end);

  const bullets: ParsedDoc['bullets'] = [];
  const bulletRe = new RegExp(`^\\s*- (${METHOD}(?:/${METHOD})*) \`([^\`]+)\``);
  let heading = '';
  for (const line of section) {
    const h = /^### (.+?)\s*$/.exec(line);
    if (h) {
      heading = h[1]!;
      continue;
    }
    const m = bulletRe.exec(line);
    if (m) bullets.push({ methods: m[1]!.split('/') as HttpMethod[], endpoint: m[2]!, section: heading });
  }
  return { document, endpointsSection: section.join('\n'), bullets };
}

/**
 * Endpoint names in backticks: any backticked token right after an HTTP method
 * ("GET `x`", "GET/POST `x`", "GET and POST `x`"), plus any backticked token shaped
 * like a colon path (`class:members`).
 */
function endpointNamesIn(text: string): Set<string> {
  const names = new Set<string>();
  const afterMethod = new RegExp(`\\b${METHOD}(?:(?:/| and | or |, )${METHOD})* \`([^\`]+)\``, 'g');
  for (const m of text.matchAll(afterMethod)) names.add(m[1]!);
  for (const m of text.matchAll(/`([a-z][a-z-]*(?::[a-z-]+)+)`/g)) names.add(m[1]!);
  return names;
}

const docA = parseDoc('A');
const docB = parseDoc('B');
const docs = [docA, docB];

const isTemplated = (endpoint: string) => endpoint.includes('<');
const pairKey = (method: string, endpoint: string) => `${method} ${endpoint}`;

/** Prefixes from the "Path prefix" column of the permission table of Document A. */
function permissionPrefixesFromDoc(): string[] {
  const text = docA.endpointsSection;
  const from = text.indexOf('### Content permissions and transfer');
  const to = text.indexOf('### ', from + 4);
  const rows = text
    .slice(from, to)
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|\s*-/.test(l) && !/Path prefix/.test(l));
  return rows.map((r) => r.split('|').map((c) => c.trim())[3]!);
}

/** Taggable types from "For each taggable type (...)" in Document A ("Quiz set using parameter quiz" -> quiz). */
function taggableTypesFromDoc(): string[] {
  const m = /For each taggable type \(([^)]*)\)/.exec(docA.endpointsSection);
  if (!m) throw new Error('taggable type list not found');
  return m[1]!.split(',').map((s) => {
    const item = s.trim();
    return /using parameter (\w+)/.exec(item)?.[1] ?? item;
  });
}

/** Every method + endpoint pair the documents state, with the templated families expanded. */
function statedPairs(): Map<string, { document: 'A' | 'B'; section: string }> {
  const out = new Map<string, { document: 'A' | 'B'; section: string }>();
  const prefixes = permissionPrefixesFromDoc();
  const types = taggableTypesFromDoc();
  for (const d of docs) {
    for (const b of d.bullets) {
      let eps = [b.endpoint];
      if (b.endpoint.includes('<prefix>')) eps = prefixes.map((p) => b.endpoint.replace('<prefix>', p));
      else if (b.endpoint.includes('<type>')) eps = types.map((t) => b.endpoint.replace('<type>', t));
      for (const ep of eps) for (const m of b.methods) out.set(pairKey(m, ep), { document: d.document, section: b.section });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------

describe('operation catalogue', () => {
  it('has 194 operations', () => {
    expect(operations).toHaveLength(194);
    expect(operations.filter((o) => o.document === 'A')).toHaveLength(138);
    expect(operations.filter((o) => o.document === 'B')).toHaveLength(56);
  });

  it('has no duplicate method + endpoint pair', () => {
    const keys = operations.map((o) => pairKey(o.method, o.endpoint));
    const dupes = keys.filter((k, i) => keys.indexOf(k) !== i);
    expect(dupes).toEqual([]);
  });

  it('contains every endpoint named in backticks in the Endpoints sections', () => {
    const catalogued = new Set(operations.map((o) => o.endpoint));
    const missing: string[] = [];
    let checked = 0;
    for (const d of docs) {
      for (const name of endpointNamesIn(d.endpointsSection)) {
        if (isTemplated(name) || NOT_SHOWN.has(name)) continue;
        checked++;
        if (!catalogued.has(name)) missing.push(`${d.document}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(60); // the parser really found the endpoints
  });

  it('equals exactly the method + endpoint pairs stated by the documents (templates expanded)', () => {
    const stated = statedPairs();
    const catalogued = new Set(operations.map((o) => pairKey(o.method, o.endpoint)));
    expect([...stated.keys()].filter((k) => !catalogued.has(k))).toEqual([]);
    expect([...catalogued].filter((k) => !stated.has(k))).toEqual([]);
    expect(stated.size).toBe(194);
  });

  it('records the document and "###" section each operation is defined in', () => {
    const stated = statedPairs();
    const wrong = operations
      .filter((o) => {
        const s = stated.get(pairKey(o.method, o.endpoint));
        return !s || s.document !== o.document || s.section !== o.section;
      })
      .map((o) => `${o.method} ${o.endpoint} (${o.document} / ${o.section})`);
    expect(wrong).toEqual([]);
  });

  it('excludes the endpoints whose contract is not shown', () => {
    expect(findOperation('GET', 'exam:journey')).toBeUndefined();
    expect(findOperation('GET', 'exam:round')).toBeUndefined();
    expect(findOperation('POST', 'exam:round')).toBeUndefined();
    expect(findOperation('POST', 'exam:certificates')).toBeUndefined();
    expect(allowedMethods('exam:journey')).toEqual([]);
    expect(allowedMethods('exam:round')).toEqual([]);
    expect(allowedMethods('exam:certificates')).toEqual([]);
    expect(operations.some((o) => isTemplated(o.endpoint))).toBe(false);
  });

  it('expands the templated families from the document lists', () => {
    expect([...PERMISSION_PREFIXES]).toEqual(permissionPrefixesFromDoc());
    expect([...TAGGABLE_TYPES]).toEqual(taggableTypesFromDoc());
    expect(operations.filter((o) => o.endpoint.endsWith(':transfer'))).toHaveLength(10);
    expect(operations.filter((o) => o.endpoint.endsWith(':permission'))).toHaveLength(30);
    expect(operations.filter((o) => o.endpoint.endsWith(':tags'))).toHaveLength(9);
    expect(operations.filter((o) => o.endpoint.endsWith(':tag'))).toHaveLength(27);
    for (const p of PERMISSION_PREFIXES) {
      expect(allowedMethods(`${p}:permission`)).toEqual(['GET', 'POST', 'DELETE']);
      expect(allowedMethods(`${p}:transfer`)).toEqual(['POST']);
    }
    for (const t of TAGGABLE_TYPES) {
      expect(allowedMethods(`${t}:tags`)).toEqual(['GET']);
      expect(allowedMethods(`${t}:tag`)).toEqual(['GET', 'POST', 'DELETE']);
    }
    expect(allowedMethods('tag:tag')).toEqual([]);
    expect(allowedMethods('tag:tags')).toEqual([]);
  });

  it('answers allowedMethods in canonical order', () => {
    expect(allowedMethods('organization:webhook')).toEqual(['GET', 'POST', 'PATCH', 'DELETE']);
    expect(allowedMethods('exam:settings')).toEqual(['GET', 'POST', 'PUT', 'PATCH']);
    expect(allowedMethods('quiz:settings')).toEqual(['GET', 'POST', 'PUT', 'PATCH']);
    expect(allowedMethods('test:app')).toEqual(['GET', 'POST']);
    expect(allowedMethods('user')).toEqual(['GET', 'POST', 'PATCH', 'DELETE']);
    expect(allowedMethods('user:assume')).toEqual(['POST', 'DELETE']);
    expect(allowedMethods('exam:journey:graph')).toEqual(['GET', 'PUT']);
    expect(allowedMethods('exam:status')).toEqual(['GET']);
    expect(allowedMethods('quiz:results:play')).toEqual(['GET', 'DELETE']);
    expect(allowedMethods('nope')).toEqual([]);
    // a copy: mutating it does not affect the catalogue
    allowedMethods('user').pop();
    expect(allowedMethods('user')).toHaveLength(4);
  });

  it('finds operations by method and endpoint', () => {
    expect(findOperation('GET', 'user:me')).toMatchObject({ document: 'A', section: 'Users', area: 'foundation' });
    expect(findOperation('post', 'organization:webhook:trigger')).toMatchObject({ area: 'organizations' });
    expect(findOperation('PUT', 'exam:journey:graph')).toMatchObject({ document: 'B', area: 'journeys' });
    expect(findOperation('DELETE', 'quiz:results:play')).toMatchObject({ area: 'results' });
    expect(findOperation('PUT', 'organization:webhook')).toBeUndefined();
    expect(findOperation('GET', 'unknown')).toBeUndefined();
  });

  it('assigns each endpoint to its issue area', () => {
    const expected: Record<Area, string[]> = {
      foundation: [
        'test:app', 'users', 'user:me', 'user', 'user:name', 'user:group', 'user:search', 'user:login',
        'user:assume', 'integrations', 'integration', 'integration:keys',
      ],
      organizations: [
        'classes', 'class', 'class:assignments', 'class:members', 'classes:members', 'user:classes',
        'organizations', 'organization', 'organization:members', 'organizations:members',
        'organization:department', 'organization:departments', 'organization:competencies',
        'organization:competency:requirements', 'organization:compliance', 'user:organizations',
        'organization:webhook', 'organization:webhook:trigger',
      ],
      permissions: [
        'tags', 'tag',
        ...PERMISSION_PREFIXES.flatMap((p) => [`${p}:permission`, `${p}:transfer`]),
        ...TAGGABLE_TYPES.flatMap((t) => [`${t}:tags`, `${t}:tag`]),
      ],
      quiz: [
        'quizes', 'quiz', 'quiz:settings', 'quiz:skills', 'quiz:questions', 'quiz:grading-presets',
        'quiz:grading-preset', 'questions', 'question', 'question:export', 'question:id',
      ],
      exams: [
        'exams', 'exam', 'exam:skills', 'exam:branding', 'exam:users', 'exam:summary', 'exam:status',
        'exam:settings', 'exam:fields',
      ],
      journeys: ['exam:journey:graph', 'exam:journey:publish'],
      results: [
        'quiz:results:play', 'quiz:results:user', 'exam:results:user', 'exam:results:export',
        'exam:certificates:user', 'exam:certificates:user:download',
      ],
    };
    const areaOf = new Map<string, Area>();
    for (const [area, eps] of Object.entries(expected) as [Area, string[]][]) for (const ep of eps) areaOf.set(ep, area);
    const wrong = operations
      .filter((o) => areaOf.get(o.endpoint) !== o.area)
      .map((o) => `${o.method} ${o.endpoint}: ${o.area}, expected ${areaOf.get(o.endpoint)}`);
    expect(wrong).toEqual([]);
    // every listed endpoint exists
    expect([...areaOf.keys()].filter((ep) => allowedMethods(ep).length === 0)).toEqual([]);
  });

  it('is immutable', () => {
    expect(Object.isFrozen(operations)).toBe(true);
    expect(Object.isFrozen(operations[0])).toBe(true);
  });
});
