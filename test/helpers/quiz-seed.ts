import { expect } from 'vitest';
import type { Caller, RpcResult, TestApp } from './app.ts';
import { refusedUnchanged } from './expect.ts';
import type { Level } from '../../src/auth/levels.ts';
import { deleteUser } from '../../src/services/users/users.service.ts';
import { removeMembers } from '../../src/services/organizations/memberships.service.ts';
import { seed } from './seed.ts';

/** Seed builders and checks shared by the Quiz set, settings and grading preset tests. */

/** A call that must succeed; returns its body. */
export async function ok(t: TestApp, method: string, endpoint: string, args: Record<string, unknown>, as: Caller, encoding?: 'json') {
  const r = await t.rpc(method, endpoint, args, { as, encoding });
  expect(r.status, `${method} ${endpoint}: ${JSON.stringify(r.body)}`).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  return r.body;
}

/** Creates a Quiz set through the contract and returns its identification string. */
export async function newQuiz(t: TestApp, as: Caller, args: Record<string, unknown> = {}): Promise<string> {
  const body = await ok(t, 'POST', 'quiz', { title: 'Quiz', ...args }, as);
  expect(Object.keys(body)).toEqual(['quiz']);
  expect(body.quiz).toMatch(/^qz_[a-z0-9]+$/);
  return body.quiz;
}

/**
 * A generic question in a folder of `owner` (answer `a`), created by `owner`. One in an
 * organization is made as when its owner has left: the administrator adds the owner as an
 * organization administrator, the owner creates the question there, and the administrator removes
 * the owner again (tests put it in organizations its owner is no member of).
 */
export async function newQuestion(t: TestApp, owner: Caller, externalId: string, organizationId: string | null = null): Promise<string> {
  const as = seed(t).as(owner);
  if (!organizationId) return as.question(externalId);
  await addMember(t, organizationId, owner, { permOrganization: 'admin' });
  const question = await as.question(externalId, { organization: organizationId });
  await removeMembers(await seed(t).admin.ctx(), { organization: organizationId, users: [owner.user.id] });
  return question;
}

/** An explicit permission rule on a Quiz set, granted by the administrator (who may grant any level to anyone). */
export async function grant(t: TestApp, quiz: string, user: Caller, level: Level): Promise<void> {
  await seed(t).admin.grant('quiz', quiz, user, level);
}

/**
 * An organization created by `owner`; without an owner, one whose owner is gone: a user the
 * administrator creates makes it, and the administrator deletes that user.
 */
export async function newOrganization(t: TestApp, title: string, owner: Caller | null): Promise<string> {
  if (owner) return (await seed(t).as(owner).organization({ title })).id;
  const founder = await seed(t).user();
  const { id } = await founder.organization({ title });
  await deleteUser(await seed(t).admin.ctx(), { user: founder.id });
  return id;
}

/** Adds a member with these levels, as the administrator (who may add any user to any organization). */
export async function addMember(t: TestApp, organizationId: string, user: Caller, levels: { permOrganization?: string; permContent?: string } = {}) {
  const args = { permissionOrganization: levels.permOrganization, permissionContent: levels.permContent };
  await seed(t).admin.addMembers(organizationId, [user], args);
}

/** Everything a Quiz set or grading preset call could write. */
async function snapshot(t: TestApp) {
  const p = t.db.prisma;
  return {
    quizSets: await p.quizSet.findMany({ orderBy: { id: 'asc' } }),
    groups: await p.quizGroup.findMany({ orderBy: { id: 'asc' } }),
    items: await p.quizItem.findMany({ orderBy: [{ quizId: 'asc' }, { questionId: 'asc' }] }),
    presets: await p.gradingPreset.findMany({ orderBy: { id: 'asc' } }),
    rules: await p.permissionRule.count(),
    audit: await p.auditEvent.count(),
  };
}

/** Runs a call that must be refused, checks the error and that nothing was written. */
export function refused(t: TestApp, call: () => Promise<RpcResult>, status: number, code: string, argument?: string): Promise<RpcResult> {
  return refusedUnchanged(() => snapshot(t))(call, status, code, argument);
}
