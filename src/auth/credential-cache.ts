import type { AssumeToken, Integration, User } from '../generated/prisma/client.ts';
import type { Batcher } from '../batcher.ts';
import { TtlMap } from '../ttl-map.ts';

/**
 * An integration (its record, as the viewer carries it) with its owner, and its secret opened once
 * per load rather than on every call: a call then builds its viewer from these without copying.
 */
export interface CachedIntegration {
  record: Integration;
  owner: User;
  secret: string | null;
}

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

  constructor(
    ttlMs: number,
    /** Looks assume tokens up by digest, many in one statement when they arrive together. */
    private readonly tokens: Batcher<string, CachedAssumeToken | null>,
  ) {
    this.integrations = new TtlMap(ttlMs);
    this.assumeTokens = new TtlMap(ttlMs);
  }

  get(appId: string, load: () => Promise<CachedIntegration | null>): Promise<CachedIntegration | null> {
    return this.integrations.get(appId, load);
  }

  assumeToken(tokenHash: string): Promise<CachedAssumeToken | null> {
    return this.assumeTokens.get(tokenHash, () => this.tokens.add(tokenHash));
  }

  clear(): void {
    this.integrations.clear();
    this.assumeTokens.clear();
  }
}
