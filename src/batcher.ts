interface Waiting<I, O> {
  item: I;
  resolve(output: O): void;
  reject(error: unknown): void;
}

export interface BatcherOptions<I> {
  /** Batches in progress at once (one connection's worth on the embedded database). */
  concurrency: number;
  maxBatch?: number;
  /** Items with the same key never share a batch: the later waits for the next, so they run in the order they arrived. */
  keyOf?: (item: I) => string;
  /**
   * Wait while connections are still being accepted (`arrivals`), for at most ARRIVALS_WAIT_MS:
   * for a database that runs on this thread (see Arrivals).
   */
  waitForArrivals?: boolean;
}

/** The longest a batch waits for connections still being accepted. */
export const ARRIVALS_WAIT_MS = 20;

/**
 * New connections, as the HTTP server accepts them. Node accepts one waiting connection per turn
 * of the event loop, and the embedded database runs its statements on this thread, so while a
 * storm of connections waits to be accepted (3,000 examinees starting at 9:00), every turn that
 * runs a statement lets in one more: each late start would then pay a statement of its own, 8-10
 * ms apart. A batch that waits while connections keep arriving lets the loop turn quickly and
 * accept them, and then carries all their calls.
 */
export class Arrivals {
  /** Connections accepted so far. */
  count = 0;

  /** A connection was accepted. */
  mark(): void {
    this.count++;
  }
}

export const arrivals = new Arrivals();

/**
 * Runs work as the database can take it (a group commit): items that arrive in one turn of the
 * event loop, or while `concurrency` batches are in progress, run together in one batch; an item
 * that arrives alone runs alone, one turn later. When thousands of calls arrive at once, each statement carries
 * many items instead of one, which is what lets the database keep up; a quiet caller waits for
 * nothing. A batch that fails is run again item by item, so an item the database refuses fails
 * alone.
 */
export class Batcher<I, O> {
  private readonly queue: Waiting<I, O>[] = [];
  private running = 0;

  constructor(
    /** The outputs of a batch, in the order of its items. */
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly options: BatcherOptions<I>,
  ) {}

  add(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private scheduled = false;
  /** When the current wait for arrivals began (0: not waiting), and the arrivals seen at the last look. */
  private waitingSince = 0;
  private arrivalsSeen = 0;

  /**
   * Runs what waits after the requests the event loop has already read: the embedded database
   * works on this thread, so a statement started at once would be done before the next request is
   * even parsed, and nothing would ever be written together.
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.waitsForArrivals()) return this.schedule();
      this.pump();
    });
  }

  /** Whether to let the event loop turn once more, to accept connections still arriving. */
  private waitsForArrivals(): boolean {
    if (!this.options.waitForArrivals) return false;
    const arrived = arrivals.count !== this.arrivalsSeen;
    this.arrivalsSeen = arrivals.count;
    if (!arrived || this.running >= this.options.concurrency) {
      this.waitingSince = 0;
      return false;
    }
    const now = performance.now();
    if (this.waitingSince === 0) this.waitingSince = now;
    if (now - this.waitingSince < ARRIVALS_WAIT_MS) return true;
    this.waitingSince = 0;
    return false;
  }

  private pump(): void {
    while (this.running < this.options.concurrency && this.queue.length > 0) {
      const batch = this.take();
      this.running++;
      void this.flush(batch).finally(() => {
        this.running--;
        this.schedule();
      });
    }
  }

  /** Up to maxBatch waiting items in order of arrival, one per key; the others keep their place. */
  private take(): Waiting<I, O>[] {
    const { keyOf, maxBatch = 500 } = this.options;
    if (!keyOf) return this.queue.splice(0, maxBatch);
    const batch: Waiting<I, O>[] = [];
    const keys = new Set<string>();
    for (let i = 0; i < this.queue.length && batch.length < maxBatch; ) {
      const key = keyOf(this.queue[i]!.item);
      if (keys.has(key)) {
        i++;
        continue;
      }
      keys.add(key);
      batch.push(...this.queue.splice(i, 1));
    }
    return batch;
  }

  private async flush(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const outputs = await this.run(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(outputs[i]!));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      await Promise.all(batch.map((w) => this.flush([w])));
    }
  }
}
