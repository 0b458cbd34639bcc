import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { assertCan } from '../../auth/policy.ts';
import { typeOf, type Action } from '../../auth/actions.ts';
import type { ContentRef } from '../../auth/permissions.ts';
import { ArgumentError } from '../../errors.ts';
import { contentTypeEntry, type ContentType } from './content-types.ts';

/** The records of every content type, through its registration (content-types.ts). */

type Reader = Db | Prisma.TransactionClient;
type Tx = Prisma.TransactionClient;

/** A piece of content of any type: what the policy needs, and what the contract's records show. */
export interface ContentRecord extends ContentRef {
  externalId: string | null;
  title: string;
}

type Row = Omit<ContentRecord, 'type' | 'organizationId'> & { organizationId?: string | null };

/** The columns every content table shares, which is all the lookups here use. */
interface ContentTable {
  findMany(args: { where: Record<string, unknown>; select: Record<string, boolean> }): Promise<Row[]>;
  update(args: { where: { id: string }; data: { ownerId: string } }): Promise<unknown>;
}

/** The Prisma delegate of a model (`QuizSet` → `db.quizSet`). */
const tableOf = (db: Reader, model: Prisma.ModelName) => (db as unknown as Record<string, ContentTable>)[model[0]!.toLowerCase() + model.slice(1)]!;

/** The pieces of `type` among `ids` that exist, in no particular order: one statement. */
export async function findContents(db: Reader, type: ContentType, ids: readonly string[]): Promise<ContentRecord[]> {
  const { model, live, organization } = contentTypeEntry(type);
  if (model === null || ids.length === 0) return [];
  const rows = await tableOf(db, model).findMany({
    where: { id: { in: [...new Set(ids)] }, ...live },
    select: { id: true, externalId: true, title: true, ownerId: true, ...(organization === 'column' && { organizationId: true }) },
  });
  return rows.map((row) => ({ ...row, organizationId: row.organizationId ?? null, type }));
}

/** The refusal of an identification string that names no content of the type. */
export const unknownContent = (type: ContentType, id: string, argument: string = type) =>
  new ArgumentError(argument, `no ${type} with identification string '${id}'`, 'NOT_FOUND');

/** One piece of content; unknown: 403 NOT_FOUND naming the argument (by default the type's parameter). */
export async function loadContent(db: Reader, type: ContentType, id: string, argument?: string): Promise<ContentRecord> {
  const [found] = await findContents(db, type, [id]);
  if (!found) throw unknownContent(type, id, argument);
  return found;
}

/** One piece of content on which the viewer may do `action` (NOT_FOUND, also when the viewer may not view it; then PERMISSION_DENIED). */
export async function contentFor(ctx: Context, action: Action, id: string, argument?: string): Promise<ContentRecord> {
  const content = await loadContent(ctx.db, typeOf(action), id, argument);
  await assertCan(ctx, action, content, unknownContent(typeOf(action), id, argument));
  return content;
}

/** Makes `ownerId` the owner of the piece (transfer), as its registration says. */
export async function changeOwner(ctx: Context, tx: Tx, type: ContentType, id: string, ownerId: string): Promise<void> {
  const { model, changeOwner: own } = contentTypeEntry(type);
  if (own) await own(ctx, tx, id, ownerId);
  else if (model) await tableOf(tx, model).update({ where: { id }, data: { ownerId } });
}

/**
 * What refers to a piece of content without a foreign key: its permission rules and its tags.
 * Called in the transaction that deletes the content, so nothing points at content that is gone.
 */
export async function forgetContent(tx: Tx, type: ContentType, id: string): Promise<void> {
  await tx.permissionRule.deleteMany({ where: { contentType: type, contentId: id } });
  await tx.contentTag.deleteMany({ where: { contentType: type, contentId: id } });
}
