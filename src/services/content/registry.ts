import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { assertCan, type ContentRef, type ContentType, type Level } from '../../auth/permissions.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { replacementKeys } from '../integrations/keys.ts';

type Reader = Db | Prisma.TransactionClient;
type Tx = Prisma.TransactionClient;

/** A piece of content of any type: what the policy needs, and what the contract's records show. */
export interface ContentRecord extends ContentRef {
  externalId: string | null;
  title: string;
}

type Row = Omit<ContentRecord, 'type'>;

interface Entry {
  /** The pieces among `ids` that exist (missing ones are left out), in one statement. */
  find(db: Reader, ids: string[]): Promise<Row[]>;
  /** Makes `ownerId` the owner (transfer); the organization stays. */
  setOwner(ctx: Context, tx: Tx, id: string, ownerId: string): Promise<unknown>;
}

const select = { id: true, externalId: true, title: true, ownerId: true, organizationId: true } as const;
const where = (ids: string[]) => ({ id: { in: ids } });
const owner = (id: string, ownerId: string) => ({ where: { id }, data: { ownerId } });

/**
 * Every content type that carries permissions. Exams have no records yet: every exam id is
 * unknown until the exams domain fills its entry. An organization's memberships count for
 * itself (see the policy), so its own organization is none.
 */
export const registry: Record<ContentType, Entry> = {
  class: { find: (db, ids) => db.class.findMany({ where: where(ids), select }), setOwner: (_ctx, tx, id, to) => tx.class.update(owner(id, to)) },
  course: { find: (db, ids) => db.course.findMany({ where: where(ids), select }), setOwner: (_ctx, tx, id, to) => tx.course.update(owner(id, to)) },
  event: { find: (db, ids) => db.event.findMany({ where: where(ids), select }), setOwner: (_ctx, tx, id, to) => tx.event.update(owner(id, to)) },
  exam: { find: async () => [], setOwner: async () => undefined },
  integration: {
    find: (db, ids) => db.integration.findMany({ where: where(ids), select }),
    // The integration acts as its owner, and whoever knew its secret would act as the new one:
    // the secret (or LTI 1.3 key pair) is replaced, and the integration making the call is kept.
    setOwner: async (ctx, tx, id, to) => {
      if (id === ctx.viewer.integration.id) throw new PermissionError('You cannot transfer the integration making this call');
      const integration = await tx.integration.findUniqueOrThrow({ where: { id } });
      return tx.integration.update({ where: { id }, data: { ownerId: to, ...replacementKeys(ctx, integration) } });
    },
  },
  organization: {
    find: async (db, ids) =>
      (await db.organization.findMany({ where: where(ids), select: { id: true, externalId: true, title: true, ownerId: true } })).map((o) => ({
        ...o,
        organizationId: null,
      })),
    setOwner: (_ctx, tx, id, to) => tx.organization.update(owner(id, to)),
  },
  // An archived Quiz set is gone for every reader (quizzes/access.ts).
  quiz: { find: (db, ids) => db.quizSet.findMany({ where: { ...where(ids), archived: false }, select }), setOwner: (_ctx, tx, id, to) => tx.quizSet.update(owner(id, to)) },
  scorm: { find: (db, ids) => db.scorm.findMany({ where: where(ids), select }), setOwner: (_ctx, tx, id, to) => tx.scorm.update(owner(id, to)) },
  tag: { find: (db, ids) => db.tag.findMany({ where: where(ids), select }), setOwner: (_ctx, tx, id, to) => tx.tag.update(owner(id, to)) },
  video: { find: (db, ids) => db.video.findMany({ where: where(ids), select }), setOwner: (_ctx, tx, id, to) => tx.video.update(owner(id, to)) },
};

/** The pieces of `type` among `ids` that exist, in no particular order. */
export async function findContents(db: Reader, type: ContentType, ids: readonly string[]): Promise<ContentRecord[]> {
  if (ids.length === 0) return [];
  return (await registry[type].find(db, [...new Set(ids)])).map((row) => ({ ...row, type }));
}

/** One piece of content; unknown: 403 NOT_FOUND naming the argument (by default the type's parameter). */
export async function loadContent(db: Reader, type: ContentType, id: string, argument: string = type): Promise<ContentRecord> {
  const [found] = await findContents(db, type, [id]);
  if (!found) throw new ArgumentError(argument, `no ${type} with identification string '${id}'`, 'NOT_FOUND');
  return found;
}

/** One piece of content on which the viewer holds at least `level` (NOT_FOUND, then PERMISSION_DENIED). */
export async function contentFor(ctx: Context, type: ContentType, id: string, level: Level, action?: string, argument: string = type): Promise<ContentRecord> {
  const content = await loadContent(ctx.db, type, id, argument);
  await assertCan(ctx, level, content, action);
  return content;
}

/**
 * What refers to a piece of content without a foreign key: its permission rules and its tags.
 * Called in the transaction that deletes the content, so nothing points at content that is gone.
 */
export async function forgetContent(tx: Tx, type: ContentType, id: string): Promise<void> {
  await tx.permissionRule.deleteMany({ where: { contentType: type, contentId: id } });
  await tx.contentTag.deleteMany({ where: { contentType: type, contentId: id } });
}
