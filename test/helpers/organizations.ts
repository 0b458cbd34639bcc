import { expect } from 'vitest';
import type { Caller, RpcResult, TestApp } from './app.ts';
import { refusedUnchanged } from './expect.ts';

/** Seed builders and checks shared by the organization and department tests. */

/**
 * The cast of most tests: `owner` (creates the organizations, so owns them), users it created
 * (so it may add them as members), each with an application to act as itself, and `outsider`,
 * who knows none of them.
 */
export async function people<N extends string>(t: TestApp, names: N[]): Promise<{ owner: Caller; outsider: Caller } & Record<N, Caller>> {
  const owner = await t.newCaller('owner');
  const cast: Record<string, Caller> = { owner, outsider: await t.newCaller('outsider') };
  for (const name of names) cast[name] = await t.newCaller(name, { createdBy: owner });
  return cast as { owner: Caller; outsider: Caller } & Record<N, Caller>;
}

export { expectError } from './expect.ts';

/** Everything an organization call could write. */
async function snapshot(t: TestApp) {
  const p = t.db.prisma;
  return {
    organizations: await p.organization.findMany({ orderBy: { id: 'asc' } }),
    members: await p.organizationMember.findMany({ orderBy: [{ organizationId: 'asc' }, { userId: 'asc' }] }),
    departments: await p.department.findMany({ orderBy: { id: 'asc' } }),
    leaders: await p.departmentLeader.findMany({ orderBy: [{ departmentId: 'asc' }, { userId: 'asc' }] }),
    competencyDepartments: await p.competencyDepartment.findMany({ orderBy: [{ competencyId: 'asc' }, { departmentId: 'asc' }] }),
    competencyMembers: await p.competencyMember.findMany({ orderBy: [{ competencyId: 'asc' }, { userId: 'asc' }] }),
    notifications: await p.notification.count(),
    audit: await p.auditEvent.count(),
  };
}

/** Runs a call that must be refused, checks the error and that nothing was written. */
export function refused(t: TestApp, call: () => Promise<RpcResult>, status: number, code?: string, argument?: string): Promise<RpcResult> {
  return refusedUnchanged(() => snapshot(t))(call, status, code, argument);
}

/** A call that must succeed; returns its body. */
export async function ok(t: TestApp, method: string, endpoint: string, args: Record<string, unknown>, as: Caller) {
  const r = await t.rpc(method, endpoint, args, { as });
  expect(r.status, `${method} ${endpoint}: ${JSON.stringify(r.body)}`).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  return r.body;
}

/** POST organization as `as` (who becomes its owner); returns the identification string. */
export async function createOrganization(t: TestApp, as: Caller, args: Record<string, unknown> = {}): Promise<string> {
  return (await ok(t, 'POST', 'organization', { title: 'Organization', ...args }, as)).organization;
}

/** POST organization:members for one or more users. */
export async function addMembers(t: TestApp, as: Caller, organization: string, users: string[], args: Record<string, unknown> = {}) {
  return ok(t, 'POST', 'organization:members', { organization, users: users.join(','), ...args }, as);
}

/** POST organization:department; returns the output. */
export async function createDepartment(t: TestApp, as: Caller, organization: string, title: string, args: Record<string, unknown> = {}) {
  return ok(t, 'POST', 'organization:department', { organization, title, ...args }, as);
}

export const levels = (organization = 'member', content = 'none', members = 'none') => ({ organization, content, members });
