import { describe, expect, test } from "vitest";
import { AdaptiveConcurrency } from "../../src/extract/adaptiveConcurrency.js";
import { pipelinedFetch } from "../../src/extract/pipelinedFetch.js";

/** Items 0..count-1 in chunks of `size`, read in order. */
function chunks(count: number, size: number) {
  let next = 0;
  return async () => {
    const chunk = Array.from({ length: Math.min(size, count - next) }, (_, i) => next + i);
    next += chunk.length;
    return chunk;
  };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("pipelinedFetch", () => {
  test("fetches every item once, commits each once, never above the limit, reads and commits in turn", async () => {
    const controller = new AdaptiveConcurrency({ start: 3, cap: 5 });
    let inFlight = 0;
    let maxSeen = 0;
    let dbBusy = false;
    let overlapped = false;
    const committed: number[] = [];
    const read = chunks(250, 40);
    await pipelinedFetch<number, number>({
      nextChunk: async () => {
        if (dbBusy) overlapped = true;
        dbBusy = true;
        await tick();
        dbBusy = false;
        return read();
      },
      fetch: async (item) => {
        inFlight += 1;
        maxSeen = Math.max(maxSeen, inFlight);
        expect(inFlight).toBeLessThanOrEqual(controller.limit);
        await tick();
        inFlight -= 1;
        return item;
      },
      commit: async (batch) => {
        if (dbBusy) overlapped = true;
        dbBusy = true;
        await tick();
        committed.push(...batch);
        dbBusy = false;
      },
      controller,
      signal: new AbortController().signal,
      commitSize: 30,
    });
    expect([...committed].sort((a, b) => a - b)).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(overlapped).toBe(false);
    expect(maxSeen).toBeGreaterThan(1);
    expect(maxSeen).toBeLessThanOrEqual(5);
  });

  test("a failed fetch stops new ones; what was fetched is committed; the error is thrown", async () => {
    const controller = new AdaptiveConcurrency({ start: 4, cap: 4 });
    const started: number[] = [];
    const committed: number[] = [];
    const run = pipelinedFetch<number, number>({
      nextChunk: chunks(1000, 100),
      fetch: async (item) => {
        started.push(item);
        await tick();
        if (item === 20) throw new Error("API down");
        return item;
      },
      commit: async (batch) => {
        committed.push(...batch);
      },
      controller,
      signal: new AbortController().signal,
      commitSize: 8,
    });
    await expect(run).rejects.toThrow("API down");
    // Nothing started after the failure was seen, beyond those already in flight.
    expect(Math.max(...started)).toBeLessThan(20 + 4);
    expect(committed.sort((a, b) => a - b)).toEqual(
      started.filter((item) => item !== 20).sort((a, b) => a - b),
    );
  });

  test("an abort stops taking items and keeps what was fetched", async () => {
    const controller = new AdaptiveConcurrency({ start: 2, cap: 2 });
    const stop = new AbortController();
    const committed: number[] = [];
    let fetched = 0;
    await pipelinedFetch<number, number>({
      nextChunk: chunks(1000, 50),
      fetch: async (item) => {
        fetched += 1;
        if (fetched === 10) stop.abort();
        await tick();
        return item;
      },
      commit: async (batch) => {
        committed.push(...batch);
      },
      controller,
      signal: stop.signal,
      commitSize: 4,
    });
    expect(fetched).toBeLessThan(13);
    expect(committed).toHaveLength(fetched);
  });

  test("a refusal reported by a fetch halves the limit", async () => {
    const controller = new AdaptiveConcurrency({ start: 8, cap: 8 });
    await pipelinedFetch<number, number>({
      nextChunk: chunks(3, 10),
      fetch: async (item, refused) => {
        if (item === 0) refused();
        return item;
      },
      commit: async () => undefined,
      controller,
      signal: new AbortController().signal,
      commitSize: 10,
    });
    expect(controller.limit).toBe(4);
  });
});
