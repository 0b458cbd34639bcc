import type { Caller, RpcResult, TestApp } from './app.ts';
import { refusedUnchanged } from './expect.ts';
import type { Level } from '../../src/auth/permissions.ts';
import { contentTypeRegistry, contentTypes, hasRecords, type ContentType } from '../../src/services/content/content-types.ts';
import { seed } from './seed.ts';

/** Seed builders and checks shared by the content permission tests (REST, matrix and GraphQL). */

/** The content types with records (a type without them, such as exams until built, knows no id). */
export type BuiltType = { [K in ContentType]: (typeof contentTypeRegistry)[K]['model'] extends null ? never : K }[ContentType];
export const builtTypes = contentTypes.filter((type): type is BuiltType => hasRecords(type));

let seq = 0;

/**
 * A piece of content of `type` owned by `owner`, in `organizationId`, made through the services; an
 * organization is its own content, so for that type a new organization owned by `owner` is made
 * (and `organizationId` unused). Content in an organization is made by the administrator, who may
 * put content in any, and transferred to `owner`, who need not belong there. An integration takes
 * no external identifier: its `externalId` is null.
 */
export async function seedContent(t: TestApp, type: BuiltType, owner: Caller, organizationId: string | null = null): Promise<{ id: string; externalId: string | null }> {
  const n = ++seq;
  const admin = seed(t).admin;
  const as = organizationId && type !== 'organization' ? admin : seed(t).as(owner);
  const externalId = `ext-${type}-${n}`;
  const title = `${type} ${n}`;
  const inOrganization = organizationId ? { organization: organizationId } : {};
  const made = await (async (): Promise<{ id: string; externalId: string | null; also?: string }> => {
    switch (type) {
      case 'class':
        return { id: (await as.class({ title, externalId, ...inOrganization })).id, externalId };
      case 'course':
      case 'event':
      case 'scorm':
      case 'video':
        return { id: await as.content(type, { title, externalId, ...inOrganization }), externalId };
      case 'tag':
        return { id: await as.tag({ title, externalId, ...inOrganization }), externalId };
      case 'integration':
        return { id: await as.integration({ title, ...inOrganization }), externalId: null };
      case 'organization':
        return { id: (await as.organization({ title, id: externalId })).id, externalId };
      case 'quiz':
        return { id: (await as.quizSet({ title, id: externalId, ...inOrganization })).id, externalId };
      case 'exam': {
        const exam = await as.exam({ title, id: externalId, ...inOrganization });
        return { id: exam.id, externalId, also: exam.quizId };
      }
    }
  })();
  if (as === admin && owner.user.id !== t.admin.user.id) {
    await admin.transfer(type, made.id, owner);
    // An exam's Quiz set is the owner's too.
    if (made.also) await admin.transfer('quiz', made.also, owner);
  }
  return { id: made.id, externalId: made.externalId };
}

/** An explicit rule, granted by the content's owner (or anyone who may grant it) through POST <type>:permission. */
export async function addRule(t: TestApp, type: ContentType, contentId: string, user: Caller, level: Level, grantor: Caller = t.admin): Promise<void> {
  await seed(t).as(grantor).grant(type, contentId, user, level);
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
