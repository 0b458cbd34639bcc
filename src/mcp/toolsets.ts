import type { Operation } from '../rest/operations.ts';

/**
 * Toolsets: the operations grouped by domain, so that a client loads the tools of the work at
 * hand instead of every operation of the contract (199 tools crowd a model's context and its
 * choice). The client names the toolsets it wants; `default` is the assessment workflow, `all`
 * is every operation.
 *
 * Each operation belongs to exactly one toolset: the first whose rule matches it, in the order
 * below (so the cross-cutting permission and tag operations of every content type go to their
 * own toolsets before the content type's toolset is considered).
 */

export interface Toolset {
  name: string;
  description: string;
  includes(operation: Operation): boolean;
}

const endpointIs = (...endpoints: string[]) => (o: Operation) => endpoints.includes(o.endpoint);
const startsWith = (...prefixes: string[]) => (o: Operation) => prefixes.some((p) => o.endpoint === p || o.endpoint.startsWith(`${p}:`));
const lastPart = (o: Operation) => o.endpoint.split(':').at(-1)!;

export const TOOLSETS: readonly Toolset[] = [
  {
    name: 'context',
    description: 'Who the caller is (user:me) and acting as another user with an assume token (user:assume).',
    includes: endpointIs('user:me', 'user:assume'),
  },
  {
    name: 'permissions',
    description: 'Permission levels of users, groups and classes on any content, and transfer of ownership.',
    includes: (o) => ['permission', 'transfer'].includes(lastPart(o)),
  },
  {
    name: 'tags',
    description: 'Tags and the tags of any content.',
    includes: (o) => ['tags', 'tag'].includes(lastPart(o)),
  },
  {
    name: 'results',
    description: 'Results (plays) of Quiz sets and exams, and their export.',
    includes: startsWith('quiz:results', 'exam:results'),
  },
  {
    name: 'certificates',
    description: 'Certificates of exams: issuing, reading and downloading them.',
    includes: startsWith('exam:certificates'),
  },
  {
    name: 'journeys',
    description: 'Journeys that move users from an exam to the next steps: graph, publishing, progress.',
    includes: startsWith('exam:journey'),
  },
  {
    name: 'settings',
    description: 'Settings of Quiz sets and exams, custom examinee fields, branding and exam rounds.',
    includes: startsWith('quiz:settings', 'exam:settings', 'exam:fields', 'exam:branding', 'exam:round'),
  },
  {
    name: 'grading',
    description: 'Grading presets of Quiz sets.',
    includes: startsWith('quiz:grading-preset', 'quiz:grading-presets'),
  },
  {
    name: 'questions',
    description: 'Questions: create, read, delete, export, and their own identification strings.',
    includes: startsWith('question', 'questions'),
  },
  {
    name: 'quizzes',
    description: 'Quiz sets: create, read, update, delete, list, their questions and skills.',
    includes: startsWith('quiz', 'quizes'),
  },
  {
    name: 'exams',
    description: 'Exams of a Quiz set: create, read, update, delete, list, examinees, status, summaries and skills.',
    includes: startsWith('exam', 'exams'),
  },
  {
    name: 'webhooks',
    description: 'Webhooks of organizations: create, update, delete, trigger.',
    includes: startsWith('organization:webhook'),
  },
  {
    name: 'organizations',
    description: 'Organizations, departments, their members, competencies and compliance; the organizations of a user.',
    includes: (o) => startsWith('organization', 'organizations')(o) || o.endpoint === 'user:organizations',
  },
  {
    name: 'classes',
    description: 'Classes, their members and assignments; the classes of a user.',
    includes: (o) => startsWith('class', 'classes')(o) || o.endpoint === 'user:classes',
  },
  {
    name: 'integrations',
    description: 'Integrations (API and LTI), their keys, and the test of the calling application.',
    includes: startsWith('integration', 'integrations', 'test'),
  },
  {
    name: 'users',
    description: 'User accounts: list, search, create, update, delete, names, groups and login links.',
    includes: startsWith('user', 'users'),
  },
];

/** The assessment workflow: a Quiz set with questions, an exam, its examinees and their results. */
export const DEFAULT_TOOLSETS: readonly string[] = ['context', 'quizzes', 'questions', 'exams', 'results'];

export const ALL = 'all';
export const DEFAULT = 'default';

/** The toolset an operation belongs to (every operation of the catalogue has one: a test holds it). */
export function toolsetOf(operation: Operation): string | undefined {
  return TOOLSETS.find((t) => t.includes(operation))?.name;
}

export class ToolsetSelectionError extends Error {}

/**
 * The toolsets a client asked for, from comma-separated lists (the header and the query
 * parameter; either may be absent); none asked for means the default. Unknown names are refused
 * rather than ignored, so a typo does not silently leave a client without its tools.
 */
export function selectToolsets(lists: readonly (string | null | undefined)[]): Set<string> {
  const names = lists.flatMap((list) => (list ?? '').split(',')).map((n) => n.trim().toLowerCase()).filter((n) => n !== '');
  if (names.length === 0) return new Set(DEFAULT_TOOLSETS);
  const known = new Set(TOOLSETS.map((t) => t.name));
  const unknown = names.filter((n) => n !== ALL && n !== DEFAULT && !known.has(n));
  if (unknown.length > 0) {
    throw new ToolsetSelectionError(`Unknown toolset ${unknown.map((n) => `'${n}'`).join(', ')}; known: ${[ALL, DEFAULT, ...known].join(', ')}`);
  }
  const selected = new Set<string>();
  for (const name of names) {
    if (name === ALL) TOOLSETS.forEach((t) => selected.add(t.name));
    else if (name === DEFAULT) DEFAULT_TOOLSETS.forEach((t) => selected.add(t));
    else selected.add(name);
  }
  return selected;
}
