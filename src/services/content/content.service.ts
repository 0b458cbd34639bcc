import type { Context } from '../../context.ts';
import type { Course, Prisma } from '../../generated/prisma/client.ts';
import { allowedWhere, assertCanCreateIn } from '../../auth/policy.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import { contentTypeRegistry } from './content-types.ts';
import { contentFor, forgetContent, type ContentRecord } from './records.ts';
import * as s from './content.schemas.ts';
import type { MinimalType } from './content.schemas.ts';

/**
 * Course, event, SCORM and video records: a title, an external id, a description, an owner (the
 * creator) and an organization. One service serves the four: their tables have the same columns.
 * Reading needs view, changing modify, deleting admin; lists hold what the caller may view.
 */

/** A record of any of the four (their rows have the same shape). */
export type MinimalContent = Course;

type Reader = Context['db'] | Prisma.TransactionClient;

/** The table of one of the four, typed as the course one: same columns, same arguments. */
export const table = (db: Reader, type: MinimalType) => ({ course: db.course, event: db.event, scorm: db.scorm, video: db.video })[type] as Reader['course'];

/** Content of the type the viewer may view; `search` matches the title or the external identifier. */
export async function viewableContentWhere(ctx: Context, type: MinimalType, search?: string): Promise<Prisma.CourseWhereInput> {
  const viewable = (await allowedWhere(ctx, `${type}:read`)) as Prisma.CourseWhereInput;
  if (!search) return viewable;
  const match: Prisma.CourseWhereInput = {
    OR: [{ title: { contains: search, mode: 'insensitive' } }, { externalId: { contains: search, mode: 'insensitive' } }],
  };
  return { AND: [viewable, match] };
}

/** One record the viewer may view, as the registry knows it (NOT_FOUND, then PERMISSION_DENIED). */
export async function getContent(ctx: Context, type: MinimalType, raw: Record<string, unknown>): Promise<ContentRecord> {
  return contentFor(ctx, `${type}:read`, parseInput(s.contentRef, raw).id, 'id');
}

export async function createContent(ctx: Context, type: MinimalType, raw: Record<string, unknown>): Promise<MinimalContent> {
  const { organization, ...fields } = parseInput(s.createContent, raw);
  if (organization) await assertCanCreateIn(ctx, `${type}:create`, organization);
  return ctx.db.$transaction(async (tx) => {
    const created = await table(tx, type).create({
      data: { id: newId(contentTypeRegistry[type].model), ...fields, ownerId: ctx.viewer.user.id, organizationId: organization ?? null },
    });
    await audit(ctx, tx, `${type}.create`, created.id);
    return created;
  });
}

export async function updateContent(ctx: Context, type: MinimalType, raw: Record<string, unknown>): Promise<MinimalContent> {
  const { id, organization, ...fields } = parseInput(s.updateContent, raw);
  const content = await contentFor(ctx, `${type}:update`, id, 'id');
  if (organization) await assertCanCreateIn(ctx, `${type}:create`, organization);
  return ctx.db.$transaction(async (tx) => {
    const updated = await table(tx, type).update({ where: { id: content.id }, data: { ...fields, organizationId: organization } });
    await audit(ctx, tx, `${type}.update`, content.id);
    return updated;
  });
}

/** Deletes the record with its permission rules and tag attachments. */
export async function deleteContent(ctx: Context, type: MinimalType, raw: Record<string, unknown>): Promise<string> {
  const content = await contentFor(ctx, `${type}:delete`, parseInput(s.contentRef, raw).id, 'id');
  await ctx.db.$transaction(async (tx) => {
    await table(tx, type).delete({ where: { id: content.id } });
    await forgetContent(tx, type, content.id);
    await audit(ctx, tx, `${type}.delete`, content.id);
  });
  return content.id;
}
