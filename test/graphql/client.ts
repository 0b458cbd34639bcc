import { expect } from 'vitest';
import type { Caller, TestApp } from '../helpers/app.ts';
import type { ResultOf, TypedDocumentString, VariablesOf } from '../../schema/operations/generated.ts';

/** A GraphQL error as the service reports it. */
export interface GraphQLErrorBody {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; status?: number; argument?: string; [key: string]: unknown };
}

export interface Result<D> {
  status: number;
  data: ResultOf<D> | null | undefined;
  errors: GraphQLErrorBody[] | undefined;
}

/**
 * Sends one of the dashboard's operations (schema/operations/*.graphql, via their generated typed
 * documents) the way a dashboard does: POST /graphql with the caller's Bearer credentials.
 */
export async function send<D extends TypedDocumentString<any, any>>(
  t: TestApp,
  document: D,
  variables: VariablesOf<D>,
  options: { as?: Caller | null; headers?: Record<string, string> } = {},
): Promise<Result<D>> {
  const r = await t.gql(document, variables as Record<string, unknown>, options);
  return { status: r.status, data: r.body.data, errors: r.body.errors };
}

/** The data of a call that must succeed; fails the test with the errors otherwise. */
export async function ok<D extends TypedDocumentString<any, any>>(
  t: TestApp,
  document: D,
  variables: VariablesOf<D>,
  options: { as?: Caller | null; headers?: Record<string, string> } = {},
): Promise<ResultOf<D>> {
  const r = await send(t, document, variables, options);
  if (r.errors?.length || !r.data) throw new Error(`GraphQL errors: ${JSON.stringify(r.errors)}`);
  return r.data;
}

/** The single error of a refused call (and that it returned no data for the field). */
export async function refused<D extends TypedDocumentString<any, any>>(
  t: TestApp,
  document: D,
  variables: VariablesOf<D>,
  options: { as?: Caller | null; headers?: Record<string, string> } = {},
): Promise<GraphQLErrorBody> {
  const r = await send(t, document, variables, options);
  if (!r.errors || r.errors.length !== 1) throw new Error(`expected one error, got ${JSON.stringify(r.errors)} with ${JSON.stringify(r.data)}`);
  return r.errors[0]!;
}

/** A GraphQL DateTime: ISO 8601 in UTC. */
export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** A refusal carries the service error code, and names the argument at fault when there is one. */
export function expectCode(error: GraphQLErrorBody, code: string, argument?: string) {
  expect(error.extensions?.code, error.message).toBe(code);
  if (argument !== undefined) {
    expect(error.extensions?.argument).toBe(argument);
    expect(error.message).toContain(argument);
  }
}
