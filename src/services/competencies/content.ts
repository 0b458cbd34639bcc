import type { Db } from '../../db/client.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { hasRecords } from '../content/content-types.ts';
import { findContents } from '../content/records.ts';

/** An exam or a class a requirement points at. */
export interface ContentSummary {
  id: string;
  externalId: string | null;
  title: string;
}

/** A library document a requirement points at. */
export interface DocumentSummary {
  id: string;
  title: string;
  prefix: string | null;
  archived: boolean;
}

/** The starting exam of a journey requirement; the accepted outcomes come from the requirement. */
export interface JourneySummary {
  exam: string;
  title: string;
  active: boolean;
}

export interface ContentKinds {
  exam: ContentSummary;
  class: ContentSummary;
  document: DocumentSummary;
  journey: JourneySummary;
}
export type ContentKind = keyof ContentKinds;

/**
 * Looks up the content requirements point at, many ids in one call. An id missing from the
 * answer is unavailable content and reads as null. `verifies` tells whether the lookup is
 * authoritative: content that it does not find is refused when a requirement is written; without
 * a verifying lookup (exams and journeys until their module registers one) any identification
 * string is stored and reads as null.
 */
export interface ContentResolver<K extends ContentKind> {
  verifies: boolean;
  load(db: Db | Prisma.TransactionClient, organizationId: string, ids: string[]): Promise<Map<string, ContentKinds[K]>>;
}

/** Content types whose module is not part of the service yet: everything reads as unavailable. */
const unavailable = <K extends ContentKind>(): ContentResolver<K> => ({ verifies: false, load: async () => new Map() });

/**
 * A content type of the content registration: its records of the organization or of no
 * organization (a teacher's own class used by it); authoritative once the type has records.
 */
const registered = <K extends 'exam' | 'class'>(type: K): ContentResolver<K> => ({
  verifies: hasRecords(type),
  load: async (db, organizationId, ids) => {
    const found = (await findContents(db, type, ids)).filter((c) => c.organizationId === organizationId || c.organizationId === null);
    return new Map(found.map((c) => [c.id, { id: c.id, externalId: c.externalId, title: c.title }]));
  },
});

const resolvers: { [K in ContentKind]: ContentResolver<K> } = {
  exam: registered('exam'),
  journey: unavailable(),
  class: registered('class'),
  document: {
    verifies: true,
    load: async (db, organizationId, ids) => {
      const rows = await db.libraryDocument.findMany({
        where: { id: { in: ids }, organizationId },
        select: { id: true, title: true, prefix: true, archived: true },
      });
      return new Map(rows.map((d) => [d.id, d]));
    },
  },
};

/** Lets the module that owns a content type (exams, journeys) answer for it. */
export function registerContentResolver<K extends ContentKind>(kind: K, resolver: ContentResolver<K>): void {
  (resolvers as Record<ContentKind, ContentResolver<ContentKind>>)[kind] = resolver as unknown as ContentResolver<ContentKind>;
}

export function contentResolver<K extends ContentKind>(kind: K): ContentResolver<K> {
  return resolvers[kind];
}

/** Resolves every (kind, id) pair with one lookup per kind. */
export async function loadContent(
  db: Db | Prisma.TransactionClient,
  organizationId: string,
  wanted: { kind: ContentKind; id: string }[],
): Promise<{ [K in ContentKind]: Map<string, ContentKinds[K]> }> {
  const ids = (kind: ContentKind) => [...new Set(wanted.filter((w) => w.kind === kind).map((w) => w.id))];
  const load = async <K extends ContentKind>(kind: K) => {
    const list = ids(kind);
    return list.length ? resolvers[kind].load(db, organizationId, list) : new Map<string, ContentKinds[K]>();
  };
  const [exam, klass, document, journey] = await Promise.all([load('exam'), load('class'), load('document'), load('journey')]);
  return { exam, class: klass, document, journey };
}
