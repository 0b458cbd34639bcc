/**
 * Values kept for a short time per key, for lookups that every call of a hot path would otherwise
 * repeat. Misses (null) are not kept, so a flood of random keys cannot grow it, and it never holds
 * more than `limit` entries. A time to live of 0 turns it off.
 */
export class TtlMap<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly limit = 10_000,
  ) {}

  async get(key: string, load: () => Promise<V | null>): Promise<V | null> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const value = await load();
    if (value) {
      if (this.entries.size >= this.limit) this.entries.clear();
      this.entries.set(key, { value, at: now });
    } else this.entries.delete(key);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
