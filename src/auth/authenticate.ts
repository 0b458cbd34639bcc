import type { Platform, Viewer } from '../context.ts';
import { AuthenticationError } from '../errors.ts';
import { safeEqual } from './secrets.ts';
import { resolveAssumeToken } from '../services/users/assume.service.ts';

export interface Credentials {
  app?: string;
  secret?: string;
  assume?: string;
}

export interface HeaderReader {
  get(name: string): string | null | undefined;
}

/**
 * The three equivalent forms of the contract: `app` + `secret` arguments, `Authorization: Bearer
 * <app>:<secret>`, or the `Service-API-App` + `Service-API-Secret` headers. `assume` comes as an
 * argument (or the `Service-API-Assume` header, for GraphQL clients).
 */
export function readCredentials(headers: HeaderReader, args: Record<string, unknown>): Credentials {
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const assume = text(args.assume) ?? text(headers.get('service-api-assume'));
  const authorization = headers.get('authorization');
  if (authorization) {
    const m = /^Bearer\s+([^:\s]+):(\S+)$/i.exec(authorization.trim());
    return m ? { app: m[1], secret: m[2], assume } : { assume };
  }
  const app = text(headers.get('service-api-app'));
  if (app) return { app, secret: text(headers.get('service-api-secret')), assume };
  return { app: text(args.app), secret: text(args.secret), assume };
}

/** Turns credentials into the viewer, or refuses with 401. */
export async function authenticate(platform: Platform, credentials: Credentials): Promise<Viewer> {
  if (!credentials.app || !credentials.secret) {
    throw new AuthenticationError('MISSING_CREDENTIALS', 'Application credentials (app and secret) are required');
  }
  const appId = credentials.app;
  const integration = await platform.credentials.get(appId, async () => {
    const found = await platform.db.integration.findUnique({ where: { appId }, include: { owner: true } });
    return found && { ...found, secret: found.secretCipher ? platform.secrets.open(found.secretCipher) : null };
  });
  const valid = integration?.type === 'api' && integration.secret !== null && safeEqual(credentials.secret, integration.secret);
  if (!integration || !valid) throw new AuthenticationError('INVALID_CREDENTIALS', 'Invalid application credentials');
  if (!integration.active) throw new AuthenticationError('INTEGRATION_INACTIVE', 'This integration is not active');
  if (!integration.owner.enabled) throw new AuthenticationError('OWNER_DISABLED', 'The owner of this integration is disabled');
  const { owner, secret: _secret, ...record } = integration;
  if (credentials.assume === undefined) return { user: owner, owner, integration: record };
  const token = await resolveAssumeToken(platform.db, credentials.assume, owner.id);
  if (!token) throw new AuthenticationError('INVALID_ASSUME_TOKEN', 'The assume token is invalid, expired or revoked');
  return { user: token.user, owner, integration: record, assumeTokenId: token.id };
}
