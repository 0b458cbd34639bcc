import type { Platform } from '../context.ts';
import type { CachedAssumeToken } from './credential-cache.ts';
import { sha256 } from './secrets.ts';

/**
 * The live token for an `assume` credential, or undefined when it is unknown, revoked, expired,
 * issued to another application owner or its user is disabled. Looked up through the credential
 * cache, like the application itself.
 */
export async function resolveAssumeToken(platform: Pick<Platform, 'db' | 'credentials'>, token: string, ownerId: string): Promise<CachedAssumeToken | undefined> {
  const tokenHash = sha256(token);
  const record = await platform.credentials.assumeToken(tokenHash, () => platform.db.assumeToken.findUnique({ where: { tokenHash }, include: { user: true } }));
  if (!record || record.revokedAt || record.expiresAt <= new Date() || record.issuerId !== ownerId || !record.user.enabled) return undefined;
  return record;
}
