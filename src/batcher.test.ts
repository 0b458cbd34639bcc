import { describe, expect, it } from 'vitest';
import { ARRIVALS_WAIT_MS, Batcher, arrivals } from './batcher.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A batcher that records the batches it ran. */
function recording(waitForArrivals: boolean) {
  const batches: number[][] = [];
  const batcher = new Batcher<number, number>(
    async (items) => {
      batches.push(items);
      return items.map((item) => item * 2);
    },
    { concurrency: 1, waitForArrivals },
  );
  return { batcher, batches };
}

/** As during a storm of starts: a connection accepted and a call made, then `turns` turns of the loop, for each item. */
async function callsAsConnectionsArrive(batcher: Batcher<number, number>, items: number[], turns: number): Promise<number[]> {
  const results: Promise<number>[] = [];
  for (const item of items) {
    arrivals.mark();
    results.push(batcher.add(item));
    for (let t = 0; t < turns; t++) await turn();
  }
  return Promise.all(results);
}

describe('Batcher waiting for arrivals', () => {
  it('runs one turn after an item when no connection arrives', async () => {
    const { batcher, batches } = recording(true);
    const first = batcher.add(1);
    await turn();
    await turn();
    expect(await first).toBe(2);
    expect(batches.length).toBe(1);
  });

  it('gathers what arrives while connections are still being accepted, for at most the wait', async () => {
    const { batcher, batches } = recording(true);
    // A connection accepted and a call made on every turn.
    expect(await callsAsConnectionsArrive(batcher, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 1)).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(batches).toEqual([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]]);

    // Connections that keep arriving hold a batch back no longer than the wait.
    batches.length = 0;
    const held = batcher.add(100);
    const waited = performance.now();
    while (batches.length === 0) {
      arrivals.mark();
      await turn();
    }
    expect(await held).toBe(200);
    expect(performance.now() - waited).toBeGreaterThanOrEqual(ARRIVALS_WAIT_MS - 1);
    expect(performance.now() - waited).toBeLessThan(ARRIVALS_WAIT_MS + 50);
  });

  it('does not wait when it is not asked to', async () => {
    const { batcher, batches } = recording(false);
    await callsAsConnectionsArrive(batcher, [0, 1, 2], 2);
    expect(batches).toEqual([[0], [1], [2]]);
  });
});
