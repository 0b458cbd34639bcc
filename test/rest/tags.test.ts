import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type RpcResult, type TestApp } from '../helpers/app.ts';
import { expectError, ok as okAs } from '../helpers/organizations.ts';
import { seed } from '../helpers/seed.ts';
import { taggableTypes, type ContentType, type TaggableType } from '../../src/services/content/content-types.ts';
import type { Level } from '../../src/auth/levels.ts';

/**
 * The Tags endpoints of the contract through HTTP: `tags`, `tag`, and `<type>:tags` / `<type>:tag`
 * for each of the nine taggable types. Documented output fields with their JSON types, paging
 * defaults, the permission rules (view on content and tag to read, modify on content and view on
 * the tag to attach or detach), idempotent attaching, and that a refused call writes nothing.
 */

let t: TestApp;
/** Owns the organization `org`, and so holds admin on its content. */
let director: Caller;
/** Member of `org` with content level view. */
let reader: Caller;
/** Member of `org` with content level modify. */
let editor: Caller;
/** Member of `org` with content level none. */
let plain: Caller;
/** Owns and administers another organization; holds nothing in `org`. */
let outsider: Caller;
/** Holds only explicit permission rules. */
let ruler: Caller;
let orgId: string;
let otherOrgId: string;
/** In `org`, owned by the director. */
let orgTag: string;
/** The director's personal tag. */
let personalTag: string;
/** The outsider's tag in its own organization. */
let outsiderTag: string;
/** One piece of content of each type (but exam) in `org`, owned by the director, with an external id. */
const content = {} as Record<TaggableType, string>;

const TYPES = taggableTypes.filter((type) => type !== 'exam');

let seq = 0;
async function makeTag(owner: Caller, data: { title?: string; organizationId?: string | null; externalId?: string; color?: string; icon?: string } = {}) {
  const { organizationId, ...rest } = data;
  return seed(t).as(owner).tag({ title: `Tag ${++seq}`, color: '#112233', organization: organizationId, ...rest });
}

/** A record of a content type, created by `owner` through its service. */
async function makeContent(type: TaggableType, owner: Caller, organizationId: string | null, externalId: string | null = null): Promise<string> {
  const as = seed(t).as(owner);
  const title = `${type} ${++seq}`;
  const base = { title, organization: organizationId ?? undefined };
  switch (type) {
    case 'class':
      return (await as.class({ ...base, externalId })).id;
    case 'course':
    case 'event':
    case 'scorm':
    case 'video':
      return as.content(type, { ...base, externalId });
    case 'quiz':
      return (await as.quizSet({ ...base, ...(externalId && { id: externalId }) })).id;
    case 'integration': {
      const id = await as.integration(base);
      // No operation sets an integration's external id (the contract names none); written directly.
      if (externalId) await t.db.prisma.integration.update({ where: { id }, data: { externalId } });
      return id;
    }
    case 'organization':
      // `org` itself: the director owns it, its members hold their content level on it.
      return orgId;
    case 'exam':
      return 'exm_doesnotexist';
  }
}

/** The administrator adds the member: the organization's owner does not manage these users. */
const member = (organizationId: string, who: Caller, permissionContent: string, permissionOrganization = 'member') =>
  seed(t).admin.addMembers(organizationId, [who], { permissionContent, permissionOrganization });

beforeAll(async () => {
  t = await createTestApp();
  director = await t.newCaller('director');
  reader = await t.newCaller('reader');
  editor = await t.newCaller('editor');
  plain = await t.newCaller('plain');
  outsider = await t.newCaller('outsider');
  ruler = await t.newCaller('ruler');
  orgId = (await seed(t).as(director).organization({ title: 'Academy', id: 'organization-ext' })).id;
  otherOrgId = (await seed(t).as(outsider).organization({ title: 'Rivals' })).id;
  await member(orgId, reader, 'view');
  await member(orgId, editor, 'modify');
  await member(orgId, plain, 'none');
  await member(otherOrgId, outsider, 'admin', 'admin');
  orgTag = await makeTag(director, { title: 'Academy tag', organizationId: orgId, externalId: 'acad-tag', color: '#aabbcc', icon: 'fa-solid fa-star' });
  personalTag = await makeTag(director, { title: 'Director only' });
  outsiderTag = await makeTag(outsider, { title: 'Rival tag', organizationId: otherOrgId });
  for (const type of taggableTypes) content[type] = await makeContent(type, director, orgId, `${type}-ext`);
});
afterAll(async () => t?.close());

/** Everything a tags call could write. */
async function snapshot() {
  const p = t.db.prisma;
  return {
    tags: await p.tag.findMany({ orderBy: { id: 'asc' } }),
    attachments: await p.contentTag.findMany({ orderBy: [{ tagId: 'asc' }, { contentType: 'asc' }, { contentId: 'asc' }] }),
    rules: await p.permissionRule.count(),
    audit: await p.auditEvent.count(),
  };
}

/** A call that must succeed (status 200, JSON); returns its body. */
const ok = (method: string, endpoint: string, args: Record<string, unknown>, as: Caller = t.admin) => okAs(t, method, endpoint, args, as);

/** Runs a call that must be refused, checks the error and that nothing was written. */
async function refused(call: () => Promise<RpcResult>, status: number, code?: string, argument?: string): Promise<RpcResult> {
  const before = await snapshot();
  const r = await call();
  expectError(r, status, code, argument);
  expect(await snapshot()).toEqual(before);
  return r;
}

const attached = (tagId: string, type: TaggableType, contentId: string) =>
  t.db.prisma.contentTag.count({ where: { tagId, contentType: type, contentId } });

/** The director attaches the tag (it holds admin on the content of `org` and views its tags). */
const attach = (tagId: string, type: TaggableType, contentId: string) => seed(t).as(director).attachTag(type, contentId, tagId);

/** The administrator grants the rule (the director does not manage the users who receive them). */
const rule = (who: Caller, contentType: ContentType, contentId: string, level: Level) => seed(t).admin.grant(contentType, contentId, who, level);

const tagIds = (body: { tags: { tag: string }[] }) => body.tags.map((x) => x.tag);

describe('GET tags', () => {
  it('lists the tags the caller may view as {tag, id, title}, by title', async () => {
    const body = await ok('GET', 'tags', {}, reader);
    expect(Object.keys(body)).toEqual(['tags']);
    expect(body.tags).toEqual([{ tag: orgTag, id: 'acad-tag', title: 'Academy tag' }]);

    const mine = await ok('GET', 'tags', {}, director);
    expect(mine.tags.map((x: { title: string }) => x.title)).toEqual(['Academy tag', 'Director only']);
    expect(mine.tags[1]).toEqual({ tag: personalTag, id: null, title: 'Director only' });

    // Content level none, and another organization, see none of them.
    expect((await ok('GET', 'tags', {}, plain)).tags).toEqual([]);
    expect(tagIds(await ok('GET', 'tags', {}, outsider))).toEqual([outsiderTag]);
    // Instance administrators see every tag.
    expect(tagIds(await ok('GET', 'tags', {}))).toEqual(expect.arrayContaining([orgTag, personalTag, outsiderTag]));
  });

  it('shows a tag to a user holding a permission rule on it', async () => {
    const viewer = await t.newCaller('ruleviewer');
    expect((await ok('GET', 'tags', {}, viewer)).tags).toEqual([]);
    await rule(viewer, 'tag', personalTag, 'view');
    expect(tagIds(await ok('GET', 'tags', {}, viewer))).toEqual([personalTag]);
    // A rule on other content of the same id space gives nothing.
    const other = await t.newCaller('ruleother');
    // A rule that names a tag's id as a class: no operation writes one, so it is written directly.
    await t.db.prisma.permissionRule.create({ data: { contentType: 'class', contentId: personalTag, userId: other.user.id, level: 'admin' } });
    expect((await ok('GET', 'tags', {}, other)).tags).toEqual([]);
  });

  it('pages by 16 from page 1; search matches title or external id and ignores page', async () => {
    const collector = await t.newCaller('collector');
    for (let i = 1; i <= 20; i++) await makeTag(collector, { title: `T${String(i).padStart(2, '0')}`, externalId: i === 7 ? 'special-seven' : undefined });
    const titles = (body: { tags: { title: string }[] }) => body.tags.map((x) => x.title);
    const first = await ok('GET', 'tags', {}, collector);
    expect(titles(first)).toEqual(Array.from({ length: 16 }, (_, i) => `T${String(i + 1).padStart(2, '0')}`));
    expect(titles(await ok('GET', 'tags', { page: 2 }, collector))).toEqual(['T17', 'T18', 'T19', 'T20']);
    expect(titles(await ok('GET', 'tags', { limit: 5, page: 2 }, collector))).toEqual(['T06', 'T07', 'T08', 'T09', 'T10']);
    expect(titles(await ok('GET', 'tags', { search: 't1', page: 3 }, collector))).toEqual(['T10', 'T11', 'T12', 'T13', 'T14', 'T15', 'T16', 'T17', 'T18', 'T19']);
    expect(titles(await ok('GET', 'tags', { search: 'SPECIAL' }, collector))).toEqual(['T07']);
    expect((await ok('GET', 'tags', { page: 9 }, collector)).tags).toEqual([]);
  });

  it('refuses bad paging arguments and other methods', async () => {
    await refused(() => t.rpc('GET', 'tags', { limit: 0 }), 403, 'INVALID_ARGUMENT', 'limit');
    await refused(() => t.rpc('GET', 'tags', { page: 'x' }), 403, 'INVALID_ARGUMENT', 'page');
    const r = await refused(() => t.rpc('POST', 'tags', { title: 'New' }), 405, 'METHOD_NOT_ALLOWED');
    expect(r.headers.get('allow')).toBe('GET');
    await refused(() => t.rpc('GET', 'tags', {}, { as: null }), 401, 'MISSING_CREDENTIALS');
  });
});

describe('GET tag', () => {
  it('answers tag, id, title, color and icon', async () => {
    const body = await ok('GET', 'tag', { tag: orgTag }, reader);
    expect(body).toEqual({ tag: orgTag, id: 'acad-tag', title: 'Academy tag', color: '#aabbcc', icon: 'fa-solid fa-star' });
    expect(Object.keys(body)).toEqual(['tag', 'id', 'title', 'color', 'icon']);
    // No icon: left out (the contract types icon as a string), not null.
    const plainTag = await ok('GET', 'tag', { tag: personalTag }, director);
    expect(plainTag).toEqual({ tag: personalTag, id: null, title: 'Director only', color: '#112233' });
    expect(Object.keys(plainTag)).toEqual(['tag', 'id', 'title', 'color']);
  });

  it('needs view permission on the tag', async () => {
    for (const who of [plain, outsider, editor]) {
      await refused(() => t.rpc('GET', 'tag', { tag: personalTag }, { as: who }), 403, 'NOT_FOUND');
    }
    await refused(() => t.rpc('GET', 'tag', { tag: outsiderTag }, { as: director }), 403, 'NOT_FOUND');
    await refused(() => t.rpc('GET', 'tag', {}, { as: director }), 403, 'MISSING_ARGUMENT', 'tag');
    await refused(() => t.rpc('GET', 'tag', { tag: 'tag_nothing' }, { as: director }), 403, 'NOT_FOUND', 'tag');
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      const r = await refused(() => t.rpc(method, 'tag', { tag: orgTag }, { as: director }), 405, 'METHOD_NOT_ALLOWED');
      expect(r.headers.get('allow')).toBe('GET');
    }
  });
});

describe.each(TYPES)('%s:tags and %s:tag', (type) => {
  it('attaches, checks, lists and detaches, with content{type, code, id}', async () => {
    const id = content[type];
    const args = { [type]: id, tag: orgTag };
    const ref = { type, code: id, id: `${type}-ext` };

    expect(await ok('GET', `${type}:tags`, { [type]: id }, director)).toEqual({ tags: [] });
    expect(await ok('GET', `${type}:tag`, args, director)).toEqual({ tag: orgTag, content: ref, status: false });

    const before = await t.db.prisma.auditEvent.count();
    const first = await ok('POST', `${type}:tag`, args, director);
    expect(first).toEqual({ tag: orgTag, content: ref, success: true });
    expect(Object.keys(first)).toEqual(['tag', 'content', 'success']);
    expect(Object.keys(first.content)).toEqual(['type', 'code', 'id']);
    // Attaching again succeeds and writes nothing: no second row, no second audit event.
    expect(await ok('POST', `${type}:tag`, args, director)).toEqual({ tag: orgTag, content: ref, success: true });
    expect(await attached(orgTag, type, id)).toBe(1);
    expect(await t.db.prisma.auditEvent.count()).toBe(before + 1);

    expect(await ok('GET', `${type}:tag`, args, director)).toEqual({ tag: orgTag, content: ref, status: true });
    expect(await ok('GET', `${type}:tags`, { [type]: id }, director)).toEqual({ tags: [{ tag: orgTag, title: 'Academy tag' }] });

    expect(await ok('DELETE', `${type}:tag`, args, director)).toEqual({ tag: orgTag, content: ref, success: true });
    expect(await attached(orgTag, type, id)).toBe(0);
    // Detaching a tag that is not attached answers success false and changes nothing.
    const audit = await t.db.prisma.auditEvent.count();
    expect(await ok('DELETE', `${type}:tag`, args, director)).toEqual({ tag: orgTag, content: ref, success: false });
    expect(await t.db.prisma.auditEvent.count()).toBe(audit);
    expect(await ok('GET', `${type}:tag`, args, director)).toEqual({ tag: orgTag, content: ref, status: false });
  });

  it(`takes the content in the ${type} parameter and refuses unknown content and tags`, async () => {
    await refused(() => t.rpc('GET', `${type}:tags`, {}, { as: director }), 403, 'MISSING_ARGUMENT', type);
    await refused(() => t.rpc('GET', `${type}:tags`, { [type]: 'xyz_unknown' }, { as: director }), 403, 'NOT_FOUND', type);
    for (const method of ['GET', 'POST', 'DELETE']) {
      await refused(() => t.rpc(method, `${type}:tag`, { tag: orgTag }, { as: director }), 403, 'MISSING_ARGUMENT', type);
      await refused(() => t.rpc(method, `${type}:tag`, { [type]: content[type] }, { as: director }), 403, 'MISSING_ARGUMENT', 'tag');
      await refused(() => t.rpc(method, `${type}:tag`, { [type]: 'xyz_unknown', tag: orgTag }, { as: director }), 403, 'NOT_FOUND', type);
      await refused(() => t.rpc(method, `${type}:tag`, { [type]: content[type], tag: 'tag_unknown' }, { as: director }), 403, 'NOT_FOUND', 'tag');
    }
    const r = await refused(() => t.rpc('PATCH', `${type}:tag`, { [type]: content[type], tag: orgTag }, { as: director }), 405, 'METHOD_NOT_ALLOWED');
    expect(r.headers.get('allow')).toBe('GET, POST, DELETE');
    for (const method of ['POST', 'DELETE']) {
      const s = await refused(() => t.rpc(method, `${type}:tags`, { [type]: content[type] }, { as: director }), 405, 'METHOD_NOT_ALLOWED');
      expect(s.headers.get('allow')).toBe('GET');
    }
  });

  it('refuses every read and write to a user of another organization', async () => {
    const id = content[type];
    await attach(orgTag, type, id);
    try {
      await refused(() => t.rpc('GET', `${type}:tags`, { [type]: id }, { as: outsider }), 403, 'NOT_FOUND');
      for (const method of ['GET', 'POST', 'DELETE']) {
        // With a tag of its own, and with the content's tag.
        for (const tag of [outsiderTag, orgTag]) {
          await refused(() => t.rpc(method, `${type}:tag`, { [type]: id, tag }, { as: outsider }), 403, 'NOT_FOUND');
        }
      }
    } finally {
      await t.db.prisma.contentTag.deleteMany({ where: { contentType: type, contentId: id } });
    }
  });
});

describe('exam:tags and exam:tag', () => {
  it('answers NOT_FOUND for every exam, since exams do not exist yet', async () => {
    await refused(() => t.rpc('GET', 'exam:tags', { exam: 'exm_anything' }, { as: director }), 403, 'NOT_FOUND', 'exam');
    for (const method of ['GET', 'POST', 'DELETE']) {
      await refused(() => t.rpc(method, 'exam:tag', { exam: 'exm_anything', tag: orgTag }), 403, 'NOT_FOUND', 'exam');
    }
  });
});

describe('permissions on content tags', () => {
  it('lets a viewer of the content read its tags, showing only the tags it may view', async () => {
    const classId = await makeContent('class', director, orgId);
    await attach(orgTag, 'class', classId);
    await attach(personalTag, 'class', classId);
    expect(await ok('GET', 'class:tags', { class: classId }, director)).toEqual({
      tags: [
        { tag: orgTag, title: 'Academy tag' },
        { tag: personalTag, title: 'Director only' },
      ],
    });
    expect(await ok('GET', 'class:tags', { class: classId }, reader)).toEqual({ tags: [{ tag: orgTag, title: 'Academy tag' }] });
    // content.id is null for content without an external id.
    expect(await ok('GET', 'class:tag', { class: classId, tag: orgTag }, reader)).toEqual({
      tag: orgTag,
      content: { type: 'class', code: classId, id: null },
      status: true,
    });
    // Reading the attachment of a tag it may not view is refused, attached or not.
    await refused(() => t.rpc('GET', 'class:tag', { class: classId, tag: personalTag }, { as: reader }), 403, 'NOT_FOUND');
    // Content level none: no view on the content.
    await refused(() => t.rpc('GET', 'class:tags', { class: classId }, { as: plain }), 403, 'NOT_FOUND');
    await refused(() => t.rpc('GET', 'class:tag', { class: classId, tag: orgTag }, { as: plain }), 403, 'NOT_FOUND');
  });

  it('needs modify on the content to attach or detach', async () => {
    const classId = await makeContent('class', director, orgId);
    for (const method of ['POST', 'DELETE']) {
      await refused(() => t.rpc(method, 'class:tag', { class: classId, tag: orgTag }, { as: reader }), 403, 'PERMISSION_DENIED');
    }
    expect(await ok('POST', 'class:tag', { class: classId, tag: orgTag }, editor)).toMatchObject({ success: true });
    expect(await attached(orgTag, 'class', classId)).toBe(1);
    await refused(() => t.rpc('DELETE', 'class:tag', { class: classId, tag: orgTag }, { as: reader }), 403, 'PERMISSION_DENIED');
    expect(await ok('DELETE', 'class:tag', { class: classId, tag: orgTag }, editor)).toMatchObject({ success: true });
  });

  it('needs view on the tag to attach or detach it', async () => {
    const classId = await makeContent('class', director, orgId);
    await refused(() => t.rpc('POST', 'class:tag', { class: classId, tag: personalTag }, { as: editor }), 403, 'NOT_FOUND');
    // Nor may it detach a tag it cannot see that someone else attached.
    await attach(personalTag, 'class', classId);
    await refused(() => t.rpc('DELETE', 'class:tag', { class: classId, tag: personalTag }, { as: editor }), 403, 'NOT_FOUND');
    expect(await attached(personalTag, 'class', classId)).toBe(1);
  });

  it('follows explicit permission rules on content and tags', async () => {
    const videoId = await makeContent('video', director, null);
    const args = { video: videoId, tag: personalTag };
    await refused(() => t.rpc('GET', 'video:tags', { video: videoId }, { as: ruler }), 403, 'NOT_FOUND');
    await rule(ruler, 'video', videoId, 'view');
    expect(await ok('GET', 'video:tags', { video: videoId }, ruler)).toEqual({ tags: [] });
    await rule(ruler, 'tag', personalTag, 'view');
    // view on the video is not enough to tag it.
    await refused(() => t.rpc('POST', 'video:tag', args, { as: ruler }), 403, 'PERMISSION_DENIED');
    await rule(ruler, 'video', videoId, 'modify');
    expect(await ok('POST', 'video:tag', args, ruler)).toEqual({ tag: personalTag, content: { type: 'video', code: videoId, id: null }, success: true });
    expect(await ok('GET', 'video:tags', { video: videoId }, ruler)).toEqual({ tags: [{ tag: personalTag, title: 'Director only' }] });
  });

  it('takes arguments from JSON and multipart bodies', async () => {
    const courseId = await makeContent('course', director, orgId);
    const json = await t.rpc('POST', 'course:tag', { course: courseId, tag: orgTag }, { as: director, encoding: 'json' });
    expect(json.status).toBe(200);
    expect(json.body.success).toBe(true);
    const multipart = await t.rpc('DELETE', 'course:tag', { course: courseId, tag: orgTag }, { as: director, encoding: 'multipart' });
    expect(multipart.body).toEqual({ tag: orgTag, content: { type: 'course', code: courseId, id: null }, success: true });
  });

  it('has no tag operations on tags themselves', async () => {
    expectError(await t.rpc('GET', 'tag:tags', { tag: orgTag }), 400, 'UNKNOWN_ENDPOINT');
    expectError(await t.rpc('POST', 'tag:tag', { tag: orgTag }), 400, 'UNKNOWN_ENDPOINT');
  });
});
