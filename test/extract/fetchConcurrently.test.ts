import { describe, expect, test } from "vitest";
import { AdaptiveConcurrency } from "../../src/extract/adaptiveConcurrency.js";
import { fetchConcurrently } from "../../src/extract/fetchConcurrently.js";

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
const range = (count: number) => Array.from({ length: count }, (_, i) => i);
const sorted = (items: number[]) => [...items].sort((a, b) => a - b);

/** A promise and the function that resolves it. */
function latch() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("fetchConcurrently", () => {
  test("hands out every item's result once, in groups, never above the limit", async () => {
    const controller = new AdaptiveConcurrency({ start: 3, cap: 5 });
    let inFlight = 0;
    let maxSeen = 0;
    const received: number[] = [];
    let groups = 0;
    for await (const group of fetchConcurrently<number, number>({
      nextChunk: chunks(250, 40),
      fetch: async (item) => {
        inFlight += 1;
        maxSeen = Math.max(maxSeen, inFlight);
        expect(inFlight).toBeLessThanOrEqual(controller.limit);
        await tick();
        inFlight -= 1;
        return item;
      },
      controller,
      signal: new AbortController().signal,
    })) {
      expect(group.length).toBeGreaterThan(0);
      groups += 1;
      received.push(...group);
    }
    expect(sorted(received)).toEqual(range(250));
    expect(groups).toBeGreaterThan(1);
    expect(maxSeen).toBeGreaterThan(1);
    expect(maxSeen).toBeLessThanOrEqual(5);
  });

  test("no barrier: requests and chunk reads go on while the consumer holds a group", async () => {
    const controller = new AdaptiveConcurrency({ start: 3, cap: 3 });
    const manyStarted = latch();
    let started = 0;
    const received: number[] = [];
    for await (const group of fetchConcurrently<number, number>({
      // Chunks of 4: reaching 20 started needs five chunks read while the consumer waits.
      nextChunk: chunks(40, 4),
      fetch: async (item) => {
        started += 1;
        if (started === 20) manyStarted.open();
        await tick();
        return item;
      },
      controller,
      signal: new AbortController().signal,
    })) {
      // The first group is held (as a slow commit would) until 20 requests have gone out.
      if (received.length === 0) await manyStarted.opened;
      received.push(...group);
    }
    expect(sorted(received)).toEqual(range(40));
  });

  test("a failed fetch stops new ones; the results in flight come before the error", async () => {
    const controller = new AdaptiveConcurrency({ start: 4, cap: 4 });
    const started: number[] = [];
    const received: number[] = [];
    let reading = false;
    const read = chunks(1000, 10);
    const consume = async () => {
      for await (const group of fetchConcurrently<number, number>({
        nextChunk: async () => {
          reading = true;
          await tick();
          reading = false;
          return read();
        },
        fetch: async (item) => {
          started.push(item);
          await tick();
          if (item === 20) throw new Error("API down");
          return item;
        },
        controller,
        signal: new AbortController().signal,
      })) {
        received.push(...group);
      }
    };
    await expect(consume()).rejects.toThrow("API down");
    // Nothing started after the failure was seen, beyond those already in flight.
    expect(Math.max(...started)).toBeLessThan(20 + 4);
    expect(sorted(received)).toEqual(sorted(started.filter((item) => item !== 20)));
    // The chunk read ahead has ended too: nothing reads once the fetch has ended.
    expect(reading).toBe(false);
  });

  test("an abort stops taking items; every result fetched is handed out and the fetch ends", async () => {
    const controller = new AdaptiveConcurrency({ start: 2, cap: 2 });
    const stop = new AbortController();
    const received: number[] = [];
    let fetched = 0;
    for await (const group of fetchConcurrently<number, number>({
      nextChunk: chunks(1000, 50),
      fetch: async (item) => {
        fetched += 1;
        if (fetched === 10) stop.abort();
        await tick();
        return item;
      },
      controller,
      signal: stop.signal,
    })) {
      received.push(...group);
    }
    expect(fetched).toBeLessThan(13);
    expect(received).toHaveLength(fetched);
  });

  test("a consumer that leaves starts no new request and waits for those in flight", async () => {
    const controller = new AdaptiveConcurrency({ start: 3, cap: 3 });
    let started = 0;
    let inFlight = 0;
    for await (const _group of fetchConcurrently<number, number>({
      nextChunk: chunks(1000, 50),
      fetch: async (item) => {
        started += 1;
        inFlight += 1;
        await tick();
        inFlight -= 1;
        return item;
      },
      controller,
      signal: new AbortController().signal,
    })) {
      break;
    }
    const startedWhenLeft = started;
    expect(inFlight).toBe(0);
    await tick();
    await tick();
    expect(started).toBe(startedWhenLeft);
    expect(started).toBeLessThan(1000);
  });

  test("a refusal reported by a fetch halves the limit", async () => {
    const controller = new AdaptiveConcurrency({ start: 8, cap: 8 });
    for await (const _group of fetchConcurrently<number, number>({
      nextChunk: chunks(3, 10),
      fetch: async (item, refused) => {
        if (item === 0) refused();
        return item;
      },
      controller,
      signal: new AbortController().signal,
    })) {
      // Drained.
    }
    expect(controller.limit).toBe(4);
  });
});
