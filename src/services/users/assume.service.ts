import type { Context } from '../../context.ts';
import type { AssumeToken, User } from '../../generated/prisma/client.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { newId, randomToken } from '../../ids.ts';
import { safeEqual, sha256, verifyPassword } from '../../auth/secrets.ts';
import { userPolicy } from '../../auth/policy.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import * as s from './users.schemas.ts';

/**
 * Tokens that let the application act as another user. A managed user can be assumed without a
 * password; any other user only with its password or the secret of one of its API applications.
 * A password that is given is checked in both cases. Tokens are random, shown once, stored as a
 * SHA-256 digest, and only the application owner that asked for one can use it.
 */
export async function assumeUser(ctx: Context, raw: Record<string, unknown>): Promise<{ user: User; token: string; valid: Date }> {
  const input = parseInput(s.assume, raw);
  const user = await findByReference(ctx, input.user);
  if (!user) throw new ArgumentError('user', `no user matches '${input.user}'`, 'NOT_FOUND');
  if (!user.enabled) throw new PermissionError('The user is disabled', 'USER_DISABLED');
  const managed = userPolicy.manage(ctx.viewer, user) || user.id === ctx.viewer.owner.id;
  // A managed user needs no password, but a password that is given must be right.
  if (!managed && input.password === undefined) throw new ArgumentError('password', 'is required for a user you do not manage', 'MISSING_ARGUMENT');
  if (input.password !== undefined && !(await verifyPassword(input.password, user.passwordHash)) && !(await isUserSecret(ctx, user, input.password))) {
    throw new ArgumentError('password', 'does not match', 'WRONG_PASSWORD');
  }
  const token = `${randomToken(8)}.${randomToken(40)}`;
  const valid = new Date(Math.floor(Date.now() / 1000) * 1000 + ctx.config.ASSUME_TOKEN_TTL_SECONDS * 1000);
  await ctx.db.$transaction(async (tx) => {
    await tx.assumeToken.create({
      data: {
        id: newId('AssumeToken'),
        tokenHash: sha256(token),
        userId: user.id,
        issuerId: ctx.viewer.owner.id,
        integrationId: ctx.viewer.integration.id,
        expiresAt: valid,
      },
    });
    await audit(ctx, tx, 'user.assume', user.id);
  });
  return { user, token, valid };
}

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

/** The live token for an `assume` credential, or undefined when it is unknown, revoked or expired. */
export async function resolveAssumeToken(
  db: Context['db'],
  token: string,
  ownerId: string,
): Promise<(AssumeToken & { user: User }) | undefined> {
  const record = await db.assumeToken.findUnique({ where: { tokenHash: sha256(token) }, include: { user: true } });
  if (!record || record.revokedAt || record.expiresAt <= new Date() || record.issuerId !== ownerId || !record.user.enabled) {
    return undefined;
  }
  return record;
}
