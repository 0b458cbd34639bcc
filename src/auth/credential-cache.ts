import type { AssumeToken, Integration, User } from '../generated/prisma/client.ts';
import { TtlMap } from '../ttl-map.ts';

/** An integration with its owner, and its secret opened once per load rather than on every call. */
export type CachedIntegration = Integration & { owner: User; secret: string | null };

/** An assume token with the user it acts as. */
export type CachedAssumeToken = AssumeToken & { user: User };

/**
 * Every call presents credentials, and looking them up is most of the cost of a cheap call. The
 * integration (with its owner) is kept for a short time per app id, and an assume token (with its
 * user) per token digest, so the thousands of examinees of an exam, each calling with its own
 * assume token, cost no more than one application. Any write made by this instance clears both
 * (see audit()), so this instance sees its own changes at once; a change made by another instance
 * (a deactivated integration, a rotated secret, a disabled owner or user, a revoked token) takes
 * effect here within the time to live. Expiry is checked on every use. A time to live of 0 turns
 * the cache off.
 */
export class CredentialCache {
  private readonly integrations: TtlMap<CachedIntegration>;
  private readonly assumeTokens: TtlMap<CachedAssumeToken>;

  constructor(ttlMs: number) {
    this.integrations = new TtlMap(ttlMs);
    this.assumeTokens = new TtlMap(ttlMs);
  }

  get(appId: string, load: () => Promise<CachedIntegration | null>): Promise<CachedIntegration | null> {
    return this.integrations.get(appId, load);
  }

  assumeToken(tokenHash: string, load: () => Promise<CachedAssumeToken | null>): Promise<CachedAssumeToken | null> {
    return this.assumeTokens.get(tokenHash, load);
  }

  clear(): void {
    this.integrations.clear();
    this.assumeTokens.clear();
  }
}
