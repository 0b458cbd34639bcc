import type { Context } from '../../context.ts';
import type { Prisma, Tag } from '../../generated/prisma/client.ts';
import { allowedWhere, assertCan, assertCanCreateIn, canEach } from '../../auth/policy.ts';
import type { ActionOn } from '../../auth/actions.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import { contentFor, findContents, forgetContent, type ContentRecord } from '../content/records.ts';
import { taggableTypes, type TaggableType } from '../content/content-types.ts';
import type { Selection, Window } from '../selection.ts';
import * as s from './tags.schemas.ts';
import { unknownContent } from '../content/records.ts';

/**
 * Tags, and tags attached to content. A tag is content of type `tag` under the one permission
 * policy: its owner (the creator) holds admin, explicit rules and the content level of members of
 * its organization give the rest; it goes into an organization where the caller may change
 * content (assertCanCreateIn). Reading a tag needs view, changing it modify, deleting it admin.
 * Reading the tags of content needs view on the content; attaching and detaching need modify on
 * the content and view on the tag. A tag the caller may not view is never shown on any content.
 */

/** The tag named `id` (NOT_FOUND), on which the viewer may do `action` (PERMISSION_DENIED). */
async function findTagFor(ctx: Context, id: string, action: ActionOn<'tag'>, query: Selection<'Tag'> = {}): Promise<Tag> {
  const tag = await ctx.db.tag.findUnique({ ...query, where: { id } });
  const unknown = unknownContent('tag', id);
  if (!tag) throw unknown;
  await assertCan(ctx, action, tag, unknown);
  return tag;
}

/** Tags the viewer may view; `search` matches the title or the external identifier. */
export async function viewableTagsWhere(ctx: Context, search?: string): Promise<Prisma.TagWhereInput> {
  const viewable = (await allowedWhere(ctx, 'tag:read')) as Prisma.TagWhereInput;
  if (!search) return viewable;
  const match: Prisma.TagWhereInput = {
    OR: [{ title: { contains: search, mode: 'insensitive' } }, { externalId: { contains: search, mode: 'insensitive' } }],
  };
  return { AND: [viewable, match] };
}

// ---------------------------------------------------------------------------------------------
// Tags

/** Tags the viewer may view, by title: a page of the contract, or a GraphQL connection's window. */
export async function listTags(ctx: Context, raw: Record<string, unknown>, window?: Window<'Tag'>): Promise<Tag[]> {
  const { search, limit, page } = parseInput(s.paging, raw);
  const rows: Window<'Tag'> = window ?? s.pageWindow({ search, limit, page });
  return ctx.db.tag.findMany({ ...rows, where: await viewableTagsWhere(ctx, search), orderBy: [{ title: 'asc' }, { id: 'asc' }] });
}

export async function getTag(ctx: Context, raw: Record<string, unknown>, query?: Selection<'Tag'>): Promise<Tag> {
  return findTagFor(ctx, parseInput(s.tagRef, raw).tag, 'tag:read', query);
}

export async function createTag(ctx: Context, raw: Record<string, unknown>, query: Selection<'Tag'> = {}): Promise<Tag> {
  const input = parseInput(s.createTag, raw);
  if (input.organization) await assertCanCreateIn(ctx, 'tag:create', input.organization);
  return ctx.db.$transaction(async (tx) => {
    const tag = await tx.tag.create({
      ...query,
      data: {
        id: newId('Tag'),
        title: input.title,
        externalId: input.externalId ?? null,
        color: input.color,
        icon: input.icon ?? null,
        ownerId: ctx.viewer.user.id,
        organizationId: input.organization ?? null,
      },
    });
    await audit(ctx, tx, 'tag.create', tag.id);
    return tag;
  });
}

export async function updateTag(ctx: Context, raw: Record<string, unknown>, query: Selection<'Tag'> = {}): Promise<Tag> {
  const { tag: id, organization, ...fields } = parseInput(s.updateTag, raw);
  const tag = await findTagFor(ctx, id, 'tag:update');
  if (organization) await assertCanCreateIn(ctx, 'tag:create', organization);
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.tag.update({
      ...query,
      where: { id: tag.id },
      data: { ...fields, ...(organization !== undefined ? { organizationId: organization } : {}) },
    });
    await audit(ctx, tx, 'tag.update', tag.id);
    return updated;
  });
}

/** Deleting needs admin: it takes the tag off every piece of content, whoever attached it. */
export async function deleteTag(ctx: Context, raw: Record<string, unknown>): Promise<Tag> {
  const tag = await findTagFor(ctx, parseInput(s.tagRef, raw).tag, 'tag:delete');
  await ctx.db.$transaction(async (tx) => {
    // Attachments go with the tag (foreign key); rules name it without one.
    await forgetContent(tx, 'tag', tag.id);
    await tx.tag.delete({ where: { id: tag.id } });
    await audit(ctx, tx, 'tag.delete', tag.id);
  });
  return tag;
}

// ---------------------------------------------------------------------------------------------
// Tags on content

/**
 * The tags the viewer may view on each piece of content of one type, by title: one statement for
 * any number of ids (plus the one that finds the viewer's rules on tags), so a list of content
 * shows its tags without one query per item.
 */
export async function tagsOfContent(ctx: Context, type: TaggableType, ids: readonly string[]): Promise<Map<string, Tag[]>> {
  const out = new Map<string, Tag[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await ctx.db.contentTag.findMany({
    where: { contentType: type, contentId: { in: [...ids] }, tag: await viewableTagsWhere(ctx) },
    include: { tag: true },
    orderBy: [{ tag: { title: 'asc' } }, { tagId: 'asc' }],
  });
  for (const row of rows) out.get(row.contentId)?.push(row.tag);
  return out;
}

export async function listContentTags(ctx: Context, type: TaggableType, raw: Record<string, unknown>): Promise<{ content: ContentRecord; tags: Tag[] }> {
  const id = parseInput(s.contentRef(type), raw)[type]!;
  const content = await contentFor(ctx, `${type}:tags:read`, id);
  return { content, tags: (await tagsOfContent(ctx, type, [content.id])).get(content.id)! };
}

export interface ContentTagResult {
  tag: Tag;
  content: ContentRecord;
}

/**
 * The content and the tag of a `<type>:tag` call, both existing, with the levels checked.
 * `argument` names the content in errors (GraphQL calls it `content`).
 */
async function contentAndTag(ctx: Context, type: TaggableType, raw: Record<string, unknown>, verb: 'tags:read' | 'tags:update', argument: string): Promise<ContentTagResult> {
  const input = parseInput(s.contentTag(type), raw);
  const content = await contentFor(ctx, `${type}:${verb}`, input[type]!, argument);
  const tag = await findTagFor(ctx, input.tag!, 'tag:use');
  return { content, tag };
}

const attachment = (r: ContentTagResult) => ({ tagId: r.tag.id, contentType: r.content.type, contentId: r.content.id });

/** Whether the tag is attached to the content. */
export async function contentTagStatus(ctx: Context, type: TaggableType, raw: Record<string, unknown>, argument: string = type): Promise<ContentTagResult & { attached: boolean }> {
  const found = await contentAndTag(ctx, type, raw, 'tags:read', argument);
  const row = await ctx.db.contentTag.findUnique({ where: { tagId_contentType_contentId: attachment(found) }, select: { tagId: true } });
  return { ...found, attached: row !== null };
}

/** Attaches the tag; attaching it again succeeds and changes nothing (the row is unique). */
export async function attachTag(ctx: Context, type: TaggableType, raw: Record<string, unknown>, argument: string = type): Promise<ContentTagResult & { success: boolean }> {
  const found = await contentAndTag(ctx, type, raw, 'tags:update', argument);
  await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.contentTag.createMany({ data: [attachment(found)], skipDuplicates: true });
    if (count > 0) await audit(ctx, tx, 'tag.attach', `${found.tag.id}:${type}:${found.content.id}`);
  });
  return { ...found, success: true };
}

/** Detaches the tag; `success` is false when it was not attached. */
export async function detachTag(ctx: Context, type: TaggableType, raw: Record<string, unknown>, argument: string = type): Promise<ContentTagResult & { success: boolean }> {
  const found = await contentAndTag(ctx, type, raw, 'tags:update', argument);
  const count = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.contentTag.deleteMany({ where: attachment(found) });
    if (count > 0) await audit(ctx, tx, 'tag.detach', `${found.tag.id}:${type}:${found.content.id}`);
    return count;
  });
  return { ...found, success: count > 0 };
}

/**
 * The content each tag is attached to that the viewer may view, by type then title, keyed by tag:
 * the same statements for any number of tags. Content that no longer exists (its module deleted
 * it without detaching) is left out.
 */
export async function taggedContent(ctx: Context, tagIds: readonly string[]): Promise<Map<string, ContentRecord[]>> {
  const out = new Map<string, ContentRecord[]>(tagIds.map((id) => [id, []]));
  if (tagIds.length === 0) return out;
  const rows = await ctx.db.contentTag.findMany({ where: { tagId: { in: [...tagIds] } }, select: { tagId: true, contentType: true, contentId: true } });
  const found = (await Promise.all(taggableTypes.map((type) => findContents(ctx.db, type, rows.filter((r) => r.contentType === type).map((r) => r.contentId))))).flat();
  const viewable = await canEach(ctx, found.map((c) => [`${c.type}:read`, c] as const));
  const shown = new Map(found.filter((_, i) => viewable[i]).map((c) => [`${c.type}:${c.id}`, c]));
  for (const row of rows) {
    const content = shown.get(`${row.contentType}:${row.contentId}`);
    if (content) out.get(row.tagId)!.push(content);
  }
  for (const list of out.values()) list.sort((a, b) => a.type.localeCompare(b.type) || a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
  return out;
}
