import type { Context } from '../../context.ts';
import type { User } from '../../generated/prisma/client.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { newId, randomToken } from '../../ids.ts';
import { hashPassword, safeEqual, sha256, verifyPassword } from '../../auth/secrets.ts';
import { passwordThrottle } from '../../auth/password-throttle.ts';
import { may } from '../../auth/policy.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import * as s from './users.schemas.ts';

/**
 * Tokens that let the application act as another user. A user the caller may assume by the action
 * table (`user:assume`: its creator, administrators, the application's owner) needs no password;
 * any other user only with its password or the secret of one of its API applications.
 * A password that is given is checked in both cases. Tokens are random, shown once, stored as a
 * SHA-256 digest, and only the application owner that asked for one can use it.
 *
 * Guessing: a user the caller does not manage and a user that does not exist are answered alike
 * (a password is required; a wrong one does not match), after the same work, and wrong passwords
 * are throttled per target (auth/password-throttle.ts), unknown targets included. Only
 * administrators, who may list every user, are told that a user does not exist. Whether a user is
 * disabled is told only to those who manage it or give its password.
 */
export async function assumeUser(ctx: Context, raw: Record<string, unknown>): Promise<{ user: User; token: string; valid: Date }> {
  const input = parseInput(s.assume, raw);
  const user = await findByReference(ctx, input.user);
  if (!user && may(ctx.viewer.user, 'instance:records:read-all')) throw new ArgumentError('user', `no user matches '${input.user}'`, 'NOT_FOUND');
  const managed = !!user && may(ctx.viewer.user, 'user:assume', { target: user, viewer: ctx.viewer });
  if (managed && !user.enabled) throw new PermissionError('The user is disabled', 'USER_DISABLED');
  // A managed user needs no password, but a password that is given must be right.
  if (!managed && input.password === undefined) throw new ArgumentError('password', 'is required for a user you do not manage', 'MISSING_ARGUMENT');
  if (input.password !== undefined) {
    const throttle = passwordThrottle(ctx.config.rateLimit.redisUrl);
    const target = user?.id ?? `unknown:${input.user.toLowerCase()}`;
    await throttle.check(target);
    const right = user
      ? (await verifyPassword(input.password, user.passwordHash)) || (await isUserSecret(ctx, user, input.password))
      : await verifyPassword(input.password, await decoyHash(ctx.config.PASSWORD_HASH_COST)).then(() => false);
    if (!right) {
      await throttle.failed(target);
      throw new ArgumentError('password', 'does not match', 'WRONG_PASSWORD');
    }
    await throttle.succeeded(target);
  }
  if (!user!.enabled) throw new PermissionError('The user is disabled', 'USER_DISABLED');
  const found = user!;
  const token = `${randomToken(8)}.${randomToken(40)}`;
  const valid = new Date(Math.floor(Date.now() / 1000) * 1000 + ctx.config.ASSUME_TOKEN_TTL_SECONDS * 1000);
  await ctx.db.$transaction(async (tx) => {
    await tx.assumeToken.create({
      data: {
        id: newId('AssumeToken'),
        tokenHash: sha256(token),
        userId: found.id,
        issuerId: ctx.viewer.owner.id,
        integrationId: ctx.viewer.integration.id,
        expiresAt: valid,
      },
    });
    await audit(ctx, tx, 'user.assume', found.id);
  });
  return { user: found, token, valid };
}

/** A hash to check unknown users' passwords against, so that they take as long as known users'. */
let decoy: Promise<string> | undefined;
const decoyHash = (cost: number) => (decoy ??= hashPassword(randomToken(16), cost));

/**
 * The `user` argument: an identification string, else a username, else an email address (the
 * oldest account when several share it). The order keeps a username that looks like someone
 * else's email address pointing at its own account.
 */
async function findByReference(ctx: Context, reference: string): Promise<User | null> {
  return (
    (await ctx.db.user.findUnique({ where: { id: reference } })) ??
    (await ctx.db.user.findUnique({ where: { username: reference } })) ??
    (await ctx.db.user.findFirst({ where: { email: { equals: reference, mode: 'insensitive' } }, orderBy: { createdAt: 'asc' } }))
  );
}

/** "password or user secret": the secret of one of the user's active API applications also proves it. */
async function isUserSecret(ctx: Context, user: User, candidate: string): Promise<boolean> {
  const apps = await ctx.db.integration.findMany({
    where: { ownerId: user.id, type: 'api', active: true, secretCipher: { not: null } },
    select: { secretCipher: true },
  });
  return apps.some((a) => safeEqual(ctx.secrets.open(a.secretCipher!), candidate));
}

export async function revokeAssumeToken(ctx: Context, raw: Record<string, unknown>): Promise<void> {
  const { token } = parseInput(s.revokeAssume, raw);
  const record = await ctx.db.assumeToken.findUnique({ where: { tokenHash: sha256(token) } });
  if (!record || record.issuerId !== ctx.viewer.owner.id) throw new ArgumentError('token', 'is not a token of this application owner', 'NOT_FOUND');
  if (record.revokedAt) return;
  await ctx.db.$transaction(async (tx) => {
    await tx.assumeToken.update({ where: { id: record.id }, data: { revokedAt: new Date() } });
    await audit(ctx, tx, 'user.assume.revoke', record.userId);
  });
}
