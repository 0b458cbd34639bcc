import type { Integration, User } from '../generated/prisma/client.ts';

/** An integration with its owner, and its secret opened once per load rather than on every call. */
export type CachedIntegration = Integration & { owner: User; secret: string | null };

/**
 * Every call presents credentials, and looking them up is most of the cost of a cheap call. The
 * integration (with its owner) is kept for a short time per app id. Any write made by this
 * instance clears the cache (see audit()), so this instance sees its own changes at once; a change
 * made by another instance (a deactivated integration, a rotated secret, a disabled owner) takes
 * effect here within the time to live. A time to live of 0 turns the cache off.
 */
export class CredentialCache {
  private readonly entries = new Map<string, { value: CachedIntegration | null; at: number }>();

  constructor(private readonly ttlMs: number) {}

  async get(appId: string, load: () => Promise<CachedIntegration | null>): Promise<CachedIntegration | null> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.entries.get(appId);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const value = await load();
    // Unknown app ids are not kept: a flood of random ids must not grow the map.
    if (value) {
      if (this.entries.size >= 10_000) this.entries.clear();
      this.entries.set(appId, { value, at: now });
    } else this.entries.delete(appId);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
