import type { Platform } from '../context.ts';
import type { Db } from '../db/client.ts';
import { Batcher } from '../batcher.ts';
import type { CachedAssumeToken } from './credential-cache.ts';
import { sha256 } from './secrets.ts';

/**
 * Looks assume tokens up by digest: the first calls of thousands of examinees at 9:00, each with
 * its own token, are answered by a few statements, each for every token that arrived meanwhile.
 */
export function assumeTokenLoader(db: Db, concurrency: number): Batcher<string, CachedAssumeToken | null> {
  return new Batcher(async (hashes) => {
    const found = await db.assumeToken.findMany({ where: { tokenHash: { in: hashes } }, include: { user: true } });
    const byHash = new Map(found.map((token) => [token.tokenHash, token]));
    return hashes.map((hash) => byHash.get(hash) ?? null);
  }, { concurrency });
}

/**
 * The live token for an `assume` credential, or undefined when it is unknown, revoked, expired,
 * issued to another application owner or its user is disabled. Looked up through the credential
 * cache, like the application itself.
 */
export async function resolveAssumeToken(platform: Pick<Platform, 'credentials'>, token: string, ownerId: string): Promise<CachedAssumeToken | undefined> {
  const record = await platform.credentials.assumeToken(sha256(token));
  if (!record || record.revokedAt || record.expiresAt <= new Date() || record.issuerId !== ownerId || !record.user.enabled) return undefined;
  return record;
}
