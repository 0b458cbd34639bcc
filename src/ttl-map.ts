/**
 * Values kept for a short time per key, for lookups that every call of a hot path would otherwise
 * repeat. Calls that miss at the same moment share one load (thousands of examinees starting one
 * exam at 9:00 read it once, not thousands of times). Misses (null) and failed loads are not kept,
 * so a flood of random keys cannot grow it, and it never holds more than `limit` entries. A time to
 * live of 0 turns it off.
 */
export class TtlMap<V> {
  private readonly entries = new Map<string, { value: Promise<V | null>; at: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly limit = 10_000,
  ) {}

  get(key: string, load: () => Promise<V | null>): Promise<V | null> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    if (this.entries.size >= this.limit) this.entries.clear();
    const entry = { value: load(), at: now };
    this.entries.set(key, entry);
    const forget = () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
    entry.value.then((value) => value ?? forget(), forget);
    return entry.value;
  }

  clear(): void {
    this.entries.clear();
  }
}
