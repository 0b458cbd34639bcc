import type { Context, Platform } from '../../context.ts';
import type { LoginLink, Prisma, User } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { newId, randomToken } from '../../ids.ts';
import { sha256 } from '../../auth/secrets.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import * as s from './users.schemas.ts';
import { findEditableUser } from './access.ts';
import { examOfExaminee, examPagePath } from '../exams/users.service.ts';

const DAY = 86_400_000;

export interface LinkSettings {
  days?: number;
  /** Valid to the end of this UTC day. */
  until?: Date;
  logins: number;
  redirect?: string;
  examId?: string;
  template?: string;
  short?: boolean;
}

export interface IssuedLink {
  link: LoginLink;
  url: string;
}

function expiryOf(settings: LinkSettings): { expiresAt: Date; expiresSpec: string } {
  if (settings.until) {
    return {
      expiresAt: new Date(settings.until.getTime() + DAY - 1000),
      expiresSpec: `date:${settings.until.toISOString().slice(0, 10)}`,
    };
  }
  const days = settings.days ?? 1;
  return { expiresAt: new Date(Date.now() + days * DAY), expiresSpec: `days:${days}` };
}

/** The public address of a link; the token is kept sealed so the same link can be handed out again. */
export function linkUrl(platform: Pick<Platform, 'config' | 'secrets'>, link: LoginLink): string {
  if (link.short && link.shortCode) return `${platform.config.baseUrl}/l/${link.shortCode}`;
  return `${platform.config.baseUrl}/login/${platform.secrets.open(link.tokenCipher)}`;
}

export async function createLoginLinkRecord(
  ctx: Context,
  tx: Prisma.TransactionClient,
  user: User,
  settings: LinkSettings,
): Promise<IssuedLink> {
  const token = randomToken(40);
  const link = await tx.loginLink.create({
    data: {
      id: newId('LoginLink'),
      tokenHash: sha256(token),
      tokenCipher: ctx.secrets.seal(token),
      shortCode: settings.short ? randomToken(10) : null,
      userId: user.id,
      issuerId: ctx.viewer.user.id,
      redirect: settings.redirect,
      examId: settings.examId,
      template: settings.template,
      short: settings.short ?? false,
      maxLogins: settings.logins,
      ...expiryOf(settings),
    },
  });
  return { link, url: linkUrl(ctx, link) };
}

const usable = (now = new Date()): Prisma.LoginLinkWhereInput => ({ invalidatedAt: null, expiresAt: { gt: now } });

/** The latest link of the user that can still be used. */
export async function getLoginLink(ctx: Context, raw: Record<string, unknown>): Promise<{ user: User; link: LoginLink; url: string }> {
  const user = await findEditableUser(ctx, parseInput(s.userRef, raw).user);
  const candidates = await ctx.db.loginLink.findMany({ where: { userId: user.id, ...usable() }, orderBy: { createdAt: 'desc' }, take: 100 });
  const link = candidates.find((l) => l.uses < l.maxLogins);
  if (!link) throw new ArgumentError('user', 'the user has no valid login link', 'NOT_FOUND');
  return { user, link, url: linkUrl(ctx, link) };
}

export async function createLoginLink(ctx: Context, raw: Record<string, unknown>): Promise<{ user: User; link: LoginLink; url: string }> {
  const input = parseInput(s.createLoginLink, raw);
  if (input.exam !== undefined && input.redirect !== undefined) {
    throw new ArgumentError('exam', 'cannot be combined with redirect', 'ARGUMENT_CONFLICT');
  }
  const user = await findEditableUser(ctx, input.user);
  const examId = input.exam === undefined ? undefined : (await examOfExaminee(ctx, input.exam, user)).id;
  if (input.short) await ctx.settings.require('short_links', ctx.viewer.user);
  let until: Date | undefined;
  if (input.expires instanceof Date) {
    const today = new Date(new Date().toISOString().slice(0, 10));
    if (input.expires < today || input.expires.getTime() > today.getTime() + 30 * DAY) {
      throw new ArgumentError('expires', 'must be a date from today to 30 days ahead');
    }
    until = input.expires;
  }
  const settings: LinkSettings = {
    days: typeof input.expires === 'number' ? input.expires : undefined,
    until,
    logins: input.logins ?? 1,
    redirect: input.redirect,
    examId,
    template: input.template,
    short: input.short,
  };
  const { expiresSpec } = expiryOf(settings);
  const same = await ctx.db.loginLink.findMany({
    where: {
      userId: user.id,
      ...usable(),
      expiresSpec,
      maxLogins: settings.logins,
      redirect: settings.redirect ?? null,
      examId: settings.examId ?? null,
      template: settings.template ?? null,
      short: settings.short ?? false,
    },
    orderBy: { createdAt: 'desc' },
    take: 20,
  });
  const existing = same.find((l) => l.uses < l.maxLogins);
  if (existing) return { user, link: existing, url: linkUrl(ctx, existing) };
  const issued = await ctx.db.$transaction(async (tx) => {
    const result = await createLoginLinkRecord(ctx, tx, user, settings);
    await audit(ctx, tx, 'user.login-link.create', user.id);
    return result;
  });
  return { user, ...issued };
}

/** Reads the token or short code out of a link address of this service. */
function parseLinkUrl(ctx: Context, url: string): Prisma.LoginLinkWhereInput | undefined {
  const base = ctx.config.baseUrl;
  if (!url.startsWith(`${base}/`)) return undefined;
  const [kind, value] = url.slice(base.length + 1).split('/');
  if (!value) return undefined;
  if (kind === 'login') return { tokenHash: sha256(value) };
  if (kind === 'l') return { shortCode: value };
  return undefined;
}

export async function deleteLoginLink(ctx: Context, raw: Record<string, unknown>): Promise<User> {
  const input = parseInput(s.deleteLoginLink, raw);
  const user = await findEditableUser(ctx, input.user);
  const where = parseLinkUrl(ctx, input.url);
  const link = where ? await ctx.db.loginLink.findFirst({ where: { ...where, userId: user.id } }) : null;
  if (!link) throw new ArgumentError('url', 'is not a login link of this user', 'NOT_FOUND');
  await ctx.db.$transaction(async (tx) => {
    await tx.loginLink.update({ where: { id: link.id }, data: { invalidatedAt: link.invalidatedAt ?? new Date() } });
    await audit(ctx, tx, 'user.login-link.delete', user.id);
  });
  return user;
}

export type LoginOutcome = { ok: true; user: User; redirect: string } | { ok: false; reason: string };

/**
 * Uses a link: counts the use atomically (a link with one login left admits one of two racing
 * requests), honours expiry and invalidation, and tells where to go.
 */
export async function useLoginLink(platform: Platform, lookup: { token: string } | { shortCode: string }): Promise<LoginOutcome> {
  const where = 'token' in lookup ? { tokenHash: sha256(lookup.token) } : { shortCode: lookup.shortCode };
  const link = await platform.db.loginLink.findFirst({ where, include: { user: true } });
  if (!link || link.invalidatedAt) return { ok: false, reason: 'This login link is not valid.' };
  if (link.expiresAt <= new Date()) return { ok: false, reason: 'This login link has expired.' };
  if (!link.user.enabled) return { ok: false, reason: 'This account is disabled.' };
  const counted = await platform.db.$executeRaw`
    UPDATE "LoginLink" SET "uses" = "uses" + 1
    WHERE "id" = ${link.id} AND "uses" < "maxLogins" AND "invalidatedAt" IS NULL AND "expiresAt" > now()`;
  if (counted !== 1) return { ok: false, reason: 'This login link has been used up.' };
  return { ok: true, user: link.user, redirect: link.examId ? await examLanding(platform, link.examId, link.userId) : redirectTarget(link.redirect) };
}

/**
 * A link into an exam lands on the exam's page while the user is still on the exam and the exam
 * is not deleted; otherwise it still signs the user in and lands on the start page.
 */
async function examLanding(platform: Platform, examId: string, userId: string): Promise<string> {
  const entry = await platform.db.examUser.findFirst({ where: { examId, userId, exam: { archived: false } }, select: { examId: true } });
  return entry ? examPagePath(examId) : '/';
}

/** `[content_type:tag]` redirects to the content list of that type filtered by the tag. */
function redirectTarget(redirect: string | null): string {
  if (!redirect) return '/';
  const m = /^\[([a-z_]+):(.+)\]$/.exec(redirect);
  return m ? `/${m[1]}?tag=${encodeURIComponent(m[2]!)}` : redirect;
}
