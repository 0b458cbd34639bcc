// A latency histogram for the request path that costs no allocation per observation once its
// series exists: label values are looked up in nested maps (no joined key string), and buckets are
// a typed array. prom-client's own Histogram builds a label hash string and a value pair per
// observation; this one hands the registry the same exposition format at scrape time only.

/** Seconds; from a fast REST call (~0.5 ms) to a slow export. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

interface Series {
  labels: Record<string, string | number>;
  /** Non-cumulative counts per bucket; the last slot is +Inf. */
  counts: Float64Array;
  sum: number;
  count: number;
}

type Level = Map<string | number, Level | Series>;

export class LatencyHistogram {
  readonly type = 'histogram';
  private readonly root: Level = new Map();
  private readonly all: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
  ) {}

  /** Records one observation in seconds; label values in the order of the label names (at most three). */
  observe(seconds: number, a: string | number, b?: string | number, c?: string | number): void {
    let level: Level = this.root;
    const n = this.labelNames.length;
    let node: Level | Series | undefined;
    for (let i = 0; i < n; i++) {
      const value = (i === 0 ? a : i === 1 ? b : c)!;
      node = level.get(value);
      if (!node) {
        node = i === n - 1 ? this.create(a, b, c) : new Map();
        level.set(value, node);
      }
      if (i < n - 1) level = node as Level;
    }
    const series = node as Series;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  private create(a: string | number, b?: string | number, c?: string | number): Series {
    const labels: Record<string, string | number> = {};
    [a, b, c].slice(0, this.labelNames.length).forEach((v, i) => (labels[this.labelNames[i]!] = v!));
    const series: Series = { labels, counts: new Float64Array(LATENCY_BUCKETS.length + 1), sum: 0, count: 0 };
    this.all.push(series);
    return series;
  }

  /** The registry's view (prom-client's metric interface): cumulative buckets, sum and count. */
  get() {
    const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
    for (const series of this.all) {
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, i) => {
        cumulative += series.counts[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { ...series.labels, le }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { ...series.labels, le: '+Inf' }, value: series.count });
      values.push({ metricName: `${this.name}_sum`, labels: series.labels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: series.labels, value: series.count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' as const };
  }
}

/**
 * Caps a label fed by callers (GraphQL operation names): the first `max` distinct values are kept,
 * later new ones count as `_other`, so a client cannot grow the series without bound.
 */
export class BoundedLabel {
  private readonly seen = new Set<string>();
  constructor(private readonly max: number) {}

  of(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.max) return '_other';
    this.seen.add(value);
    return value;
  }
}
