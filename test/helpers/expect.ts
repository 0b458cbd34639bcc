import { expect } from 'vitest';
import type { RpcResult } from './app.ts';

/** A refused REST call: the status, both error headers, the JSON body, and the argument named. */
export function expectError(r: RpcResult, status: number, code?: string, argument?: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.error).toBeTruthy();
  expect(r.code).toMatch(/^[A-Z0-9_]+$/);
  if (code) expect(r.code).toBe(code);
  expect(r.body.error.code).toBe(r.code);
  if (argument) {
    expect(r.body.error.argument).toBe(argument);
    expect(r.error).toContain(`'${argument}'`);
  }
}

/**
 * A checker for calls that must be refused and write nothing: `snapshot` reads everything the
 * calls under test could write, before and after.
 */
export function refusedUnchanged(snapshot: () => Promise<unknown>) {
  return async (call: () => Promise<RpcResult>, status: number, code?: string, argument?: string): Promise<RpcResult> => {
    const before = await snapshot();
    const r = await call();
    expectError(r, status, code, argument);
    expect(await snapshot()).toEqual(before);
    return r;
  };
}
