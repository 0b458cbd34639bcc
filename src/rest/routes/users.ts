import type { User } from '../../generated/prisma/client.ts';
import * as users from '../../services/users/users.service.ts';
import * as links from '../../services/users/login-links.service.ts';
import * as assume from '../../services/users/assume.service.ts';
import { compact, datetime } from '../format.ts';
import type { Handler } from './types.ts';

const userSummary = (u: User) => ({ user: u.id, name: u.fullName });
const userStatus = (u: User) => ({ user: u.id, name: u.fullName, status: u.enabled, exam: u.generated });

export const userRoutes: Record<string, Handler> = {
  'GET users': async (ctx, args) => ({ users: (await users.listUsers(ctx, args)).map(userSummary) }),
  'GET user:me': async (ctx) => userStatus(users.viewerUser(ctx)),
  'GET user': async (ctx, args) => userStatus(await users.getUser(ctx, args)),
  'POST user': async (ctx, args) => {
    const { user, password } = await users.createUser(ctx, args);
    return user.generated ? { user: user.id } : { user: user.id, username: user.username, password };
  },
  'PATCH user': async (ctx, args) => {
    const user = await users.setUserActive(ctx, args);
    return { user: user.id, status: user.enabled, success: true };
  },
  'DELETE user': async (ctx, args) => ({ user: (await users.deleteUser(ctx, args)).id, success: true }),
  'GET user:name': async (ctx, args) => {
    const u = await users.getUser(ctx, args);
    return { user: u.id, first_name: u.firstName, last_name: u.lastName, full_name: u.fullName, display_name: u.displayName };
  },
  'POST user:name': async (ctx, args) => {
    const { user, changed } = await users.setUserName(ctx, args);
    return { user: user.id, success: true, changed };
  },
  'GET user:group': async (ctx, args) => {
    const u = await users.getUser(ctx, args);
    // The contract types group as a string: an unset group is left out, as other unset values are.
    return compact({ user: u.id, group: u.group ?? undefined });
  },
  'POST user:group': async (ctx, args) => {
    const { user, changed } = await users.setUserGroup(ctx, args);
    return { user: user.id, success: true, changed };
  },
  'GET user:search': async (ctx, args) => {
    const u = await users.searchUser(ctx, args);
    return { user: u.id, exam: u.generated };
  },
  'GET user:login': async (ctx, args) => {
    const { user, link, url } = await links.getLoginLink(ctx, args);
    return { user: user.id, url, valid: datetime(link.expiresAt) };
  },
  'POST user:login': async (ctx, args) => {
    const { user, link, url } = await links.createLoginLink(ctx, args);
    return { user: user.id, url, valid: datetime(link.expiresAt), count: link.maxLogins };
  },
  'DELETE user:login': async (ctx, args) => ({ user: (await links.deleteLoginLink(ctx, args)).id, success: true }),
  'POST user:assume': async (ctx, args) => {
    const { user, token, valid } = await assume.assumeUser(ctx, args);
    return { user: user.id, token, valid: datetime(valid) };
  },
  'DELETE user:assume': async (ctx, args) => {
    await assume.revokeAssumeToken(ctx, args);
    return { success: true };
  },
};
