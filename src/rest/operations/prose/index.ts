import type { Operation } from '../types.ts';
import type { OperationProse, ProseTable } from './types.ts';
import { usersProse } from './users.ts';
import { organizationsProse } from './organizations.ts';
import { permissionsProse } from './permissions.ts';
import { examsProse } from './exams.ts';
import { journeysProse } from './journeys.ts';
import { resultsProse } from './results.ts';
import { quizProse } from './quiz.ts';

export type { OperationProse } from './types.ts';
export { introductions } from './introductions.ts';

/** Every operation's prose, keyed `METHOD endpoint` (test/rest/operation-prose.test.ts holds it to the catalogue). */
export const prose: ProseTable = Object.freeze({
  ...usersProse,
  ...organizationsProse,
  ...permissionsProse,
  ...examsProse,
  ...journeysProse,
  ...resultsProse,
  ...quizProse,
});

export function proseOf(operation: Pick<Operation, 'method' | 'endpoint'>): OperationProse | undefined {
  return prose[`${operation.method} ${operation.endpoint}`];
}

/**
 * The prose in a few sentences, for places that show every operation at once (MCP tool lists): the
 * summary and the description's first paragraph, cut at the last sentence end within `limit` characters.
 */
export function shortProse(operation: Pick<Operation, 'method' | 'endpoint'>, limit = 500): string | undefined {
  const entry = proseOf(operation);
  if (!entry) return undefined;
  const first = entry.description.split('\n\n')[0]!;
  let text = first;
  if (text.length > limit) {
    const cut = text.slice(0, limit);
    const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.)'));
    text = end > 0 ? cut.slice(0, end + 1) : `${cut.trimEnd()}…`;
  }
  return `${entry.summary}. ${text}`;
}
