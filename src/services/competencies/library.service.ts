import type { Context } from '../../context.ts';
import type { Competency, LibraryDocument, Organization } from '../../generated/prisma/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import * as s from './competencies.schemas.ts';
import { afterChecks, loaders, forgetLoaded } from '../loaders.ts';
import type { Selection } from '../selection.ts';
import { findOrganization, isMemberReader, managerAccess, memberAccess, organizationOfRecord } from './access.ts';

type DocumentSelection = Selection<'LibraryDocument'>;

/**
 * The organization's library: documents that competencies and requirements attach. Members read
 * it; managers write it. The library feature gates all of it.
 */

async function findManagedDocument(ctx: Context, code: string): Promise<LibraryDocument> {
  await ctx.settings.require('library', ctx.viewer.user);
  const document = await ctx.db.libraryDocument.findUnique({ where: { id: code } });
  const unknown = new ArgumentError('document', `no library document with identification string '${code}'`, 'NOT_FOUND');
  if (!document) throw unknown;
  await managerAccess(ctx, await organizationOfRecord(ctx, document.organizationId, unknown));
  return document;
}

/** An organization's library by title, as a relation loaded with the organizations of a list (GraphQL). */
export const libraryQuery = { orderBy: [{ title: 'asc' as const }, { id: 'asc' as const }] };

/**
 * The library of an organization (loaded with `libraryQuery`), for its members and managers with
 * the library feature on; the check is batched for the organizations of a list.
 */
export async function memberLibrary<T>(ctx: Context, organization: Organization, documents: T[]): Promise<T[]> {
  await ctx.settings.require('library', ctx.viewer.user);
  await memberAccess(ctx, organization);
  return documents;
}

/** A document by identification string for a node lookup: the library's rule (the feature, members and managers), else null. */
export async function findReadableDocument(ctx: Context, id: string, query: DocumentSelection = {}): Promise<LibraryDocument | null> {
  if (!(await ctx.settings.isEnabled('library', ctx.viewer.user))) return null;
  const document = await ctx.db.libraryDocument.findUnique({ ...query, where: { id } });
  const organization = document && (await loaders(ctx).organization.load(document.organizationId));
  return organization && (await isMemberReader(ctx, organization)) ? document : null;
}

export async function createDocument(ctx: Context, raw: Record<string, unknown>, query: DocumentSelection = {}): Promise<LibraryDocument> {
  const input = parseInput(s.createDocument, raw);
  await ctx.settings.require('library', ctx.viewer.user);
  const organization = await findOrganization(ctx, input.organization);
  await managerAccess(ctx, organization);
  return ctx.db.$transaction(async (tx) => {
    const document = await tx.libraryDocument.create({
      ...query,
      data: { id: newId('LibraryDocument'), organizationId: organization.id, title: input.title, prefix: input.prefix, archived: input.archived },
    });
    await audit(ctx, tx, 'library:create', document.id);
    return document;
  });
}

export async function updateDocument(ctx: Context, raw: Record<string, unknown>, query: DocumentSelection = {}): Promise<LibraryDocument> {
  const input = parseInput(s.updateDocument, raw);
  const document = await findManagedDocument(ctx, input.document);
  const updated = await ctx.db.$transaction(async (tx) => {
    const updated = await tx.libraryDocument.update({
      ...query,
      where: { id: document.id },
      data: { title: input.title, prefix: input.prefix === undefined ? undefined : input.prefix || null, archived: input.archived },
    });
    await audit(ctx, tx, 'library:update', document.id);
    return updated;
  });
  forgetLoaded(ctx);
  return updated;
}

/**
 * Deletes a document and detaches it from the competencies and requirements listing it. A
 * document requirement pointing at it stays, and reads its document as null (unavailable).
 */
export async function deleteDocument(ctx: Context, raw: Record<string, unknown>): Promise<LibraryDocument> {
  const document = await findManagedDocument(ctx, parseInput(s.documentRef, raw).document);
  await ctx.db.$transaction(async (tx) => {
    await tx.$executeRaw(Prisma.sql`
      UPDATE "Competency" SET "documentIds" = array_remove("documentIds", ${document.id})
      WHERE "organizationId" = ${document.organizationId} AND ${document.id} = ANY("documentIds")`);
    await tx.$executeRaw(Prisma.sql`
      UPDATE "Requirement" r SET "documentIds" = array_remove(r."documentIds", ${document.id})
      FROM "Competency" c
      WHERE r."competencyId" = c.id AND c."organizationId" = ${document.organizationId} AND ${document.id} = ANY(r."documentIds")`);
    await tx.libraryDocument.delete({ where: { id: document.id } });
    await audit(ctx, tx, 'library:delete', document.id);
  });
  forgetLoaded(ctx);
  return document;
}

/**
 * The documents attached to a competency that still exist, in the attached order (GraphQL), for
 * the members and managers of its organization; one lookup for the competencies of a list.
 */
export async function attachedDocuments(ctx: Context, competency: Pick<Competency, 'organizationId' | 'documentIds'>): Promise<LibraryDocument[]> {
  const found = await afterChecks(
    (async () => {
      await ctx.settings.require('library', ctx.viewer.user);
      await memberAccess(ctx, (await loaders(ctx).organization.load(competency.organizationId))!);
    })(),
    Promise.all(competency.documentIds.map((id) => loaders(ctx).libraryDocument.load(id))),
  );
  return found.filter((d): d is LibraryDocument => d !== null && d.organizationId === competency.organizationId);
}
