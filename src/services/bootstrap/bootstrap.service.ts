import type { Platform } from '../../context.ts';
import type { User } from '../../generated/prisma/client.ts';
import { newId, randomToken } from '../../ids.ts';
import { hashPassword } from '../../auth/secrets.ts';

export interface BootstrapResult {
  /** Set only when credentials were generated now: they are shown once and never again. */
  generated?: { app: string; secret: string };
  created: boolean;
}

/** Creates a user directly (no caller): the instance administrator and CLI-made accounts. */
export async function createAccount(
  platform: Platform,
  input: { username: string; email: string; firstName: string; lastName: string; admin?: boolean; password?: string },
): Promise<User> {
  const fullName = `${input.firstName} ${input.lastName}`;
  return platform.db.user.create({
    data: {
      id: newId('User'),
      username: input.username,
      email: input.email,
      passwordHash: await hashPassword(input.password ?? randomToken(24), platform.config.PASSWORD_HASH_COST),
      firstName: input.firstName,
      lastName: input.lastName,
      fullName,
      displayName: fullName,
      admin: input.admin ?? false,
    },
  });
}

/** Creates an API integration with given (or fresh) credentials for an owner, without a caller. */
export async function createApiIntegration(platform: Platform, owner: User, title: string, credentials?: { app: string; secret: string }) {
  const app = credentials?.app ?? randomToken(24);
  const secret = credentials?.secret ?? randomToken(48);
  const integration = await platform.db.integration.create({
    data: { id: newId('Integration'), title, type: 'api', ownerId: owner.id, appId: app, secretCipher: platform.secrets.seal(secret) },
  });
  return { integration, app, secret };
}

/**
 * At start: with BOOTSTRAP_APP/BOOTSTRAP_SECRET, make sure an administrator (`admin`) owns an API
 * integration with exactly those credentials. Without them, an empty instance gets generated
 * credentials, printed once by the caller.
 */
export async function bootstrap(platform: Platform): Promise<BootstrapResult> {
  const { BOOTSTRAP_APP: app, BOOTSTRAP_SECRET: secret } = platform.config;
  if (app && secret) {
    if (await platform.db.integration.findUnique({ where: { appId: app }, select: { id: true } })) return { created: false };
    await createApiIntegration(platform, await administrator(platform), 'Bootstrap application', { app, secret });
    return { created: true };
  }
  if ((await platform.db.integration.count()) > 0) return { created: false };
  const { app: newApp, secret: newSecret } = await createApiIntegration(platform, await administrator(platform), 'Bootstrap application');
  return { created: true, generated: { app: newApp, secret: newSecret } };
}

async function administrator(platform: Platform): Promise<User> {
  const existing = await platform.db.user.findUnique({ where: { username: 'admin' } });
  if (existing) {
    return existing.admin ? existing : platform.db.user.update({ where: { id: existing.id }, data: { admin: true } });
  }
  return createAccount(platform, { username: 'admin', email: 'admin@localhost.localdomain', firstName: 'Instance', lastName: 'Administrator', admin: true });
}
