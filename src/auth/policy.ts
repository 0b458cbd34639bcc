import type { Viewer } from '../context.ts';
import type { Integration, Prisma, User } from '../generated/prisma/client.ts';
import { PermissionError } from '../errors.ts';

/**
 * Who may act on users and integrations. A user manages the users it created; instance
 * administrators manage everyone. Services call these; neither face re-implements them.
 */
export const userPolicy = {
  read: (viewer: Viewer, target: Pick<User, 'id' | 'createdById'>) =>
    viewer.user.admin || target.id === viewer.user.id || target.createdById === viewer.user.id,
  /** `read` as a filter, for relations loaded with their parent. */
  readWhere: (viewer: Viewer): Prisma.UserWhereInput =>
    viewer.user.admin ? {} : { OR: [{ id: viewer.user.id }, { createdById: viewer.user.id }] },
  manage: (viewer: Viewer, target: Pick<User, 'id' | 'createdById'>) =>
    viewer.user.admin || target.createdById === viewer.user.id,
  /** Own name and group may be changed by the user too. */
  edit: (viewer: Viewer, target: Pick<User, 'id' | 'createdById'>) =>
    viewer.user.admin || target.id === viewer.user.id || target.createdById === viewer.user.id,
};

/**
 * Integration keys act as the owner, so only the owner and administrators hold them, whatever
 * permission levels others have on the integration (those follow the content policy).
 */
export const integrationPolicy = {
  manage: (viewer: Viewer, target: Pick<Integration, 'ownerId'>) => viewer.user.admin || target.ownerId === viewer.user.id,
};

export function assertAllowed(allowed: boolean, message = 'Permission denied'): void {
  if (!allowed) throw new PermissionError(message);
}
