import type { Caller, RpcResult, TestApp } from './app.ts';
import { refusedUnchanged } from './expect.ts';
import type { Level } from '../../src/auth/permissions.ts';
import { contentTypeRegistry, contentTypes, hasRecords, type ContentType } from '../../src/services/content/content-types.ts';
import { newId } from '../../src/ids.ts';

/** Seed builders and checks shared by the content permission tests (REST, matrix and GraphQL). */

/** The content types with records (a type without them, such as exams until built, knows no id). */
export type BuiltType = { [K in ContentType]: (typeof contentTypeRegistry)[K]['model'] extends null ? never : K }[ContentType];
export const builtTypes = contentTypes.filter((type): type is BuiltType => hasRecords(type));

let seq = 0;

/**
 * A piece of content of `type` owned by `owner`, in `organizationId`; an organization is its own
 * content, so for that type a new organization owned by `owner` is made (and `organizationId` unused).
 */
export async function seedContent(t: TestApp, type: BuiltType, owner: Caller, organizationId: string | null = null): Promise<{ id: string; externalId: string }> {
  const p = t.db.prisma;
  const n = ++seq;
  const base = { title: `${type} ${n}`, externalId: `ext-${type}-${n}`, ownerId: owner.user.id };
  const row = { ...base, organizationId };
  const created = await (async () => {
    switch (type) {
      case 'class':
        return p.class.create({ data: { id: newId('Class'), ...row } });
      case 'course':
        return p.course.create({ data: { id: newId('Course'), ...row } });
      case 'event':
        return p.event.create({ data: { id: newId('Event'), ...row } });
      case 'scorm':
        return p.scorm.create({ data: { id: newId('Scorm'), ...row } });
      case 'video':
        return p.video.create({ data: { id: newId('Video'), ...row } });
      case 'integration':
        return p.integration.create({ data: { id: newId('Integration'), ...row } });
      case 'organization':
        return p.organization.create({ data: { id: newId('Organization'), ...base } });
      case 'tag':
        return p.tag.create({ data: { id: newId('Tag'), ...row, color: '#123456' } });
      case 'quiz':
        return p.quizSet.create({ data: { id: newId('QuizSet'), ...row, language: 'en' } });
      case 'exam': {
        const quiz = await p.quizSet.create({ data: { id: newId('QuizSet'), ...row, title: `Quiz of ${base.title}`, externalId: null, language: 'en' } });
        const period = { start: new Date('2026-01-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') };
        return p.exam.create({ data: { id: newId('Exam'), ...row, ...period, language: 'en', quizId: quiz.id } });
      }
    }
  })();
  return { id: created.id, externalId: base.externalId };
}

/** An explicit rule, written directly. */
export async function addRule(t: TestApp, type: ContentType, contentId: string, user: Caller, level: Level): Promise<void> {
  await t.db.prisma.permissionRule.create({ data: { contentType: type, contentId, userId: user.user.id, level } });
}

/** Everything a permission call could write: the rules, the owners and titles of all content, the audit trail. */
export async function snapshot(t: TestApp) {
  const p = t.db.prisma;
  const rows = { select: { id: true, ownerId: true, title: true, organizationId: true }, orderBy: { id: 'asc' as const } };
  return {
    rules: await p.permissionRule.findMany({ orderBy: [{ contentType: 'asc' }, { contentId: 'asc' }, { userId: 'asc' }, { level: 'asc' }] }),
    classes: await p.class.findMany(rows),
    courses: await p.course.findMany(rows),
    events: await p.event.findMany(rows),
    scorms: await p.scorm.findMany(rows),
    videos: await p.video.findMany(rows),
    integrations: await p.integration.findMany({ ...rows, select: { ...rows.select, active: true, secretCipher: true } }),
    organizations: await p.organization.findMany({ select: { id: true, ownerId: true, title: true }, orderBy: { id: 'asc' } }),
    tags: await p.tag.findMany(rows),
    quizzes: await p.quizSet.findMany(rows),
    exams: await p.exam.findMany({ ...rows, select: { ...rows.select, archived: true } }),
    classMembers: await p.classMember.count(),
    audit: await p.auditEvent.count(),
  };
}

/** Runs a REST call that must be refused, checks the error and that nothing was written. */
export function refused(t: TestApp, call: () => Promise<RpcResult>, status: number, code?: string, argument?: string): Promise<RpcResult> {
  return refusedUnchanged(() => snapshot(t))(call, status, code, argument);
}
