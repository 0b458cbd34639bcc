import type { Context } from '../../context.ts';
import type { User } from '../../generated/prisma/client.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { newId, randomToken } from '../../ids.ts';
import { hashPassword } from '../../auth/secrets.ts';
import { userPolicy } from '../../auth/policy.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { audit } from '../audit/audit.service.ts';
import { pageWindow, paging, searchOnly } from '../paging.ts';
import type { Window } from '../selection.ts';
import { parseInput } from '../validation.ts';
import * as s from './users.schemas.ts';
import { findEditableUser, findManagedUser, findUser, managedUsersWhere, type UserSelection } from './access.ts';
import { createLoginLinkRecord } from './login-links.service.ts';

/** GET users: the managed users (no exam accounts) by name, a page of the contract. */
export async function listUsers(ctx: Context, raw: Record<string, unknown>): Promise<User[]> {
  const { search, limit, page } = parseInput(paging, raw);
  return ctx.db.user.findMany({ where: managedUsersWhere(ctx, search), orderBy: [{ fullName: 'asc' }, { id: 'asc' }], ...pageWindow({ search, limit, page }) });
}

/**
 * The same users for a cursor connection (`page` from GraphQL), oldest first: the order the
 * dashboard's users connection has always had, which its tests pin.
 */
export async function usersConnection(ctx: Context, raw: Record<string, unknown>, page: Window<'User'>): Promise<User[]> {
  const { search } = parseInput(searchOnly, raw);
  return ctx.db.user.findMany({ ...page, where: managedUsersWhere(ctx, search), orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** GET user, and GraphQL `user` with what the query selects. */
export async function getUser(ctx: Context, raw: Record<string, unknown>, query: UserSelection = {}): Promise<User> {
  return findUser(ctx, parseInput(s.userRef, raw).user, 'user', query);
}

/**
 * The user the call acts as (REST `user:me`, GraphQL `me`): read when the call was authenticated,
 * so it is answered without a statement, and without a promise (GraphQL then completes the
 * selection beneath synchronously). Relations asked for beneath are loaded by plugin-prisma.
 */
export function viewerUser(ctx: Context): User {
  return ctx.viewer.user;
}

async function validateLanguage(ctx: Context, language: string): Promise<void> {
  const known = await ctx.db.language.findUnique({ where: { code: language } });
  if (!known?.active) throw new ArgumentError('language', `'${language}' is not an active language`);
}

function validateTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw new ArgumentError('timezone', `'${timezone}' is not an IANA time zone name`);
  }
}

export async function validateCustomFields(ctx: Context, entity: string, values: Record<string, string>): Promise<void> {
  const keys = Object.keys(values);
  if (keys.length === 0) return;
  const configured = await ctx.db.customField.findMany({ where: { entity, key: { in: keys } }, select: { key: true } });
  const known = new Set(configured.map((f) => f.key));
  const unknown = keys.find((k) => !known.has(k));
  if (unknown) throw new ArgumentError(`customFields.${unknown}`, `no custom field '${unknown}' is configured`, 'UNKNOWN_FIELD');
}

export interface CreatedUser {
  user: User;
  /** The initial password: the one given, or a generated one. */
  password: string;
}

export async function createUser(ctx: Context, raw: Record<string, unknown>): Promise<CreatedUser> {
  const input = parseInput(s.createUser, raw);
  const owner = ctx.viewer.user;
  const language = input.language ?? owner.language;
  const timezone = input.timezone ?? owner.timezone;
  if (input.language) await validateLanguage(ctx, language);
  if (input.timezone) validateTimezone(timezone);
  await validateCustomFields(ctx, 'user', input.customFields);
  if (await ctx.db.user.findUnique({ where: { username: input.username }, select: { id: true } })) {
    throw new ArgumentError('username', `'${input.username}' is already taken`, 'USERNAME_TAKEN');
  }
  const password = input.password ?? randomToken(12);
  const passwordHash = await hashPassword(password, ctx.config.PASSWORD_HASH_COST);
  const fullName = input.fullName ?? `${input.firstName} ${input.lastName}`;
  let user: User;
  try {
    user = await ctx.db.$transaction(async (tx) => {
      const created = await tx.user.create({
        data: {
          id: newId('User'),
          username: input.username,
          email: input.email,
          phone: input.phone,
          passwordHash,
          firstName: input.firstName,
          lastName: input.lastName,
          fullName,
          displayName: input.displayName ?? fullName,
          gender: input.gender,
          birthdate: input.birthdate,
          group: input.group,
          generated: input.exam,
          template: input.template,
          language,
          timezone,
          color: input.color,
          mustChangePassword: input.mustChangePassword,
          customFields: input.customFields,
          createdById: owner.id,
        },
      });
      if (input.notify) {
        // A one-time login link instead of the password: no password travels or rests in the outbox.
        const link = await createLoginLinkRecord(ctx, tx, created, { days: 7, logins: 1 });
        await ctx.notifier.enqueue(tx, {
          channel: 'email',
          recipient: created.email,
          userId: created.id,
          subject: 'Your account is ready',
          body: `Hello ${created.displayName},\n\nan account was created for you (username: ${created.username}).\nSign in here: ${link.url}\n`,
        });
      }
      await audit(ctx, tx, 'user.create', created.id);
      return created;
    });
  } catch (error) {
    // Two calls may pass the check above at once; the unique index decides, and the loser gets
    // the same answer as if it had come second.
    if (isUniqueViolation(error, 'username')) {
      throw new ArgumentError('username', `'${input.username}' is already taken`, 'USERNAME_TAKEN');
    }
    throw error;
  }
  return { user, password };
}

export async function setUserActive(ctx: Context, raw: Record<string, unknown>, query: UserSelection = {}): Promise<User> {
  const input = parseInput(s.setUserActive, raw);
  const user = await findManagedUser(ctx, input.user, query);
  if (input.active === undefined || input.active === user.enabled) return user;
  // Neither the acting user nor the owner of the calling application: either would lock the caller out.
  if (user.id === ctx.viewer.user.id || user.id === ctx.viewer.owner.id) {
    throw new PermissionError('You cannot disable the account making this call');
  }
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.user.update({ ...query, where: { id: user.id }, data: { enabled: input.active } });
    await audit(ctx, tx, input.active ? 'user.enable' : 'user.disable', user.id);
    return updated;
  });
}

export async function deleteUser(ctx: Context, raw: Record<string, unknown>): Promise<User> {
  const user = await findManagedUser(ctx, parseInput(s.userRef, raw).user);
  if (user.id === ctx.viewer.user.id || user.id === ctx.viewer.owner.id) {
    throw new PermissionError('You cannot delete the account making this call');
  }
  await ctx.db.$transaction(async (tx) => {
    await tx.user.delete({ where: { id: user.id } });
    await audit(ctx, tx, 'user.delete', user.id);
  });
  return user;
}

export async function setUserName(ctx: Context, raw: Record<string, unknown>): Promise<{ user: User; changed: boolean }> {
  const input = parseInput(s.setUserName, raw);
  const user = await findEditableUser(ctx, input.user);
  const fullName = input.fullName ?? `${input.firstName} ${input.lastName}`;
  const next = {
    firstName: input.firstName,
    lastName: input.lastName,
    fullName,
    displayName: input.displayName ?? fullName,
  };
  const changed = (Object.keys(next) as (keyof typeof next)[]).some((k) => user[k] !== next[k]);
  if (!changed) return { user, changed };
  const updated = await ctx.db.$transaction(async (tx) => {
    const u = await tx.user.update({ where: { id: user.id }, data: next });
    await audit(ctx, tx, 'user.rename', user.id);
    return u;
  });
  return { user: updated, changed };
}

export async function setUserGroup(ctx: Context, raw: Record<string, unknown>): Promise<{ user: User; changed: boolean }> {
  const input = parseInput(s.setUserGroup, raw);
  // The same rule as renaming: the user itself, its manager or an administrator.
  const user = await findEditableUser(ctx, input.user);
  if (user.group === input.group) return { user, changed: false };
  const updated = await ctx.db.$transaction(async (tx) => {
    const u = await tx.user.update({ where: { id: user.id }, data: { group: input.group } });
    await audit(ctx, tx, 'user.regroup', user.id);
    return u;
  });
  return { user: updated, changed: true };
}

/** Finds one visible user by email, username or identification string. */
export async function searchUser(ctx: Context, raw: Record<string, unknown>, selection: UserSelection = {}): Promise<User> {
  const { query } = parseInput(s.searchUser, raw);
  const candidates = await ctx.db.user.findMany({
    ...selection,
    where: { OR: [{ id: query }, { username: query }, { email: { equals: query, mode: 'insensitive' } }] },
    orderBy: { createdAt: 'asc' },
    take: 50,
  });
  const visible = candidates.find((u) => userPolicy.read(ctx.viewer, u));
  if (!visible) throw new ArgumentError('query', `no user matches '${query}'`, 'NOT_FOUND');
  return visible;
}
