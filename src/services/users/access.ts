import type { Context } from '../../context.ts';
import type { Prisma, User } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { assertMay, may, userPolicy } from '../../auth/policy.ts';
import { selectsRelations, type Selection } from '../selection.ts';

/**
 * Who reads, edits and manages which users: every service that takes a `user` argument finds it
 * here, and every face shows users through these rules (auth/policy.ts), lists and lookups alike.
 */

export type UserSelection = Selection<'User'>;

/** The refusal of an identification string that names no user the viewer may read. */
export const unknownUser = (argument: string, code: string) => new ArgumentError(argument, `no user with identification string '${code}'`, 'NOT_FOUND');

/**
 * Resolves a `user` argument (an identification string, or `me`) to a user the viewer may read,
 * with what `query` selects. `me` is the authenticated viewer itself: no statement unless the
 * selection asks for its relations.
 */
export async function findUser(ctx: Context, code: string, argument = 'user', query: UserSelection = {}): Promise<User> {
  if (code === 'me' && !selectsRelations(query)) return ctx.viewer.user;
  const id = code === 'me' ? ctx.viewer.user.id : code;
  const user = await ctx.db.user.findUnique({ ...query, where: { id } });
  // A user the viewer may not read is answered as one that does not exist.
  if (!user || !userPolicy.read(ctx.viewer, user)) throw unknownUser(argument, code);
  return user;
}

/** A user by identification string when the viewer may read it, else null (a node lookup). */
export async function findReadableUser(ctx: Context, id: string, query: UserSelection = {}): Promise<User | null> {
  const user = await ctx.db.user.findUnique({ ...query, where: { id } });
  return user && userPolicy.read(ctx.viewer, user) ? user : null;
}

/** `user` when the viewer may read it, else null: users reached through another record. */
export const readableOrNull = <T extends Pick<User, 'id' | 'createdById'>>(ctx: Context, user: T): T | null =>
  userPolicy.read(ctx.viewer, user) ? user : null;

/** The viewer manages the user: its creator, or an administrator. */
export const manages = (ctx: Context, user: Pick<User, 'id' | 'createdById'>) => may(ctx.viewer.user, 'user:manage', user);

/** The creator of a user, as a relation loaded with it: shown when the viewer may read it. */
export const managerQuery = (ctx: Context) => (may(ctx.viewer.user, 'instance:records:read-all') ? {} : { where: userPolicy.readWhere(ctx.viewer) });

/**
 * Users named by identification strings (`me` is the viewer), in order and without repeats; every
 * one must be a user the viewer may read or one `seen` adds (the members of a class or an
 * organization the call is about), otherwise NOT_FOUND naming `argument`, as for an id of nothing.
 * What the viewer may do with them is the caller's rule.
 */
export async function findUsers(ctx: Context, codes: string[], argument: string, seen?: Prisma.UserWhereInput): Promise<User[]> {
  const ids = [...new Set(codes.map((c) => (c === 'me' ? ctx.viewer.user.id : c)))];
  // Administrators read every user (and an empty filter inside OR would match none).
  const visible = seen && !may(ctx.viewer.user, 'instance:records:read-all') ? { OR: [userPolicy.readWhere(ctx.viewer), seen] } : userPolicy.readWhere(ctx.viewer);
  const found = new Map((await ctx.db.user.findMany({ where: { AND: [{ id: { in: ids } }, visible] } })).map((u) => [u.id, u]));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw unknownUser(argument, missing);
  return ids.map((id) => found.get(id)!);
}

/** A user the viewer manages (its creator, or an administrator). */
export async function findManagedUser(ctx: Context, code: string, query: UserSelection = {}): Promise<User> {
  const user = await findUser(ctx, code, 'user', query);
  assertMay(ctx.viewer.user, 'user:manage', user);
  return user;
}

/** A user whose name, group and login links the viewer may change: itself, or one it manages. */
export async function findEditableUser(ctx: Context, code: string): Promise<User> {
  const user = await findUser(ctx, code);
  assertMay(ctx.viewer.user, 'user:update', user);
  return user;
}

/** Users the viewer manages, without generated (exam) accounts; `search` matches name, username or email. */
export function managedUsersWhere(ctx: Context, search?: string): Prisma.UserWhereInput {
  return {
    generated: false,
    ...(may(ctx.viewer.user, 'instance:records:read-all') ? {} : { createdById: ctx.viewer.user.id }),
    ...(search
      ? {
          OR: [
            { fullName: { contains: search, mode: 'insensitive' } },
            { username: { contains: search, mode: 'insensitive' } },
            { email: { contains: search, mode: 'insensitive' } },
          ],
        }
      : {}),
  };
}
