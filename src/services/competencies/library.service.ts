import type { Context } from '../../context.ts';
import type { Competency, LibraryDocument, Organization } from '../../generated/prisma/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import * as s from './competencies.schemas.ts';
import { findOrganization, managerAccess, memberAccess } from './access.ts';

/**
 * The organization's library: documents that competencies and requirements attach. Members read
 * it; managers write it. The library feature gates all of it.
 */

async function findManagedDocument(ctx: Context, code: string): Promise<LibraryDocument> {
  await ctx.settings.require('library', ctx.viewer.user);
  const document = await ctx.db.libraryDocument.findUnique({ where: { id: code } });
  if (!document) throw new ArgumentError('document', `no library document with identification string '${code}'`, 'NOT_FOUND');
  await managerAccess(ctx, await findOrganization(ctx, document.organizationId));
  return document;
}

export async function libraryOf(ctx: Context, organization: Organization, query: object = {}): Promise<LibraryDocument[]> {
  await ctx.settings.require('library', ctx.viewer.user);
  await memberAccess(ctx, organization);
  return ctx.db.libraryDocument.findMany({ ...query, where: { organizationId: organization.id }, orderBy: [{ title: 'asc' }, { id: 'asc' }] });
}

export async function createDocument(ctx: Context, raw: Record<string, unknown>): Promise<LibraryDocument> {
  const input = parseInput(s.createDocument, raw);
  await ctx.settings.require('library', ctx.viewer.user);
  const organization = await findOrganization(ctx, input.organization);
  await managerAccess(ctx, organization);
  return ctx.db.$transaction(async (tx) => {
    const document = await tx.libraryDocument.create({
      data: { id: newId('LibraryDocument'), organizationId: organization.id, title: input.title, prefix: input.prefix, archived: input.archived },
    });
    await audit(ctx, tx, 'library:create', document.id);
    return document;
  });
}

export async function updateDocument(ctx: Context, raw: Record<string, unknown>): Promise<LibraryDocument> {
  const input = parseInput(s.updateDocument, raw);
  const document = await findManagedDocument(ctx, input.document);
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.libraryDocument.update({
      where: { id: document.id },
      data: { title: input.title, prefix: input.prefix === undefined ? undefined : input.prefix || null, archived: input.archived },
    });
    await audit(ctx, tx, 'library:update', document.id);
    return updated;
  });
}

/**
 * Deletes a document and detaches it from the competencies and requirements listing it. A
 * document requirement pointing at it stays, and reads its document as null (unavailable).
 */
export async function deleteDocument(ctx: Context, raw: Record<string, unknown>): Promise<LibraryDocument> {
  const document = await findManagedDocument(ctx, parseInput(s.documentRef, raw).document);
  return ctx.db.$transaction(async (tx) => {
    await tx.$executeRaw(Prisma.sql`
      UPDATE "Competency" SET "documentIds" = array_remove("documentIds", ${document.id})
      WHERE "organizationId" = ${document.organizationId} AND ${document.id} = ANY("documentIds")`);
    await tx.$executeRaw(Prisma.sql`
      UPDATE "Requirement" r SET "documentIds" = array_remove(r."documentIds", ${document.id})
      FROM "Competency" c
      WHERE r."competencyId" = c.id AND c."organizationId" = ${document.organizationId} AND ${document.id} = ANY(r."documentIds")`);
    await tx.libraryDocument.delete({ where: { id: document.id } });
    await audit(ctx, tx, 'library:delete', document.id);
    return document;
  });
}

/** The documents attached to a competency that still exist, in the attached order (GraphQL). */
export async function attachedDocuments(ctx: Context, competency: Competency): Promise<LibraryDocument[]> {
  await ctx.settings.require('library', ctx.viewer.user);
  await memberAccess(ctx, await findOrganization(ctx, competency.organizationId));
  const found = await ctx.db.libraryDocument.findMany({ where: { organizationId: competency.organizationId, id: { in: competency.documentIds } } });
  return competency.documentIds.flatMap((id) => found.filter((d) => d.id === id));
}
