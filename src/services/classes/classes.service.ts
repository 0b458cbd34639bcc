import type { Context } from '../../context.ts';
import type { Class, Prisma } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { assertCanCreateIn } from '../../auth/policy.ts';
import { audit } from '../audit/audit.service.ts';
import { forgetContent } from '../content/records.ts';
import { pageWindow, paging, searchOnly } from '../paging.ts';
import type { Window } from '../selection.ts';
import { parseInput } from '../validation.ts';
import * as s from './classes.schemas.ts';
import { findClass, visibleClassesWhere, type ClassSelection } from './access.ts';

/** Classes: reading needs view or an active membership, changing modify, deleting admin (access.ts). */

export const classLink = (ctx: Context, classId: string) => `${ctx.config.baseUrl}/classes/${classId}`;

/** Refuses a second date that is not after the first, naming `argument`. */
export function assertDateOrder(first: Date | null | undefined, second: Date | null | undefined, argument: string, rule: string): void {
  if (first && second && second <= first) throw new ArgumentError(argument, rule);
}

/** Classes the viewer sees; `search` matches the title or the external identifier. */
export async function classesWhere(ctx: Context, search?: string): Promise<Prisma.ClassWhereInput> {
  const visible = await visibleClassesWhere(ctx);
  if (!search) return visible;
  const match: Prisma.ClassWhereInput = {
    OR: [{ title: { contains: search, mode: 'insensitive' } }, { externalId: { contains: search, mode: 'insensitive' } }],
  };
  return { AND: [visible, match] };
}

const byTitle: Prisma.ClassOrderByWithRelationInput[] = [{ title: 'asc' }, { id: 'asc' }];

/** The classes the viewer sees, by title: one list for both faces, paged as each asks. */
async function visibleClasses(ctx: Context, search: string | undefined, page: Window<'Class'>): Promise<Class[]> {
  return ctx.db.class.findMany({ ...page, where: await classesWhere(ctx, search), orderBy: byTitle });
}

/** GET classes: a page of the contract. */
export async function listClasses(ctx: Context, raw: Record<string, unknown>): Promise<Class[]> {
  const { search, limit, page } = parseInput(paging, raw);
  return visibleClasses(ctx, search, pageWindow({ search, limit, page }));
}

/** The same list as a cursor connection (`page` from GraphQL). */
export async function classesConnection(ctx: Context, raw: Record<string, unknown>, page: Window<'Class'>): Promise<Class[]> {
  return visibleClasses(ctx, parseInput(searchOnly, raw).search, page);
}

/** An organization's classes the viewer sees, by title, as a relation loaded with the organization. */
export async function organizationClassesQuery(ctx: Context) {
  return { where: await visibleClassesWhere(ctx), orderBy: byTitle };
}

export async function getClass(ctx: Context, raw: Record<string, unknown>, query: ClassSelection = {}): Promise<Class> {
  return findClass(ctx, parseInput(s.classRef, raw).class, 'read', query);
}

export async function createClass(ctx: Context, raw: Record<string, unknown>, query: ClassSelection = {}): Promise<Class> {
  const input = parseInput(s.createClass, raw);
  assertDateOrder(input.start, input.end, 'end', 'must be after start');
  if (input.organization) await assertCanCreateIn(ctx, 'class:create', input.organization);
  return ctx.db.$transaction(async (tx) => {
    const created = await tx.class.create({
      ...query,
      data: {
        id: newId('Class'),
        title: input.title,
        externalId: input.externalId,
        description: input.description,
        start: input.start,
        end: input.end,
        ownerId: ctx.viewer.user.id,
        organizationId: input.organization,
      },
    });
    await audit(ctx, tx, 'class.create', created.id);
    return created;
  });
}

export async function updateClass(ctx: Context, raw: Record<string, unknown>, query: ClassSelection = {}): Promise<Class> {
  const { class: code, organization, ...fields } = parseInput(s.updateClass, raw);
  const current = await findClass(ctx, code, 'class:update');
  const start = fields.start === undefined ? current.start : fields.start;
  const end = fields.end === undefined ? current.end : fields.end;
  assertDateOrder(start, end, fields.end === undefined ? 'start' : 'end', fields.end === undefined ? 'must be before end' : 'must be after start');
  if (organization) await assertCanCreateIn(ctx, 'class:create', organization);
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.class.update({ ...query, where: { id: current.id }, data: { ...fields, organizationId: organization } });
    await audit(ctx, tx, 'class.update', current.id);
    return updated;
  });
}

export async function deleteClass(ctx: Context, raw: Record<string, unknown>): Promise<Class> {
  const current = await findClass(ctx, parseInput(s.classRef, raw).class, 'class:delete');
  await ctx.db.$transaction(async (tx) => {
    await tx.class.delete({ where: { id: current.id } });
    await forgetContent(tx, 'class', current.id);
    await audit(ctx, tx, 'class.delete', current.id);
  });
  return current;
}
