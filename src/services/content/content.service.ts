import type { Context } from '../../context.ts';
import type { Course, Prisma } from '../../generated/prisma/client.ts';
import { allowedWhere, assertCan, assertCanCreateIn } from '../../auth/policy.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import type { Selection, Window } from '../selection.ts';
import { parseInput } from '../validation.ts';
import { contentTypeRegistry } from './content-types.ts';
import { forgetContent, unknownContent } from './records.ts';
import * as s from './content.schemas.ts';
import type { MinimalType } from './content.schemas.ts';

/**
 * Course, event, SCORM and video records: a title, an external id, a description, an owner (the
 * creator) and an organization. One service serves the four: their tables have the same columns.
 * Reading needs view, changing modify, deleting admin; lists hold what the caller may view.
 */

/** A record of any of the four (their rows have the same shape). */
export type MinimalContent = Course;
/** The relations asked for with records of any of the four, typed as the course ones. */
type ContentSelection = Selection<'Course'>;

type Reader = Context['db'] | Prisma.TransactionClient;

/** The table of one of the four, typed as the course one: same columns, same arguments. */
const table = (db: Reader, type: MinimalType) => ({ course: db.course, event: db.event, scorm: db.scorm, video: db.video })[type] as Reader['course'];

/** Content of the type the viewer may view; `search` matches the title or the external identifier. */
export async function viewableContentWhere(ctx: Context, type: MinimalType, search?: string): Promise<Prisma.CourseWhereInput> {
  const viewable = (await allowedWhere(ctx, `${type}:read`)) as Prisma.CourseWhereInput;
  if (!search) return viewable;
  const match: Prisma.CourseWhereInput = {
    OR: [{ title: { contains: search, mode: 'insensitive' } }, { externalId: { contains: search, mode: 'insensitive' } }],
  };
  return { AND: [viewable, match] };
}

/** The record named `id` (NOT_FOUND naming `id`), once the viewer may do `verb` on it (PERMISSION_DENIED). */
async function findContent(ctx: Context, type: MinimalType, id: string, verb: 'read' | 'update' | 'delete', query: ContentSelection = {}): Promise<MinimalContent> {
  const content = await table(ctx.db, type).findUnique({ ...query, where: { id } });
  if (!content) throw unknownContent(type, id, 'id');
  await assertCan(ctx, `${type}:${verb}`, content, unknownContent(type, id, 'id'));
  return content;
}

/** Records of the type the viewer may view, oldest first: a page, or a GraphQL connection's window. */
export async function listContents(ctx: Context, type: MinimalType, raw: Record<string, unknown>, window?: Window<'Course'>): Promise<MinimalContent[]> {
  const { search, limit, page } = parseInput(s.paging, raw);
  const rows: Window<'Course'> = window ?? s.pageWindow({ search, limit, page });
  return table(ctx.db, type).findMany({ ...rows, where: await viewableContentWhere(ctx, type, search), orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** One record the viewer may view. */
export async function getContent(ctx: Context, type: MinimalType, raw: Record<string, unknown>, query?: ContentSelection): Promise<MinimalContent> {
  return findContent(ctx, type, parseInput(s.contentRef, raw).id, 'read', query);
}

export async function createContent(ctx: Context, type: MinimalType, raw: Record<string, unknown>, query: ContentSelection = {}): Promise<MinimalContent> {
  const { organization, ...fields } = parseInput(s.createContent, raw);
  if (organization) await assertCanCreateIn(ctx, `${type}:create`, organization);
  return ctx.db.$transaction(async (tx) => {
    const created = await table(tx, type).create({
      ...query,
      data: { id: newId(contentTypeRegistry[type].model), ...fields, ownerId: ctx.viewer.user.id, organizationId: organization ?? null },
    });
    await audit(ctx, tx, `${type}.create`, created.id);
    return created;
  });
}

export async function updateContent(ctx: Context, type: MinimalType, raw: Record<string, unknown>, query: ContentSelection = {}): Promise<MinimalContent> {
  const { id, organization, ...fields } = parseInput(s.updateContent, raw);
  const content = await findContent(ctx, type, id, 'update');
  if (organization) await assertCanCreateIn(ctx, `${type}:create`, organization);
  return ctx.db.$transaction(async (tx) => {
    const updated = await table(tx, type).update({ ...query, where: { id: content.id }, data: { ...fields, organizationId: organization } });
    await audit(ctx, tx, `${type}.update`, content.id);
    return updated;
  });
}

/** Deletes the record with its permission rules and tag attachments. */
export async function deleteContent(ctx: Context, type: MinimalType, raw: Record<string, unknown>): Promise<string> {
  const content = await findContent(ctx, type, parseInput(s.contentRef, raw).id, 'delete');
  await ctx.db.$transaction(async (tx) => {
    await table(tx, type).delete({ where: { id: content.id } });
    await forgetContent(tx, type, content.id);
    await audit(ctx, tx, `${type}.delete`, content.id);
  });
  return content.id;
}
