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
