import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../src/config.ts';
import { ERROR_CODES } from '../../src/error-codes.ts';
import { Validator } from '@seriousme/openapi-schema-validator';
import { BASE_URL, createTestApp, type TestApp } from '../helpers/app.ts';
import { bulletsA, bulletsB } from '../fixtures/contract-documents.ts';
import { findOperation } from '../../src/rest/operations.ts';
import { proseOf } from '../../src/rest/operations/prose/index.ts';

let t: TestApp;
let doc: any;
beforeAll(async () => {
  t = await createTestApp();
  const r = await t.app.fetch(new Request(`${BASE_URL}/api/openapi.json`));
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
  doc = await r.json();
});
afterAll(async () => t?.close());

const get = (path: string, init?: RequestInit) => t.app.fetch(new Request(`${BASE_URL}${path}`, init));

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does reject a broken description (an operation without responses).
    const broken = structuredClone(doc);
    broken.paths['/user:me'].get.responses = 'none';
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('describes every documented method and endpoint of both documents', () => {
    const documented = [...bulletsA, ...bulletsB].filter((b) => !b.endpoint.includes('<'));
    expect(documented.length).toBeGreaterThan(100);
    for (const bullet of documented) {
      for (const method of bullet.methods.split('/')) {
        const operation = doc.paths[`/${bullet.endpoint}`]?.[method.toLowerCase()];
        expect(operation, `${method} ${bullet.endpoint}`).toBeDefined();
        expect(operation.summary).toBe(proseOf(findOperation(method, bullet.endpoint)!)!.summary);
        expect(operation.tags).toEqual([bullet.section]);
      }
    }
    // The content type templates are expanded: one path per prefix.
    expect(doc.paths['/quiz:permission'].post).toBeDefined();
    expect(doc.paths['/video:tag'].delete).toBeDefined();
  });

  it('gives the arguments of a GET as query parameters with types, defaults and limits', () => {
    const users = doc.paths['/users'].get;
    const param = (name: string) => users.parameters.find((p: any) => p.name === name);
    expect(param('limit')).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', default: 16 } });
    expect(param('page')).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', default: 1 } });
    expect(param('search')).toMatchObject({ in: 'query', schema: { type: 'string' } });
    expect(param('assume')).toMatchObject({ in: 'query', required: false });
    const user = doc.paths['/user'].get;
    expect(user.parameters.find((p: any) => p.name === 'user')).toMatchObject({ required: true, schema: { type: 'string' } });
    expect(user.requestBody).toBeUndefined();
  });

  it('gives the arguments of other methods as a form or JSON body, with the detail of the service schema', () => {
    const create = doc.paths['/user'].post;
    expect(Object.keys(create.requestBody.content)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    const body = create.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['username', 'first_name', 'last_name', 'email']);
    expect(body.properties.username).toMatchObject({ type: 'string', minLength: 4, maxLength: 64 });
    // The documents give no character rule for usernames; the service's zod schema does.
    expect(typeof body.properties.username.pattern).toBe('string');
    expect(new RegExp(body.properties.username.pattern, 'u').test('anna.smith')).toBe(true);
    expect(new RegExp(body.properties.username.pattern, 'u').test('anna smith')).toBe(false);
    expect(body.properties.email).toMatchObject({ type: 'string', format: 'email' });
    expect(body.properties.gender).toMatchObject({ enum: ['male', 'female', 'other'] });
    expect(body.properties.exam).toMatchObject({ type: 'boolean', default: false });
    expect(body.properties.color).toMatchObject({ default: 'default' });
    expect(body.patternProperties).toHaveProperty(['^custom_[a-z0-9_]+$']);
    const webhook = doc.paths['/organization:webhook'].post.requestBody.content['application/json'].schema;
    expect(webhook.properties.method).toMatchObject({ enum: ['POST', 'GET'], default: 'POST' });
    expect(webhook.properties.endpoint).toMatchObject({ type: 'string', format: 'uri' });
    const login = doc.paths['/user:login'].post.requestBody.content['application/json'].schema;
    expect(login.properties.logins).toMatchObject({ type: 'integer', maximum: 255 });
  });

  it('gives the output fields with their JSON types (none where the documents name none)', () => {
    const me = doc.paths['/user:me'].get.responses['200'].content['application/json'].schema;
    expect(me).toEqual({
      type: 'object',
      properties: { user: {}, name: {}, status: { type: 'boolean' }, exam: { type: 'boolean' } },
      required: ['user', 'name', 'status', 'exam'],
    });
    const classes = doc.paths['/classes'].get.responses['200'].content['application/json'].schema;
    expect(classes.properties.classes.type).toBe('array');
    expect(Object.keys(classes.properties.classes.items.properties)).toEqual(['class', 'id', 'title']);
    const organization = doc.paths['/organization'].get.responses['200'].content['application/json'].schema;
    // "description (only if set)": not required.
    expect(organization.required).not.toContain('description');
    expect(organization.properties).toHaveProperty('description');
  });

  describe('nested arguments: the fields of objects and of lists of objects', () => {
    const bodyOf = (path: string, method: string, type = 'application/json') => doc.paths[path][method].requestBody.content[type].schema;
    /** The option of an anyOf that is an array (a list may also be sent as text). */
    const arrayOf = (schema: any) => (schema.type === 'array' ? schema : schema.anyOf.find((s: any) => s.type === 'array'));

    it('POST exam:fields: each custom field with its settings, types, defaults and limits', () => {
      const body = bodyOf('/exam:fields', 'post');
      expect(body.required).toEqual(['exam']);
      for (const builtIn of ['name', 'email', 'phone']) {
        expect(body.properties[builtIn].anyOf).toEqual([{ type: 'boolean' }, { type: 'string', minLength: 1, maxLength: 255 }]);
      }
      const fields = arrayOf(body.properties.fields);
      expect(body.properties.fields.description).toContain('replaces the current custom fields, in display order');
      const field = fields.items;
      expect(Object.keys(field.properties).sort()).toEqual(
        ['label', 'type', 'required', 'description', 'icon', 'options', 'filtering', 'from', 'to', 'step', 'min', 'max', 'minlength', 'maxlength', 'pattern', 'unique'].sort(),
      );
      expect(field.required).toEqual(['label']);
      expect(field.properties.label).toMatchObject({ type: 'string', maxLength: 255 });
      expect(field.properties.label.description).toContain('unique in the exam');
      expect(field.properties.type).toMatchObject({
        enum: ['text', 'email', 'phone', 'select', 'number', 'from-to', 'date', 'datetime', 'yes-no', 'yes', 'no', 'true-false', 'gender'],
        default: 'text',
      });
      expect(field.properties.required).toMatchObject({ type: 'boolean', default: true });
      expect(field.properties.unique).toMatchObject({ type: 'boolean', default: false });
      expect(field.properties.minlength).toMatchObject({ type: 'integer', minimum: 1, maximum: 255 });
      expect(field.properties.maxlength).toMatchObject({ type: 'integer', minimum: 1, maximum: 255 });
      expect(field.properties.pattern).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 });
      expect(field.properties.filtering).toMatchObject({ type: 'object' });
      for (const n of ['from', 'to', 'step']) expect(field.properties[n]).toMatchObject({ type: 'number' });
      expect(arrayOf(field.properties.options).items).toEqual({ type: 'string' });
      expect(field.properties.icon.description).toContain("'fa-<style> fa-<name>'");
      expect(field.properties.options.description).toContain('mandatory for select');
      // A form sends the list as JSON text.
      expect(bodyOf('/exam:fields', 'post', 'application/x-www-form-urlencoded').properties.fields.anyOf.some((s: any) => !s.type && /JSON text/.test(s.description))).toBe(true);
    });

    it('POST question: every field the contract shows, with lists of answers and options as lists or &&&-separated text', () => {
      const body = bodyOf('/question', 'post');
      expect(Object.keys(body.properties).sort()).toEqual(
        [
          'id', 'type', 'content', 'answer', 'answer_order', 'answer_hide', 'answer_indefinite', 'answer_label', 'answer_require', 'answer_format',
          'question_format', 'subject', 'category', 'difficulty', 'path', 'quiz', 'organization', 'options', 'options_fix', 'options_order',
          'ai', 'tags', 'label', 'source', 'note', 'private_note', 'hint', 'explanation', 'solution',
          'decimals', 'tolerance', 'datetime_precision', 'datetime_range',
          'image', 'solution_image', 'attachment', 'media_audio',
          'main_category', 'media_video', 'maximum_choices', 'video', 'graph', 'numerical_range', 'truefalse_third_options', 'truefalse_third_options_label',
          'grouping', 'freetext_characters', 'freetext_words', 'freetext_rules', 'file_count', 'file_types', 'hotspot_image', 'hotspot_zones',
          'points', 'parameters', 'hint_penalty', 'solution_penalty',
        ].sort(),
      );
      expect(body.required).toEqual(['id', 'type', 'content', 'answer']);
      expect(body.properties.id).toMatchObject({ type: 'string', minLength: 1, maxLength: 64 });
      for (const n of ['answer', 'options', 'answer_label', 'tags', 'label', 'hint', 'solution']) {
        expect(arrayOf(body.properties[n]).items, n).toEqual({ type: 'string' });
        expect(body.properties[n].anyOf, n).toContainEqual({ type: 'string', description: "items separated by '&&&'" });
      }
      expect(body.properties.answer.description).toContain('answers or true statements');
      expect(body.properties.options.description).toContain('incorrect options or false statements');
      for (const n of ['answer_order', 'answer_hide', 'answer_indefinite', 'datetime_range']) expect(body.properties[n], n).toMatchObject({ enum: ['+', '-'], default: '-' });
      expect(body.properties.question_format).toMatchObject({ enum: ['NORMAL', 'LATEX', 'LONG'], default: 'NORMAL' });
      expect(body.properties.datetime_precision).toMatchObject({ enum: ['YEAR', 'MONTH', 'DAY'], default: 'DAY' });
      expect(body.properties.difficulty).toMatchObject({ type: 'integer', minimum: 0, maximum: 5, default: 0 });
      expect(body.properties.file_count).toMatchObject({ type: 'integer', minimum: 1, maximum: 25, default: 1 });
      expect(body.properties.decimals).toMatchObject({ default: 2 });
      expect(body.properties.path).toMatchObject({ default: '/API' });
      expect(body.properties.answer_format).toMatchObject({ default: 'normal' });
      // Media: a file part of a multipart form, or `<filename>=<data>` text.
      expect(Object.keys(doc.paths['/question'].post.requestBody.content)).toContain('multipart/form-data');
      for (const n of ['image', 'solution_image', 'attachment', 'media_audio', 'media_video', 'video', 'graph', 'hotspot_image']) {
        expect(body.properties[n].anyOf.map((s: any) => s.type), n).toEqual(['string', 'string']);
        expect(body.properties[n].description, n).toContain('<filename>=<data>');
      }
      for (const n of ['image', 'solution_image']) expect(body.properties[n].description).toContain('PNG, JPEG, WebP');
      expect(body.properties.media_audio.description).toContain('MP3, AAC, M4A');
    });

    it('PUT exam:journey:graph: each node with its edges and its configuration by type, and the settings', () => {
      const body = bodyOf('/exam:journey:graph', 'put');
      const node = arrayOf(body.properties.nodes).items;
      expect(arrayOf(body.properties.nodes).maxItems).toBe(200);
      expect(Object.keys(node.properties)).toEqual(expect.arrayContaining(['node', 'type', 'label', 'position', 'config', 'next', 'marker', 'title', 'content']));
      expect(node.properties.type.enum.sort()).toEqual(['start', 'exam', 'class', 'quiz', 'condition', 'split', 'notify', 'flag', 'mark', 'wait', 'end'].sort());
      expect(node.properties.label.maxLength).toBe(64);
      expect(Object.keys(node.properties.position.properties)).toEqual(['x', 'y']);
      // next: each output to the key of the next node, or null (unconnected).
      expect(node.properties.next.additionalProperties.anyOf).toContainEqual({ type: 'null' });
      const configOf = (type: string) => node.allOf.find((c: any) => c.if.properties.type.const === type).then.properties.config;
      expect(Object.keys(configOf('exam').properties).sort()).toEqual(['complete_on', 'exam', 'retake', 'reuse']);
      expect(Object.keys(configOf('quiz').properties).sort()).toEqual(['min_plays', 'min_result', 'quiz']);
      expect(configOf('quiz').properties.min_plays).toMatchObject({ minimum: 1, maximum: 100 });
      expect(configOf('split').properties.branches).toMatchObject({ minItems: 2, maxItems: 16 });
      expect(Object.keys(configOf('condition').properties.branches.items.properties).sort()).toEqual(['key', 'label', 'match', 'rules']);
      expect(configOf('notify').properties.message.maxLength).toBe(500);
      const settings = body.properties.settings.anyOf.find((s: any) => s.type === 'object');
      expect(Object.keys(settings.properties).sort()).toEqual(['description', 'educators', 'max_visits', 'notify_user', 'restartable', 'title']);
      expect(settings.properties.max_visits).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 5 });
      expect(settings.properties.educators.maxItems).toBe(10);
      // The draft answered describes its nodes and settings the same way.
      const draft = doc.paths['/exam:journey:graph'].get.responses['200'].content['application/json'].schema;
      expect(draft.properties.nodes.items.allOf.some((s: any) => s.properties?.next?.additionalProperties)).toBe(true);
      expect(draft.properties.settings.properties.max_visits).toMatchObject({ minimum: 1, maximum: 50 });
    });

    it('POST quiz:grading-preset: each grade with its threshold, grade and text', () => {
      const grade = arrayOf(bodyOf('/quiz:grading-preset', 'post').properties.grades).items;
      expect(Object.keys(grade.properties).sort()).toEqual(['grade', 'text', 'threshold']);
      expect(grade.properties.threshold).toMatchObject({ type: 'number', minimum: 0, maximum: 100 });
      expect(grade.properties.grade.type).toBe('string');
    });
  });

  it('gives the error statuses with the error headers and body', () => {
    const responses = doc.paths['/user'].post.responses;
    expect(Object.keys(responses).sort()).toEqual(['200', '401', '403', '406', '413', '429', '500', '503']);
    expect(Object.keys(doc.paths['/user:me'].get.responses)).not.toContain('413');
    const forbidden = doc.components.responses.Error403;
    expect(Object.keys(forbidden.headers)).toEqual(['Service-API-Error', 'Service-API-Error-Code']);
    expect(forbidden.description).toContain('MISSING_ARGUMENT');
    expect(doc.components.responses.Error429.headers).toHaveProperty('Retry-After');
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['status', 'code', 'message']);
  });

  it('describes each operation in its own words, with an example and a curl line, never pointing elsewhere', () => {
    const login = doc.paths['/user:login'].post;
    expect(login.summary).toBe('Create a login link for a user');
    expect(login.description).toContain('An equal request (same expiry, logins, redirect, exam, template and short) returns the same valid link');
    expect(login.requestBody.content['application/json'].example).toEqual({ user: 'usr_3k9x0c2m1q7b0a', redirect: '/courses', expires: 7, logins: 3 });
    expect(login.description).toContain(
      `curl -X POST -H "Authorization: Bearer $APP:$SECRET" -H 'Content-Type: application/json' -d '{"user":"usr_3k9x0c2m1q7b0a","redirect":"/courses","expires":7,"logins":3}' "$BASE_URL/api/v1/user:login"`,
    );
    const users = doc.paths['/users'].get;
    expect(users.parameters.find((p: any) => p.name === 'search').example).toBe('smith');
    expect(users.description).toContain('curl -H "Authorization: Bearer $APP:$SECRET" "$BASE_URL/api/v1/users?search=smith&limit=20"');
    // A nested example travels as JSON text in a form.
    const graph = doc.paths['/exam:journey:graph'].put.requestBody.content;
    expect(typeof graph['application/x-www-form-urlencoded'].example.nodes).toBe('string');
    expect(JSON.parse(graph['application/x-www-form-urlencoded'].example.nodes)).toEqual(graph['application/json'].example.nodes);
    for (const [path, methods] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        const where = `${method} ${path}`;
        expect(operation.description, where).toMatch(/```sh\ncurl /);
        expect(operation.description, where).not.toMatch(/Document [AB]|the documents|section "/i);
      }
    }
  });

  it('introduces every area (tag) with the rules of its operations', () => {
    const tag = (name: string) => doc.tags.find((t: any) => t.name === name);
    expect(doc.tags.every((t: any) => t.description?.length > 100)).toBe(true);
    expect(tag('Exams').description).toContain('| 1 | now ≥ `end` (also when switched off, also in review) | EXPIRED |');
    expect(tag('Organizations').description).toContain('**Per assignment**, the first rule that holds gives its single status');
    expect(tag('Exam journeys').description).toContain('| `instant-loop` | error |');
    expect(tag('Exam journeys').description).toContain('| `unreachable` | warning | a node no path from the start reaches (warning) |');
  });

  it('shows error examples with codes of the catalogue, never an invented string', () => {
    const catalogue = new Map(ERROR_CODES.map((e) => [e.code, e]));
    for (const [name, response] of Object.entries<any>(doc.components.responses)) {
      const status = Number(name.replace('Error', ''));
      const { error } = response.content['application/json'].example;
      expect(error.status, name).toBe(status);
      expect(catalogue.get(error.code)?.statuses, name).toContain(status);
      expect(error.message, name).toBe(catalogue.get(error.code)!.meaning);
    }
    expect(doc.components.responses.Error403.content['application/json'].example.error.code).toBe('NOT_FOUND');
    const code = doc.components.schemas.Error.properties.error.properties.code;
    expect(code.enum).toContain('PERMISSION_DENIED');
    expect(code.enum).not.toContain('LINK_USED'); // a download page's code, not a REST call's
    expect(doc.components.headers.ServiceApiErrorCode.example).toBe('NOT_FOUND');
  });

  it('marks exactly the operations that answer 501 as not implemented', async () => {
    for (const [path, methods] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        const endpoint = path.slice(1);
        const r = await t.rpc(method.toUpperCase(), endpoint, {});
        expect(r.status === 501, `${method} ${endpoint}: ${r.status}`).toBe(operation['x-not-implemented'] === true);
        expect('501' in operation.responses).toBe(r.status === 501);
      }
    }
  });

  it('names the three credential forms', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.appHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'Service-API-App' });
    expect(doc.components.securitySchemes.secretHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'Service-API-Secret' });
    expect(doc.components.securitySchemes.appArgument).toMatchObject({ type: 'apiKey', in: 'query', name: 'app' });
    expect(doc.components.securitySchemes.secretArgument).toMatchObject({ type: 'apiKey', in: 'query', name: 'secret' });
    expect(doc.security).toEqual([{ bearer: [] }, { appHeader: [], secretHeader: [] }, { appArgument: [], secretArgument: [] }]);
    expect(doc.servers).toEqual([{ url: '/api/v1', description: expect.any(String) }]);
  });

  it('needs no credentials, and is answered before the REST router', async () => {
    const r = await get('/api/openapi.json', { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
    // A POST is the router's: an unknown endpoint.
    const post = await get('/api/openapi.json', { method: 'POST' });
    expect(post.status).toBe(400);
    expect(post.headers.get('service-api-error-code')).toBe('UNKNOWN_ENDPOINT');
  });
});

describe('GET /api/docs', () => {
  it('serves the reference page with Swagger UI from this service only', async () => {
    const r = await get('/api/docs');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await r.text();
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual([
      '/api/docs/assets/favicon-32x32.png',
      '/api/docs/assets/swagger-ui.css',
      '/api/docs/assets/swagger-ui-bundle.js',
      '/api/docs/assets/start.js',
    ]);
    const types: Record<string, string> = { png: 'image/png', css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8' };
    for (const asset of assets) {
      const file = await get(asset);
      expect(file.status, asset).toBe(200);
      expect(file.headers.get('content-type')).toBe(types[asset.split('.').pop()!]);
      expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    const start = await (await get('/api/docs/assets/start.js')).text();
    expect(start).toContain("url: '/api/openapi.json'");
    expect(start).toContain('validatorUrl: null');
  });
});

describe('the guide', () => {
  const guideFile = readFileSync(new URL('../../src/http/guide.md', import.meta.url), 'utf8');

  it('is served as Markdown at /api/docs/guide, without credentials', async () => {
    const r = await get('/api/docs/guide');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const text = await r.text();
    expect(text).toBe(guideFile);
    // What an operator looks for is there.
    for (const heading of ['## Calling the API', '### Health endpoints', '### Metrics', '### Shutdown', '### Logs', '### GraphQL limits', '### Rate-limit headers', '### CORS and CSRF', '### HTTP limits and timeouts', '### Enumeration and guessing', '### Several instances']) {
      expect(text).toContain(`\n${heading}\n`);
    }
    const head = await get('/api/docs/guide', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('is a section of the reference page, after the introduction', () => {
    const description: string = doc.info.description;
    expect(description.indexOf('## Credentials')).toBeGreaterThanOrEqual(0);
    expect(description.indexOf('\n# Guide\n')).toBeGreaterThan(description.indexOf('## Credentials'));
    expect(description.endsWith(guideFile)).toBe(true);
  });

  it('names only configuration variables the configuration knows', () => {
    // Every UPPER_SNAKE name in it is an error code, a configuration variable or NODE_ENV.
    const known = new Set([...CONFIG_VARIABLES, ...ERROR_CODES.map((e) => e.code), 'NODE_ENV', 'GRAPHQL_PARSE_FAILED']);
    const named = [...guideFile.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g)].map((m) => m[1]!);
    expect(named.filter((n) => CONFIG_VARIABLES.includes(n)).length).toBeGreaterThan(20);
    expect(named.filter((n) => !known.has(n))).toEqual([]);
  });
});
