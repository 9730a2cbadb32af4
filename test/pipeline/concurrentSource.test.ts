import { expect, test } from "vitest";
import { AdaptiveConcurrency } from "../../src/extract/adaptiveConcurrency.js";
import { fetchConcurrently } from "../../src/extract/fetchConcurrently.js";
import { SerialQueue } from "../../src/sources/operations/serialQueue.js";
import { type CommitCounts, runSource, type Source } from "../../src/sources/runSource.js";

/**
 * A source shaped as the operations one: ids read in chunks from the store, fetched concurrently,
 * committed to the same store. The store is in memory; it notes when a read and a commit overlap,
 * which must not happen (they share one connection in the warehouse).
 */
function concurrentSource(options: {
  count: number;
  signal: AbortSignal;
  fetch?: (item: number) => Promise<number>;
  /** Called in each commit, before it stores. */
  onCommit?: () => void;
}) {
  const store = { committed: [] as number[], commits: 0, busy: false, overlapped: false, started: 0 };
  const useStore = async <V>(work: () => V): Promise<V> => {
    if (store.busy) store.overlapped = true;
    store.busy = true;
    await tick();
    store.busy = false;
    return work();
  };
  const connection = new SerialQueue();
  let next = 0;
  const readChunk = () =>
    useStore(() => {
      const chunk = Array.from({ length: Math.min(7, options.count - next) }, (_, i) => next + i);
      next += chunk.length;
      return chunk;
    });
  const source: Source<number[], number[]> & { drainsOnStop: boolean } = {
    name: "numbers fetched",
    drainsOnStop: true,
    pages: () =>
      fetchConcurrently<number, number>({
        nextChunk: () => connection.run(readChunk),
        fetch: async (item) => {
          store.started += 1;
          await tick();
          return options.fetch === undefined ? item : options.fetch(item);
        },
        controller: new AdaptiveConcurrency({ start: 4, cap: 4 }),
        signal: options.signal,
      }),
    newBatch: () => [],
    async take(batch, answers) {
      batch.push(...answers);
      return { records: answers.length, rejected: 0 };
    },
    size: (batch) => batch.length,
    async commit(batch): Promise<CommitCounts> {
      options.onCommit?.();
      await connection.run(() =>
        useStore(() => {
          store.committed.push(...batch);
          store.commits += 1;
        }),
      );
      return { inserted: batch.length, updated: 0, refused: 0 };
    },
    async complete() {},
  };
  return { source, store };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const sorted = (items: number[]) => [...items].sort((a, b) => a - b);

test("every answer is committed once, in several commits; reads and commits take turns", async () => {
  const { source, store } = concurrentSource({ count: 300, signal: new AbortController().signal });
  const run = await runSource(source, { batchRecords: 20, signal: new AbortController().signal });
  expect(run.ended).toBe("complete");
  expect(run.counts.seen).toBe(300);
  expect(sorted(store.committed)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  expect(store.commits).toBeGreaterThan(1);
  expect(store.overlapped).toBe(false);
});

test("a failed fetch: the answers in flight are committed and the run fails with the error", async () => {
  const { source, store } = concurrentSource({
    count: 1000,
    signal: new AbortController().signal,
    fetch: async (item) => {
      if (item === 50) throw new Error("API down");
      return item;
    },
  });
  const run = await runSource(source, { batchRecords: 20, signal: new AbortController().signal });
  expect(run).toMatchObject({ ended: "failed", failure: new Error("API down") });
  expect(store.started).toBeLessThan(50 + 1 + 4);
  expect(store.committed).toHaveLength(store.started - 1);
  expect(store.committed).not.toContain(50);
});

test("a stop during a commit: the run ends stopped once every answer in flight is committed", async () => {
  const stop = new AbortController();
  const { source, store } = concurrentSource({
    count: 1000,
    signal: stop.signal,
    // While the first commit runs, the next batch fills and requests are in flight.
    onCommit: () => stop.abort(),
  });
  const run = await runSource(source, { batchRecords: 20, signal: stop.signal });
  expect(run.ended).toBe("stopped");
  expect(store.started).toBeLessThan(1000);
  // Every request that went out has its answer committed, those in flight at the stop too.
  expect(sorted(store.committed)).toEqual(Array.from({ length: store.started }, (_, i) => i));
});
