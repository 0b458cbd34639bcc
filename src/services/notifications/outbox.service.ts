import type { Notification } from '../../generated/prisma/client.ts';
import type { Window } from '../selection.ts';
import type { Context } from '../../context.ts';
import { assertMay } from '../../auth/policy.ts';

/**
 * Messages of the outbox, newest first, for instance administrators only; `user` narrows to one
 * recipient user. `page` is a cursor connection's (GraphQL).
 */
export async function outbox(ctx: Context, raw: { user?: string | null }, page: Window<'Notification'>): Promise<Notification[]> {
  assertMay(ctx.viewer.user, 'instance:notifications:read');
  return ctx.db.notification.findMany({ ...page, where: raw.user ? { userId: raw.user } : {}, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}
