import { describe, expect, it } from 'vitest';
import {
  allowedMethods,
  COMMON_ARGUMENTS,
  findOperation,
  NOT_SHOWN_ENDPOINTS,
  additions,
  // The documents' operations; the service's additions (exam:round) are checked on their own below.
  documentedOperations as operations,
  operations as served,
  PERMISSION_PREFIXES,
  TAGGABLE_TYPES,
  type Area,
  type HttpMethod,
  type Operation,
} from '../../src/rest/operations.ts';
import {
  bulletsA,
  bulletsB,
  examSettingNames,
  namedEndpointsA,
  namedEndpointsB,
  notShownEndpoints,
  pagingParameters,
  permissionTable,
  taggableTypeList,
  type DocumentedBullet,
} from '../fixtures/contract-documents.ts';

// ---------------------------------------------------------------------------
/** The catalogue's name for each part of the contract the fixture copies. */
const PART_OF = { A: 'accounts', B: 'assessments' } as const;

// The facts of the contract documents, as the fixture copies them
// ---------------------------------------------------------------------------

interface Doc {
  document: 'A' | 'B';
  bullets: readonly DocumentedBullet[];
  /** Endpoint names in backticks in the Endpoints section. */
  named: readonly string[];
}

const docs: Doc[] = [
  { document: 'A', bullets: bulletsA, named: namedEndpointsA },
  { document: 'B', bullets: bulletsB, named: namedEndpointsB },
];

const isTemplated = (endpoint: string) => endpoint.includes('<');
const pairKey = (method: string, endpoint: string) => `${method} ${endpoint}`;

/** Prefixes from the "Path prefix" column of the contract's permission table. */
const permissionPrefixesFromDoc = (): string[] => permissionTable.map((row) => row[2]);

/** Taggable types from "For each taggable type (...)" in the contract ("Quiz set using parameter quiz" -> quiz). */
function taggableTypesFromDoc(): string[] {
  return taggableTypeList.split(',').map((s) => {
    const item = s.trim();
    return /using parameter (\w+)/.exec(item)?.[1] ?? item;
  });
}

interface Stated {
  document: 'A' | 'B';
  section: string;
  bullet: DocumentedBullet;
  /** The bullets before it in the same document, nearest first ("same input" refers to them). */
  before: readonly DocumentedBullet[];
  /** What `<p>` stands for in a templated bullet. */
  parameter?: string;
}

/** Every method + endpoint pair the documents state, with the templated families expanded. */
function statedPairs(): Map<string, Stated> {
  const out = new Map<string, Stated>();
  const prefixes = permissionPrefixesFromDoc();
  const parameters = new Map(permissionTable.map((row) => [row[2], row[1]]));
  const types = taggableTypesFromDoc();
  for (const d of docs) {
    d.bullets.forEach((b, i) => {
      let eps: [string, string | undefined][] = [[b.endpoint, undefined]];
      if (b.endpoint.includes('<prefix>')) eps = prefixes.map((p) => [b.endpoint.replace('<prefix>', p), parameters.get(p)]);
      else if (b.endpoint.includes('<type>')) eps = types.map((t) => [b.endpoint.replace('<type>', t), t]);
      for (const [ep, parameter] of eps) {
        for (const m of b.methods.split('/')) {
          out.set(pairKey(m, ep), { document: d.document, section: b.section, bullet: b, before: d.bullets.slice(0, i).reverse(), parameter });
        }
      }
    });
  }
  return out;
}

/** The words of a documented line, with `<p>` read as its parameter. */
function wordsOf(text: string, parameter?: string): Set<string> {
  const t = parameter ? text.replaceAll('`<p>`', parameter) : text;
  return new Set(t.match(/[a-z_{}]+/gi) ?? []);
}

const names = (o: Operation) => o.arguments.map((a) => a.name);

// ---------------------------------------------------------------------------

describe('operation catalogue', () => {
  it('has 194 operations', () => {
    expect(operations).toHaveLength(194);
    expect(operations.filter((o) => o.part === 'accounts')).toHaveLength(138);
    expect(operations.filter((o) => o.part === 'assessments')).toHaveLength(56);
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
      for (const name of d.named) {
        if (isTemplated(name) || notShownEndpoints.includes(name)) continue;
        checked++;
        if (!catalogued.has(name)) missing.push(`${d.document}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(60); // the fixture really holds the endpoints
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
        return !s || PART_OF[s.document] !== o.part || s.section !== o.section;
      })
      .map((o) => `${o.method} ${o.endpoint} (${o.part} / ${o.section})`);
    expect(wrong).toEqual([]);
  });

  it('adds the endpoints whose contract is not shown, as this service designs them (exam:round, exam:certificates, exam:journey)', () => {
    expect(allowedMethods('exam:certificates')).toEqual(['POST']);
    expect(allowedMethods('exam:journey')).toEqual(['GET']);
    expect(additions.map((o) => pairKey(o.method, o.endpoint))).toEqual(['GET exam:round', 'POST exam:round', 'POST exam:certificates', 'GET exam:journey', 'GET exam:journey:user']);
    expect(findOperation('POST', 'exam:certificates')).toBe(additions[2]);
    // The user-state record's endpoint is not shown either: it is named below the not-shown exam:journey.
    expect(additions.every((o) => o.addition === true && notShownEndpoints.some((e) => o.endpoint === e || o.endpoint === `${e}:user`))).toBe(true);
    expect(operations.some((o) => o.addition)).toBe(false);
    expect(served).toEqual([...operations, ...additions]);
    expect(findOperation('GET', 'exam:round')).toBe(additions[0]);
    expect(allowedMethods('exam:round')).toEqual(['GET', 'POST']);
    expect(operations.some((o) => isTemplated(o.endpoint))).toBe(false);
    expect([...NOT_SHOWN_ENDPOINTS]).toEqual(notShownEndpoints);
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
    expect(findOperation('GET', 'user:me')).toMatchObject({ part: 'accounts', section: 'Users', area: 'foundation' });
    expect(findOperation('post', 'organization:webhook:trigger')).toMatchObject({ area: 'organizations' });
    expect(findOperation('PUT', 'exam:journey:graph')).toMatchObject({ part: 'assessments', area: 'journeys' });
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
    const user = findOperation('POST', 'user')!;
    expect(Object.isFrozen(user.arguments)).toBe(true);
    expect(Object.isFrozen(user.arguments[0])).toBe(true);
    expect(Object.isFrozen(user.output)).toBe(true);
    expect(Object.isFrozen(findOperation('GET', 'users')!.output![0]!.fields)).toBe(true);
  });
});

describe('documented arguments and output', () => {
  const stated = statedPairs();
  const lineOf = (o: Operation) => stated.get(pairKey(o.method, o.endpoint))!;
  /** The text that states the input: "same input" reads the nearest bullet before that states one. */
  const inputText = (s: Stated) => [s.bullet, ...s.before].find((b) => !/^same input/.test(b.text))!.text;

  it('marks as required exactly the arguments its line marks (req)', () => {
    const wrong: string[] = [];
    for (const o of operations) {
      const s = lineOf(o);
      if (o.notShown?.includes('input') && !/\(req/.test(s.bullet.text)) continue;
      const text = inputText(s).replaceAll('`<p>`', s.parameter ?? '<p>');
      const documented = new Set([...text.matchAll(/([a-z_]+) \(req[,;)]/g)].map((m) => m[1]!));
      const deep = (args: Operation['arguments']): string[] => args.flatMap((a) => [...(a.required ? [a.name] : []), ...deep(a.fields ?? [])]);
      const required = new Set(deep(o.arguments));
      const topRequired = o.arguments.filter((a) => a.required).map((a) => a.name);
      for (const name of documented) if (!required.has(name)) wrong.push(`${o.method} ${o.endpoint}: ${name} is (req) but optional`);
      for (const name of topRequired) if (!documented.has(name)) wrong.push(`${o.method} ${o.endpoint}: ${name} is required but not (req)`);
    }
    expect(wrong).toEqual([]);
    // "(req for LMS integrations)" is a condition, not a plain requirement
    expect(findOperation('POST', 'integration')!.arguments.find((a) => a.name === 'lti')).toMatchObject({ required: false });
  });

  it('names each argument in its line (L is the paging parameters, POST exam:settings the settings table)', () => {
    const wrong: string[] = [];
    for (const o of operations) {
      const s = lineOf(o);
      if (o.notShown?.includes('input') && o.endpoint.endsWith(':tags')) continue;
      const text = inputText(s);
      const words = wordsOf(text, s.parameter);
      if (/^L\b/.test(text)) for (const w of wordsOf(pagingParameters)) words.add(w);
      if (o.method === 'POST' && o.endpoint === 'exam:settings') for (const w of examSettingNames) words.add(w);
      for (const name of names(o)) if (!words.has(name)) wrong.push(`${o.method} ${o.endpoint}: ${name}`);
    }
    // Arguments the services accept beyond the lines: they are in the table because the service
    // parses them (an organization's external id and contact fields; a question found by its
    // quiz or path). A new one shows up here.
    expect(wrong).toEqual([
      'POST organization: id',
      'PATCH organization: description',
      'PATCH organization: id',
      'PATCH organization: domain',
      'PATCH organization: website',
      'PATCH organization: email',
      'PATCH organization: phone',
      'GET question: path',
      'GET question: quiz',
      'POST question: quiz',
      'DELETE question: path',
      'DELETE question: quiz',
      'POST question:export: path',
      'POST question:export: quiz',
    ]);
    expect(names(findOperation('GET', 'users')!)).toEqual(['search', 'limit', 'page']);
    expect(names(findOperation('POST', 'exam:settings')!)).toEqual(['exam', ...examSettingNames.filter((n) => n !== 'export_attendance')]);
  });

  it('has an output exactly where its line states one, and says what is not shown', () => {
    const wrong: string[] = [];
    for (const o of operations) {
      const text = lineOf(o).bullet.text;
      const outputNotShown = /Output of [^.]*: not shown/.test(text);
      const inputNotShown = /Input of [^.]*: not shown|complete field list of [^.]*: not shown/.test(text);
      const hasOutput = !outputNotShown && /\bOut\b|\bout\b|\b[Rr]eturns\b|same input and output/.test(text);
      if (hasOutput !== (o.output !== undefined)) wrong.push(`${o.method} ${o.endpoint}: output ${o.output ? 'listed' : 'missing'}`);
      if (outputNotShown !== !!o.notShown?.includes('output')) wrong.push(`${o.method} ${o.endpoint}: output not shown`);
      if (inputNotShown !== !!o.notShown?.includes('input')) wrong.push(`${o.method} ${o.endpoint}: input not shown`);
    }
    expect(wrong).toEqual([]);
    expect(findOperation('GET', 'exam:status')).toMatchObject({ notShown: ['output'] });
    expect(findOperation('GET', 'exam:status')!.output).toBeUndefined();
  });

  it('is well-formed: unique names, bounds in order, defaults among the values, no default on a required argument', () => {
    const wrong: string[] = [];
    const check = (where: string, args: Operation['arguments']) => {
      const seen = new Set<string>();
      for (const a of args) {
        const at = `${where} ${a.name}`;
        if (seen.has(a.name)) wrong.push(`${at}: twice`);
        seen.add(a.name);
        if (a.min !== undefined && a.max !== undefined && a.min > a.max) wrong.push(`${at}: min > max`);
        if (a.values && a.default !== undefined && !a.values.includes(String(a.default))) wrong.push(`${at}: default not a value`);
        if (a.required && a.default !== undefined) wrong.push(`${at}: required with a default`);
        const types = typeof a.type === 'string' ? [a.type] : a.type;
        if ((a.items || a.separator) && !types.includes('list')) wrong.push(`${at}: items without list`);
        if (a.fields && !types.some((t) => t === 'list' || t === 'hash')) wrong.push(`${at}: fields without hash or list`);
        check(at, a.fields ?? []);
      }
    };
    for (const o of operations) check(`${o.method} ${o.endpoint}`, [...COMMON_ARGUMENTS, ...o.arguments]);
    expect(wrong).toEqual([]);
  });

  it('states the documented types, limits and defaults', () => {
    const arg = (method: HttpMethod, endpoint: string, name: string) => findOperation(method, endpoint)!.arguments.find((a) => a.name === name);
    expect(arg('POST', 'user', 'username')).toEqual({ name: 'username', required: true, type: 'string', min: 4, max: 64, pattern: expect.any(String) });
    expect(arg('POST', 'user', 'email')).toMatchObject({ required: true, type: 'string', format: 'email' });
    expect(arg('POST', 'user', 'gender')).toMatchObject({ required: false, values: ['male', 'female', 'other'] });
    expect(arg('POST', 'user', 'color')).toMatchObject({ default: 'default' });
    expect(arg('POST', 'user:login', 'expires')).toMatchObject({ type: ['integer', 'date'], min: 1, max: 30, default: 1 });
    expect(arg('POST', 'user:login', 'logins')).toMatchObject({ type: 'integer', max: 255 });
    expect(arg('POST', 'class:members', 'users')).toMatchObject({ required: true, type: 'list', separator: ',' });
    expect(arg('POST', 'organization:department', 'leaders')).toMatchObject({ type: 'list', max: 5 });
    expect(arg('POST', 'organization:webhook', 'retry')).toMatchObject({ values: ['none', 'error'], default: 'error' });
    expect(arg('POST', 'organization:webhook', 'extra_data')).toMatchObject({ type: 'json' });
    expect(arg('GET', 'event:permission', 'permission')!.values).toEqual(['view', 'report', 'control', 'modify', 'finances', 'grant', 'admin']);
    expect(arg('GET', 'quiz:permission', 'permission')!.values).toEqual(['view', 'report', 'control', 'modify', 'grant', 'admin']);
    expect(arg('POST', 'exam:settings', 'export_format')).toMatchObject({ values: ['csv', 'xlsx'], default: 'xlsx' });
    expect(arg('POST', 'exam:settings', 'grading_threshold')).toMatchObject({ type: 'number', min: 0, max: 100 });
    expect(arg('POST', 'question', 'file_count')).toMatchObject({ type: 'integer', min: 1, max: 25, default: 1 });
    expect(arg('POST', 'question', 'hint')).toMatchObject({ type: 'list', separator: '&&&' });
    expect(arg('POST', 'question', 'image')).toMatchObject({ type: 'file' });
    expect(arg('POST', 'quiz:grading-preset', 'title')).toMatchObject({ required: true, min: 1, max: 128 });
    expect(arg('PUT', 'exam:journey:graph', 'nodes')).toMatchObject({ required: true, type: ['list', 'json'], max: 200 });
    expect(arg('POST', 'exam:fields', 'fields')!.fields!.map((f) => f.name)).toContain('minlength');
    expect(COMMON_ARGUMENTS.map((a) => a.name)).toEqual(['app', 'secret', 'assume', 'version']);
  });

  it('states the documented output fields', () => {
    const output = (method: HttpMethod, endpoint: string) => findOperation(method, endpoint)!.output;
    expect(output('GET', 'user:me')).toEqual([
      { name: 'user' },
      { name: 'name' },
      { name: 'status', type: 'boolean' },
      { name: 'exam', type: 'boolean' },
    ]);
    expect(output('GET', 'users')).toEqual([{ name: 'users', type: 'list', fields: [{ name: 'user' }, { name: 'name' }] }]);
    expect(output('GET', 'class')!.find((f) => f.name === 'start')).toEqual({ name: 'start', type: 'datetime', nullable: true });
    expect(output('GET', 'organization')!.find((f) => f.name === 'description')).toEqual({ name: 'description', optional: true });
    expect(output('GET', 'user:login')!.find((f) => f.name === 'url')).toEqual({ name: 'url', type: 'string', format: 'url' });
    expect(output('GET', 'class:tag')).toEqual([
      { name: 'tag' },
      { name: 'content', type: 'hash', fields: [{ name: 'type' }, { name: 'code' }, { name: 'id', type: 'string', nullable: true }] },
      { name: 'status', type: 'boolean' },
    ]);
    expect(output('GET', 'exam:fields')!.find((f) => f.name === 'name')).toEqual({ name: 'name', type: ['boolean', 'string'] });
    expect(output('GET', 'organization:competency:requirements')!.at(-1)!.fields!.find((f) => f.name === 'documents')).toEqual({
      name: 'documents',
      optional: true,
      type: 'list',
      items: 'string',
    });
    expect(output('GET', 'exam:journey:graph')![0]).toEqual({ name: '$schema', type: 'string', format: 'url' });
  });
});
