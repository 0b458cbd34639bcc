import type { Platform } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { User } from '../generated/prisma/client.ts';
import { Batcher } from '../batcher.ts';
import type { CachedAssumeToken } from './credential-cache.ts';
import { sha256 } from './secrets.ts';

/** A row of the lookup: the user's columns, and the token's under names the user does not use. */
type TokenRow = User & { assumeTokenId: string; tokenHash: string; issuerId: string; integrationId: string | null; expiresAt: Date; revokedAt: Date | null; tokenCreatedAt: Date };

/**
 * Looks assume tokens up by digest, each with its user, in one statement (Prisma's include would
 * send two): the first calls of thousands of examinees at 9:00, each with its own token, are
 * answered by a few statements, each for every token that arrived meanwhile.
 */
export function assumeTokenLoader(db: Db, concurrency: number, waitForArrivals = false): Batcher<string, CachedAssumeToken | null> {
  return new Batcher(async (hashes) => {
    const rows = await db.$queryRaw<TokenRow[]>`
      SELECT u.*, t."id" AS "assumeTokenId", t."tokenHash", t."issuerId", t."integrationId", t."expiresAt", t."revokedAt", t."createdAt" AS "tokenCreatedAt"
      FROM "AssumeToken" t JOIN "User" u ON u."id" = t."userId"
      WHERE t."tokenHash" = ANY(${hashes}::text[])`;
    const byHash = new Map(
      rows.map(({ assumeTokenId, tokenHash, issuerId, integrationId, expiresAt, revokedAt, tokenCreatedAt, ...user }) => [
        tokenHash,
        { id: assumeTokenId, tokenHash, userId: user.id, issuerId, integrationId, expiresAt, revokedAt, createdAt: tokenCreatedAt, user },
      ]),
    );
    return hashes.map((hash) => byHash.get(hash) ?? null);
  }, { concurrency, waitForArrivals });
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
