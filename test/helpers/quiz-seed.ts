import { expect } from 'vitest';
import type { Caller, RpcResult, TestApp } from './app.ts';
import { refusedUnchanged } from './expect.ts';
import { newId } from '../../src/ids.ts';

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

/** A question row (questions are written by their own endpoints; these tests only use them). */
export async function newQuestion(t: TestApp, owner: Caller, externalId: string, organizationId: string | null = null): Promise<string> {
  const q = await t.db.prisma.question.create({
    data: { id: newId('Question'), externalId, scope: `folder:${owner.user.id}:/API`, ownerId: owner.user.id, organizationId, type: 'generic', content: externalId, answers: ['a'] },
  });
  return q.id;
}

/** An explicit permission rule on a Quiz set. */
export async function grant(t: TestApp, quiz: string, user: Caller, level: string): Promise<void> {
  await t.db.prisma.permissionRule.create({ data: { contentType: 'quiz', contentId: quiz, userId: user.user.id, level } });
}

export async function newOrganization(t: TestApp, title: string, owner: Caller | null): Promise<string> {
  return (await t.db.prisma.organization.create({ data: { id: newId('Organization'), title, ownerId: owner?.user.id ?? null } })).id;
}

export async function addMember(t: TestApp, organizationId: string, user: Caller, levels: { permOrganization?: string; permContent?: string } = {}) {
  await t.db.prisma.organizationMember.create({ data: { organizationId, userId: user.user.id, ...levels } });
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
