/**
 * The catalogue of every REST/RPC operation (method + endpoint path) that the two
 * contract documents define (/work/shared/spec/document-a.md and document-b.md).
 *
 * Plain data: the router uses it to tell an unknown endpoint (400) from a method the
 * endpoint does not support (405), and each issue area implements its own slice. The
 * per-content-type families come from the content registration (content-types.ts).
 *
 * Deliberately absent:
 * - GET `exam:journey`, GET/POST `exam:round`, POST `exam:certificates`: Document B
 *   names them ("Further endpoints referred to above ...: not shown"), but their
 *   contract is not shown.
 * - the journey user-state record: its path and method are not shown.
 * - metrics endpoints (Document A rule 3: not shown).
 */

import { permissionTypes, taggableTypes } from '../services/content/content-types.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type Area =
  | 'foundation'
  | 'organizations'
  | 'permissions'
  | 'quiz'
  | 'exams'
  | 'journeys'
  | 'results';

export interface Operation {
  method: HttpMethod;
  /** Endpoint path as written in the documents, e.g. `class:members`. */
  endpoint: string;
  document: 'A' | 'B';
  /** The `###` heading of the document's Endpoints section that defines it. */
  section: string;
  /** the issue area that implements it */
  area: Area;
}

/** Canonical method order (also the order used by `allowedMethods`, e.g. for `Allow`). */
export const HTTP_METHODS: readonly HttpMethod[] = Object.freeze(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Path prefixes of "Content permissions and transfer" (Document A): the content types that take permissions. */
export const PERMISSION_PREFIXES = Object.freeze([...permissionTypes]);

/** Taggable content types of "Tags" (Document A): the content types that take tags. */
export const TAGGABLE_TYPES = Object.freeze([...taggableTypes]);

function op(
  document: Operation['document'],
  section: string,
  area: Area,
  endpoint: string,
  ...methods: HttpMethod[]
): Operation[] {
  return methods.map((method) => Object.freeze({ method, endpoint, document, section, area }));
}

// ---------------------------------------------------------------------------
// Document A
// ---------------------------------------------------------------------------

const A_TEST = 'Test';
const A_USERS = 'Users';
const A_CLASSES = 'Classes';
const A_ORGS = 'Organizations';
const A_INTEGRATIONS = 'Integrations';
const A_PERMISSIONS = 'Content permissions and transfer';
const A_TAGS = 'Tags';

const documentA: Operation[] = [
  // ### Test
  ...op('A', A_TEST, 'foundation', 'test:app', 'GET', 'POST'),

  // ### Users
  ...op('A', A_USERS, 'foundation', 'users', 'GET'),
  ...op('A', A_USERS, 'foundation', 'user:me', 'GET'),
  ...op('A', A_USERS, 'foundation', 'user', 'GET', 'POST', 'PATCH', 'DELETE'),
  ...op('A', A_USERS, 'foundation', 'user:name', 'GET', 'POST'),
  ...op('A', A_USERS, 'foundation', 'user:group', 'GET', 'POST'),
  ...op('A', A_USERS, 'foundation', 'user:login', 'GET', 'POST', 'DELETE'),
  ...op('A', A_USERS, 'foundation', 'user:search', 'GET'),
  ...op('A', A_USERS, 'foundation', 'user:assume', 'POST', 'DELETE'),

  // ### Classes
  ...op('A', A_CLASSES, 'organizations', 'classes', 'GET'),
  ...op('A', A_CLASSES, 'organizations', 'class', 'GET'),
  ...op('A', A_CLASSES, 'organizations', 'class:assignments', 'GET'),
  ...op('A', A_CLASSES, 'organizations', 'class:members', 'GET', 'POST', 'DELETE'),
  ...op('A', A_CLASSES, 'organizations', 'classes:members', 'POST'),
  ...op('A', A_CLASSES, 'organizations', 'user:classes', 'GET', 'POST', 'DELETE'),

  // ### Organizations
  ...op('A', A_ORGS, 'organizations', 'organizations', 'GET'),
  ...op('A', A_ORGS, 'organizations', 'organization', 'GET', 'POST', 'PATCH', 'DELETE'),
  ...op('A', A_ORGS, 'organizations', 'organization:members', 'GET', 'POST', 'DELETE'),
  ...op('A', A_ORGS, 'organizations', 'organizations:members', 'POST'),
  ...op('A', A_ORGS, 'organizations', 'organization:departments', 'GET'),
  ...op('A', A_ORGS, 'organizations', 'organization:department', 'GET', 'POST', 'PATCH', 'DELETE'),
  ...op('A', A_ORGS, 'organizations', 'organization:competencies', 'GET'),
  ...op('A', A_ORGS, 'organizations', 'organization:competency:requirements', 'GET'),
  ...op('A', A_ORGS, 'organizations', 'organization:compliance', 'GET'),
  ...op('A', A_ORGS, 'organizations', 'user:organizations', 'GET', 'POST', 'DELETE'),
  ...op('A', A_ORGS, 'organizations', 'organization:webhook', 'GET', 'POST', 'PATCH', 'DELETE'),
  ...op('A', A_ORGS, 'organizations', 'organization:webhook:trigger', 'POST'),

  // ### Integrations
  ...op('A', A_INTEGRATIONS, 'foundation', 'integrations', 'GET'),
  ...op('A', A_INTEGRATIONS, 'foundation', 'integration', 'GET', 'POST', 'PATCH', 'DELETE'),
  ...op('A', A_INTEGRATIONS, 'foundation', 'integration:keys', 'GET', 'POST'),

  // ### Content permissions and transfer: four operations per content type
  ...PERMISSION_PREFIXES.flatMap((prefix) => [
    ...op('A', A_PERMISSIONS, 'permissions', `${prefix}:permission`, 'GET', 'POST', 'DELETE'),
    ...op('A', A_PERMISSIONS, 'permissions', `${prefix}:transfer`, 'POST'),
  ]),

  // ### Tags
  ...op('A', A_TAGS, 'permissions', 'tags', 'GET'),
  ...op('A', A_TAGS, 'permissions', 'tag', 'GET'),
  ...TAGGABLE_TYPES.flatMap((type) => [
    ...op('A', A_TAGS, 'permissions', `${type}:tags`, 'GET'),
    ...op('A', A_TAGS, 'permissions', `${type}:tag`, 'GET', 'POST', 'DELETE'),
  ]),
];

// ---------------------------------------------------------------------------
// Document B
// ---------------------------------------------------------------------------

const B_EXAMS = 'Exams';
const B_SETTINGS = 'Exam settings';
const B_FIELDS = 'Exam user data fields';
const B_JOURNEYS = 'Exam journeys';
const B_RESULTS = 'Results and certificates';
const B_QUIZ = 'Quiz sets';
const B_PRESETS = 'Grading presets';
const B_QUESTIONS = 'Questions';

const documentB: Operation[] = [
  // ### Exams
  ...op('B', B_EXAMS, 'exams', 'exams', 'GET'),
  ...op('B', B_EXAMS, 'exams', 'exam', 'GET', 'POST', 'PATCH', 'DELETE'),
  ...op('B', B_EXAMS, 'exams', 'exam:skills', 'GET'),
  ...op('B', B_EXAMS, 'exams', 'exam:branding', 'GET', 'POST', 'DELETE'),
  ...op('B', B_EXAMS, 'exams', 'exam:users', 'GET', 'POST', 'DELETE'),
  ...op('B', B_EXAMS, 'exams', 'exam:summary', 'POST'),
  ...op('B', B_EXAMS, 'exams', 'exam:status', 'GET'), // output not shown, operation stated

  // ### Exam settings
  ...op('B', B_SETTINGS, 'exams', 'exam:settings', 'GET', 'POST', 'PUT', 'PATCH'),

  // ### Exam user data fields
  ...op('B', B_FIELDS, 'exams', 'exam:fields', 'GET', 'POST', 'DELETE'),

  // ### Exam journeys (GET exam:journey, GET/POST exam:round, POST exam:certificates: not shown)
  ...op('B', B_JOURNEYS, 'journeys', 'exam:journey:graph', 'GET', 'PUT'),
  ...op('B', B_JOURNEYS, 'journeys', 'exam:journey:publish', 'POST'),

  // ### Results and certificates
  ...op('B', B_RESULTS, 'results', 'quiz:results:play', 'GET', 'DELETE'),
  ...op('B', B_RESULTS, 'results', 'quiz:results:user', 'GET'),
  ...op('B', B_RESULTS, 'results', 'exam:results:user', 'GET'),
  ...op('B', B_RESULTS, 'results', 'exam:results:export', 'POST'),
  ...op('B', B_RESULTS, 'results', 'exam:certificates:user', 'GET'),
  ...op('B', B_RESULTS, 'results', 'exam:certificates:user:download', 'POST'),

  // ### Quiz sets
  ...op('B', B_QUIZ, 'quiz', 'quizes', 'GET'),
  ...op('B', B_QUIZ, 'quiz', 'quiz', 'GET', 'POST', 'PATCH', 'DELETE'),
  ...op('B', B_QUIZ, 'quiz', 'quiz:settings', 'GET', 'POST', 'PUT', 'PATCH'),
  ...op('B', B_QUIZ, 'quiz', 'quiz:skills', 'GET'),
  ...op('B', B_QUIZ, 'quiz', 'quiz:questions', 'GET', 'POST', 'DELETE'),

  // ### Grading presets
  ...op('B', B_PRESETS, 'quiz', 'quiz:grading-presets', 'GET'),
  ...op('B', B_PRESETS, 'quiz', 'quiz:grading-preset', 'GET', 'POST', 'PATCH', 'DELETE'),

  // ### Questions
  ...op('B', B_QUESTIONS, 'quiz', 'questions', 'GET'),
  ...op('B', B_QUESTIONS, 'quiz', 'question', 'GET', 'POST', 'DELETE'),
  ...op('B', B_QUESTIONS, 'quiz', 'question:export', 'POST'),
  ...op('B', B_QUESTIONS, 'quiz', 'question:id', 'GET', 'POST'),
];

/** Every operation of both documents (194), in document order. */
export const operations: readonly Operation[] = Object.freeze([...documentA, ...documentB]);

// ---------------------------------------------------------------------------
// Lookups (built once)
// ---------------------------------------------------------------------------

const key = (method: string, endpoint: string): string => `${method.toUpperCase()} ${endpoint}`;

const byKey: ReadonlyMap<string, Operation> = new Map(operations.map((o) => [key(o.method, o.endpoint), o]));

const methodsByEndpoint: ReadonlyMap<string, readonly HttpMethod[]> = (() => {
  const m = new Map<string, Set<HttpMethod>>();
  for (const o of operations) {
    let set = m.get(o.endpoint);
    if (!set) m.set(o.endpoint, (set = new Set()));
    set.add(o.method);
  }
  return new Map([...m].map(([ep, set]) => [ep, HTTP_METHODS.filter((x) => set.has(x))]));
})();

/** Every distinct endpoint path of the catalogue. */
export const endpoints: readonly string[] = Object.freeze([...methodsByEndpoint.keys()]);

/** True when the endpoint exists with any method (otherwise the call is a 400). */
export function isKnownEndpoint(endpoint: string): boolean {
  return methodsByEndpoint.has(endpoint);
}

/**
 * Methods the endpoint supports, in canonical order (GET, POST, PUT, PATCH, DELETE);
 * empty for an unknown endpoint.
 */
export function allowedMethods(endpoint: string): HttpMethod[] {
  return [...(methodsByEndpoint.get(endpoint) ?? [])];
}

/** The operation for a method and endpoint (method matched case-insensitively), if defined. */
export function findOperation(method: string, endpoint: string): Operation | undefined {
  return byKey.get(key(method, endpoint));
}
