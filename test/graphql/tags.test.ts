import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { countStatements } from '../helpers/sql-counter.ts';
import { seed } from '../helpers/seed.ts';
import {
  ClassesWithTagsDocument,
  ContentTagsDocument,
  CreateTagDocument,
  DeleteTagDocument,
  TagContentDocument,
  TagNodeDocument,
  TagPageDocument,
  TagsDocument,
  UntagContentDocument,
  UpdateTagDocument,
  type CreateTagInput,
  type TaggableContentType,
} from '../../schema/operations/generated.ts';
import { ISO, expectCode, ok, refused } from './client.ts';

/**
 * Tags through GraphQL: the contract only reads tags, so creating, changing and deleting them
 * happens here; tagging content, the `tags` field of each taggable type, `taggedContent`, and
 * that a list of classes with their tags costs the same statements whatever its length.
 */

let t: TestApp;
/** Owns `org`: admin on its content. */
let director: Caller;
/** Content level view in `org`. */
let reader: Caller;
/** Content level modify in `org`. */
let editor: Caller;
/** Member of another organization only. */
let outsider: Caller;
let orgId: string;

beforeAll(async () => {
  t = await createTestApp();
  director = await t.newCaller('director');
  reader = await t.newCaller('reader');
  editor = await t.newCaller('editor');
  outsider = await t.newCaller('outsider');
  const s = seed(t);
  orgId = (await s.as(director).organization({ title: 'Academy' })).id;
  const rivals = await s.as(outsider).organization({ title: 'Rivals' });
  // The director does not manage the reader and the editor: the administrator adds them.
  await s.admin.addMembers(orgId, [reader], { permissionContent: 'view' });
  await s.admin.addMembers(orgId, [editor], { permissionContent: 'modify' });
  await rivals.members([outsider], { permissionContent: 'admin', permissionOrganization: 'admin' });
});
afterAll(async () => t?.close());

let seq = 0;
const createTag = async (as: Caller, input: Partial<CreateTagInput> = {}) =>
  (await ok(t, CreateTagDocument, { input: { title: `Tag ${++seq}`, color: '#123456', ...input } }, { as })).createTag;

const makeClass = async (owner: Caller, organizationId: string | null, title = `Class ${++seq}`, externalId: string | null = null) =>
  (await seed(t).as(owner).class({ title, organization: organizationId, externalId })).id;

/** Everything a tag mutation could write. */
async function snapshot() {
  const p = t.db.prisma;
  return {
    tags: await p.tag.findMany({ orderBy: { id: 'asc' } }),
    attachments: await p.contentTag.findMany({ orderBy: [{ tagId: 'asc' }, { contentId: 'asc' }] }),
    rules: await p.permissionRule.findMany({ orderBy: [{ contentType: 'asc' }, { contentId: 'asc' }, { userId: 'asc' }, { level: 'asc' }] }),
    audit: await p.auditEvent.count(),
  };
}

/** A refused operation: its error code (and argument), and nothing written. */
async function refusedWithout(fn: () => ReturnType<typeof refused>, code: string, argument?: string) {
  const before = await snapshot();
  expectCode(await fn(), code, argument);
  expect(await snapshot()).toEqual(before);
}

describe('createTag, updateTag, deleteTag', () => {
  it('creates a tag owned by the caller, colour as lowercase #rrggbb, icon classes normalized', async () => {
    const tag = await createTag(director, { title: 'Important', color: '#AbC', icon: '  fa-solid   fa-star ', externalId: 'imp-1' });
    expect(tag).toEqual({
      id: expect.stringMatching(/^tag_[0-9a-z]{14}$/),
      title: 'Important',
      externalId: 'imp-1',
      color: '#aabbcc',
      icon: 'fa-solid fa-star',
      owner: { id: director.user.id },
      organization: null,
    });
    const row = await t.db.prisma.tag.findUniqueOrThrow({ where: { id: tag.id } });
    expect(row).toMatchObject({ color: '#aabbcc', icon: 'fa-solid fa-star', ownerId: director.user.id, organizationId: null });
    expect(await t.db.prisma.auditEvent.count({ where: { action: 'tag.create', subject: tag.id } })).toBe(1);
    // #rrggbb is kept, lowercased; the icon is optional.
    expect(await createTag(director, { color: '#A1B2C3' })).toMatchObject({ color: '#a1b2c3', icon: null, externalId: null });
  });

  it('refuses bad fields, naming the argument, and writes nothing', async () => {
    const bad: [Partial<CreateTagInput>, string][] = [
      [{ title: '' }, 'title'],
      [{ title: 'x'.repeat(256) }, 'title'],
      [{ externalId: '' }, 'externalId'],
      [{ externalId: 'x'.repeat(65) }, 'externalId'],
      [{ color: 'red' }, 'color'],
      [{ color: '#abcd' }, 'color'],
      [{ color: '#12345g' }, 'color'],
      [{ color: '123456' }, 'color'],
      [{ icon: '' }, 'icon'],
      [{ icon: 'fa-star"><script>' }, 'icon'],
      [{ icon: 'fa;star' }, 'icon'],
      [{ icon: '9lives' }, 'icon'],
      [{ icon: 'a b c d e f g h i' }, 'icon'],
      [{ icon: `fa-${'x'.repeat(253)}` }, 'icon'],
    ];
    for (const [input, argument] of bad) {
      await refusedWithout(
        () => refused(t, CreateTagDocument, { input: { title: 'Fine', color: '#000', ...input } as CreateTagInput }, { as: director }),
        'INVALID_ARGUMENT',
        argument,
      );
    }
  });

  it('puts a tag in an organization whose content the caller may change', async () => {
    const tag = await createTag(editor, { organization: orgId });
    expect(tag.organization).toEqual({ id: orgId });
    expect(tag.owner).toEqual({ id: editor.user.id });
    await refusedWithout(() => refused(t, CreateTagDocument, { input: { title: 'No', color: '#000', organization: orgId } }, { as: reader }), 'PERMISSION_DENIED');
    await refusedWithout(() => refused(t, CreateTagDocument, { input: { title: 'No', color: '#000', organization: orgId } }, { as: outsider }), 'NOT_FOUND');
    await refusedWithout(
      () => refused(t, CreateTagDocument, { input: { title: 'No', color: '#000', organization: 'org_nothing' } }, { as: director }),
      'NOT_FOUND',
      'organization',
    );
  });

  it('changes given fields with modify on the tag; null clears an optional one', async () => {
    const tag = await createTag(director, { organization: orgId, icon: 'bi bi-alarm', externalId: 'ext' });
    await refusedWithout(() => refused(t, UpdateTagDocument, { input: { tag: tag.id, title: 'Nope' } }, { as: reader }), 'PERMISSION_DENIED');
    await refusedWithout(() => refused(t, UpdateTagDocument, { input: { tag: tag.id, title: 'Nope' } }, { as: outsider }), 'NOT_FOUND');
    await refusedWithout(() => refused(t, UpdateTagDocument, { input: { tag: tag.id, color: 'blue' } }, { as: director }), 'INVALID_ARGUMENT', 'color');
    await refusedWithout(() => refused(t, UpdateTagDocument, { input: { tag: 'tag_nothing' } }, { as: director }), 'NOT_FOUND', 'tag');

    // Content level modify in the tag's organization is modify on the tag.
    const changed = (await ok(t, UpdateTagDocument, { input: { tag: tag.id, title: 'Renamed', color: '#FFF', icon: null } }, { as: editor })).updateTag;
    expect(changed).toEqual({ id: tag.id, title: 'Renamed', externalId: 'ext', color: '#ffffff', icon: null, organization: { id: orgId } });
    const personal = (await ok(t, UpdateTagDocument, { input: { tag: tag.id, organization: null, externalId: null } }, { as: director })).updateTag;
    expect(personal).toMatchObject({ title: 'Renamed', externalId: null, organization: null });
    // Out of the organization, the editor holds nothing on it any more.
    await refusedWithout(() => refused(t, UpdateTagDocument, { input: { tag: tag.id, title: 'Nope' } }, { as: editor }), 'NOT_FOUND');
  });

  it('deletes a tag with admin on it, with its attachments and permission rules', async () => {
    const tag = await createTag(director, { organization: orgId });
    const classId = await makeClass(director, orgId);
    await ok(t, TagContentDocument, { contentType: 'class', content: classId, tag: tag.id }, { as: director });
    // The administrator grants it: the director does not manage the reader.
    await seed(t).admin.grant('tag', tag.id, reader, 'modify');
    // modify (the editor's content level, the reader's rule) is not enough.
    await refusedWithout(() => refused(t, DeleteTagDocument, { tag: tag.id }, { as: editor }), 'PERMISSION_DENIED');
    await refusedWithout(() => refused(t, DeleteTagDocument, { tag: tag.id }, { as: reader }), 'PERMISSION_DENIED');
    expect(await ok(t, DeleteTagDocument, { tag: tag.id }, { as: director })).toEqual({ deleteTag: tag.id });
    expect(await t.db.prisma.tag.count({ where: { id: tag.id } })).toBe(0);
    expect(await t.db.prisma.contentTag.count({ where: { tagId: tag.id } })).toBe(0);
    expect(await t.db.prisma.permissionRule.count({ where: { contentType: 'tag', contentId: tag.id } })).toBe(0);
    await refusedWithout(() => refused(t, DeleteTagDocument, { tag: tag.id }, { as: director }), 'NOT_FOUND', 'tag');
  });
});

describe('reading tags', () => {
  it('reads a tag with view on it; node answers null otherwise', async () => {
    const tag = await createTag(director, { organization: orgId, title: 'Readable' });
    const page = (await ok(t, TagPageDocument, { id: tag.id }, { as: reader })).tag;
    expect(page).toMatchObject({ id: tag.id, title: 'Readable', organization: { id: orgId, title: 'Academy' }, owner: { id: director.user.id }, taggedContent: [] });
    expect(page.createdAt).toMatch(ISO);
    expect(page.updatedAt).toMatch(ISO);
    expect((await ok(t, TagNodeDocument, { id: tag.id }, { as: reader })).node).toMatchObject({ id: tag.id, title: 'Readable' });

    expectCode(await refused(t, TagPageDocument, { id: tag.id }, { as: outsider }), 'NOT_FOUND');
    expectCode(await refused(t, TagPageDocument, { id: 'tag_nothing' }, { as: director }), 'NOT_FOUND', 'tag');
    expect((await ok(t, TagNodeDocument, { id: tag.id }, { as: outsider })).node).toBeNull();
  });

  it('lists only the tags the caller may view, by title, with search', async () => {
    const lister = await t.newCaller('lister');
    const b = await createTag(lister, { title: 'Beta' });
    const a = await createTag(lister, { title: 'Alpha', externalId: 'first-one' });
    const hidden = await createTag(director, { title: 'Aardvark' });
    const ids = (r: { tags: { edges: { node: { id: string } }[] } }) => r.tags.edges.map((e) => e.node.id);
    expect(ids(await ok(t, TagsDocument, { first: 10 }, { as: lister }))).toEqual([a.id, b.id]);
    expect(ids(await ok(t, TagsDocument, { search: 'FIRST' }, { as: lister }))).toEqual([a.id]);
    const pageOne = await ok(t, TagsDocument, { first: 1 }, { as: lister });
    expect(pageOne.tags.pageInfo.hasNextPage).toBe(true);
    expect(ids(await ok(t, TagsDocument, { first: 1, after: pageOne.tags.pageInfo.endCursor }, { as: lister }))).toEqual([b.id]);
    expect(ids(await ok(t, TagsDocument, { first: 100 }, { as: t.admin }))).toContain(hidden.id);
  });
});

describe('tagContent, untagContent, tags and taggedContent', () => {
  it('attaches and detaches with modify on the content and view on the tag', async () => {
    const tag = await createTag(director, { organization: orgId, title: 'Shared' });
    const classId = await makeClass(director, orgId, 'Biology', 'bio-1');
    const args = { contentType: 'class' as const, content: classId, tag: tag.id };
    const expected = { tag: { id: tag.id, title: 'Shared' }, content: { type: 'class', id: classId, externalId: 'bio-1', title: 'Biology' } };

    await refusedWithout(() => refused(t, TagContentDocument, args, { as: reader }), 'PERMISSION_DENIED');
    await refusedWithout(() => refused(t, TagContentDocument, args, { as: outsider }), 'NOT_FOUND');
    expect((await ok(t, TagContentDocument, args, { as: editor })).tagContent).toEqual({ ...expected, success: true });
    expect((await ok(t, TagContentDocument, args, { as: editor })).tagContent).toEqual({ ...expected, success: true });
    expect(await t.db.prisma.contentTag.count({ where: { tagId: tag.id } })).toBe(1);

    // The class shows the tag to whoever may view both.
    const shown = await ok(t, ContentTagsDocument, { id: classId }, { as: director });
    expect(shown.node).toEqual({ id: classId, tags: [{ id: tag.id, title: 'Shared', externalId: null, color: '#123456', icon: null }] });

    await refusedWithout(() => refused(t, UntagContentDocument, args, { as: reader }), 'PERMISSION_DENIED');
    expect((await ok(t, UntagContentDocument, args, { as: editor })).untagContent).toEqual({ ...expected, success: true });
    expect((await ok(t, UntagContentDocument, args, { as: editor })).untagContent).toEqual({ ...expected, success: false });
    expect(await t.db.prisma.contentTag.count({ where: { tagId: tag.id } })).toBe(0);
  });

  it('names the content argument in errors; exams do not exist yet', async () => {
    const tag = await createTag(director);
    const refuse = (contentType: 'class' | 'exam' | 'quiz', content: string, tagId = tag.id) =>
      refusedWithout(() => refused(t, TagContentDocument, { contentType, content, tag: tagId }, { as: director }), 'NOT_FOUND', 'content');
    await refuse('class', 'cls_nothing');
    await refuse('exam', 'exm_anything');
    await refuse('quiz', 'qz_nothing');
    await refusedWithout(
      () => refused(t, UntagContentDocument, { contentType: 'class', content: 'cls_nothing', tag: tag.id }, { as: director }),
      'NOT_FOUND',
      'content',
    );
    const classId = await makeClass(director, null);
    await refusedWithout(() => refused(t, TagContentDocument, { contentType: 'class', content: classId, tag: 'tag_nothing' }, { as: director }), 'NOT_FOUND', 'tag');
    // A tag of the class's own kind of content is not a content type.
    const r = await t.gql('mutation { tagContent(contentType: tag, content: "x", tag: "y") { success } }', {}, { as: director });
    expect(r.body.errors?.[0]?.message).toMatch(/TaggableContentType/);
  });

  it('shows on every taggable type with a GraphQL face only the tags the caller may view', async () => {
    const shared = await createTag(director, { organization: orgId, title: 'Org-wide' });
    const secret = await createTag(director, { title: 'Private' });
    const org = { organization: orgId };
    const as = seed(t).as(director);
    const pieces: [TaggableContentType, string][] = [
      ['class', await makeClass(director, orgId)],
      ['course', await as.content('course', org)],
      ['event', await as.content('event', org)],
      ['integration', await as.integration(org)],
      ['organization', orgId],
      ['quiz', (await as.quizSet(org)).id],
      ['scorm', await as.content('scorm', org)],
      ['video', await as.content('video', org)],
    ];
    const tagTitles = async (id: string, as: Caller) => {
      const node = (await ok(t, ContentTagsDocument, { id }, { as })).node as { tags?: { title: string }[] } | null;
      return node?.tags?.map((x) => x.title);
    };
    for (const [contentType, content] of pieces) {
      expect(await tagTitles(content, director), contentType).toEqual([]);
      for (const tag of [secret, shared]) await ok(t, TagContentDocument, { contentType, content, tag: tag.id }, { as: director });
      expect(await tagTitles(content, director), contentType).toEqual(['Org-wide', 'Private']);
      expect(await tagTitles(content, editor), contentType).toEqual(['Org-wide']);
    }
  });

  it('lists in taggedContent the content the caller may view, by type then title', async () => {
    const tag = await createTag(director, { organization: orgId, title: 'Everywhere' });
    const course = { id: await seed(t).as(director).content('course', { title: 'Zoology', organization: orgId }) };
    const video = { id: await seed(t).as(director).content('video', { title: 'Intro', externalId: 'v-1' }) };
    const classB = await makeClass(director, orgId, 'B class');
    const classA = await makeClass(director, orgId, 'A class', 'a-ext');
    for (const [contentType, content] of [
      ['video', video.id],
      ['class', classB],
      ['course', course.id],
      ['class', classA],
    ] as const) {
      await ok(t, TagContentDocument, { contentType, content, tag: tag.id }, { as: director });
    }
    const listed = (await ok(t, TagPageDocument, { id: tag.id }, { as: director })).tag.taggedContent;
    expect(listed).toEqual([
      { type: 'class', id: classA, externalId: 'a-ext', title: 'A class' },
      { type: 'class', id: classB, externalId: null, title: 'B class' },
      { type: 'course', id: course.id, externalId: null, title: 'Zoology' },
      { type: 'video', id: video.id, externalId: 'v-1', title: 'Intro' },
    ]);
    // The reader views the organization's content, not the director's personal video.
    expect((await ok(t, TagPageDocument, { id: tag.id }, { as: reader })).tag.taggedContent.map((c) => c.title)).toEqual(['A class', 'B class', 'Zoology']);
    // Content deleted without detaching is left out.
    await t.db.prisma.video.delete({ where: { id: video.id } });
    expect((await ok(t, TagPageDocument, { id: tag.id }, { as: director })).tag.taggedContent).toHaveLength(3);
  });
});

describe('SQL statements of classes with their tags', () => {
  it('does not grow with the number of classes: tags load once for the whole list', async () => {
    const counter = await t.newCaller('counter');
    const red = await createTag(counter, { title: 'Red', color: '#f00' });
    const blue = await createTag(counter, { title: 'Blue', color: '#00f' });
    const grow = async (total: number) => {
      const have = await t.db.prisma.class.count({ where: { ownerId: counter.user.id } });
      for (let i = have; i < total; i++) {
        const classId = await makeClass(counter, null, `Counted ${String(i).padStart(2, '0')}`);
        for (const tag of [red, blue]) await ok(t, TagContentDocument, { contentType: 'class', content: classId, tag: tag.id }, { as: counter });
      }
    };
    const list = () => countStatements(t, () => ok(t, ClassesWithTagsDocument, { first: 100 }, { as: counter }));
    await grow(3);
    const three = await list();
    expect(three.result.classes.edges).toHaveLength(3);
    await grow(30);
    const thirty = await list();
    expect(thirty.result.classes.edges).toHaveLength(30);
    for (const { node } of thirty.result.classes.edges) expect(node.tags.map((x) => x.title)).toEqual(['Blue', 'Red']);
    expect(thirty.count, thirty.statements.join('\n')).toBe(three.count);
  });
});
