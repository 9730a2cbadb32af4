import { expect, test } from "vitest";
import { type CommitCounts, type PageCounts, runSource, type Source } from "../../src/sources/runSource.js";

/**
 * The runner's commit-with-checkpoint rule, on a source whose warehouse is an array: each commit
 * stores the batch's records and the position they reach together, as one step.
 */
interface Page {
  records: number[];
  /** Where the next run starts after this page. */
  next: string | null;
}
interface Batch {
  records: number[];
  position: string | null;
}

function arraySource(pages: readonly (Page | Error)[], options: { stopWith?: Error } = {}) {
  const store = { records: [] as number[], position: "start" as string | null, completed: false };
  const source: Source<Page, Batch> = {
    name: "numbers",
    async *pages() {
      for (const page of pages) {
        if (page instanceof Error) throw page;
        yield page;
      }
    },
    newBatch: (previous) => ({ records: [], position: previous?.position ?? store.position }),
    async take(batch, page): Promise<PageCounts> {
      if (page.records.some((record) => record < 0)) throw options.stopWith ?? new Error("negative");
      batch.records.push(...page.records);
      batch.position = page.next;
      return { records: page.records.length, rejected: 0 };
    },
    size: (batch) => batch.records.length,
    async commit(batch): Promise<CommitCounts> {
      store.records.push(...batch.records);
      store.position = batch.position;
      return { inserted: batch.records.length, updated: 0, refused: 0 };
    },
    stopAt(batch, error) {
      if (error !== options.stopWith) return false;
      batch.position = "before the bad page";
      return true;
    },
    async complete() {
      store.completed = true;
    },
  };
  return { source, store };
}

const run = (source: Source<Page, Batch>, signal = new AbortController().signal) =>
  runSource(source, { batchRecords: 2, signal });

test("every page is committed with the position after it, then the source completes", async () => {
  const { source, store } = arraySource([
    { records: [1, 2], next: "p1" },
    { records: [3], next: "p2" },
    { records: [], next: null },
  ]);
  const result = await run(source);
  expect(result).toEqual({
    counts: { pages: 3, seen: 3, inserted: 3, updated: 0, rejected: 0 },
    ended: "complete",
  });
  expect(store).toEqual({ records: [1, 2, 3], position: null, completed: true });
});

test("a failure after some pages: what was taken is committed with its position, not completed", async () => {
  const failure = new Error("the API went away");
  const { source, store } = arraySource([{ records: [1], next: "p1" }, failure]);
  const result = await run(source);
  expect(result).toMatchObject({ ended: "failed", failure, counts: { pages: 1, inserted: 1 } });
  expect(store).toEqual({ records: [1], position: "p1", completed: false });
});

test("a page that cannot be taken: the position the source names is committed, even with no record", async () => {
  const stop = new Error("cursor went back");
  const { source, store } = arraySource(
    [
      { records: [1, 2], next: "p1" },
      { records: [-1], next: "p2" },
    ],
    { stopWith: stop },
  );
  const result = await run(source);
  expect(result).toMatchObject({ ended: "failed", failure: stop });
  expect(store).toEqual({ records: [1, 2], position: "before the bad page", completed: false });
});

test("a stop signal: the batch in hand is committed and the run ends stopped, not completed", async () => {
  const controller = new AbortController();
  const { source, store } = arraySource([
    { records: [1], next: "p1" },
    { records: [2], next: "p2" },
  ]);
  const taking = source.take.bind(source);
  source.take = async (batch, page) => {
    const counts = await taking(batch, page);
    controller.abort();
    return counts;
  };
  const result = await run(source, controller.signal);
  expect(result.ended).toBe("stopped");
  expect(store).toEqual({ records: [1], position: "p1", completed: false });
});
