import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createDataset,
  encodePageToken,
  type RunningSimulator,
  startSimulator,
} from "../../src/sim/index.js";
import { listPage, must, scan } from "./helpers.js";

/**
 * created_at can tie on the real API. With `tieShare`, calls share a created_at with
 * the call before them, and the listing orders ties by id, as a (created_at, id) keyset must.
 */
const OPTIONS = { seed: 11, calls: 3000, users: 2, tieShare: 0.3 };
const dataset = createDataset(OPTIONS);
const now = dataset.initialNow;
const created = dataset.countCreated(now);

interface Key {
  createdUs: number;
  id: string;
}
const byKey = (a: Key, b: Key) => a.createdUs - b.createdUs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** User u's listing built without the dataset's paging: every visible call, sorted by (created_at, id). */
function expectedListing(u: number): Key[] {
  const keys: Key[] = [];
  for (let i = 0; i < created; i++) {
    if (dataset.userIndexOf(i) === u && dataset.isVisible(i, now))
      keys.push({ createdUs: dataset.createdAt(i), id: dataset.idOf(i) });
  }
  return keys.sort(byKey);
}

const expected = [expectedListing(0), expectedListing(1)];
/** Positions k in user 0's listing where item k ties with item k - 1. */
const tiePositions = must(expected[0])
  .map((key, k, all) => (k > 0 && all[k - 1]?.createdUs === key.createdUs ? k : -1))
  .filter((k) => k > 0);

describe("the tie model", () => {
  test("about tieShare of the calls tie with the previous one, in groups of at most 4 of one user", () => {
    let ties = 0;
    let run = 1;
    for (let i = 1; i < created; i++) {
      expect(dataset.createdAt(i)).toBeGreaterThanOrEqual(dataset.createdAt(i - 1));
      if (dataset.createdAt(i) !== dataset.createdAt(i - 1)) {
        run = 1;
        continue;
      }
      ties++;
      run++;
      expect(run).toBeLessThanOrEqual(4);
      expect(dataset.userIndexOf(i)).toBe(dataset.userIndexOf(i - 1));
    }
    expect(ties / created).toBeGreaterThan(0.2);
    expect(ties / created).toBeLessThan(0.35);
    expect(tiePositions.length).toBeGreaterThan(200);
  });

  test("the share must be between 0 and 0.5", () => {
    expect(() => createDataset({ ...OPTIONS, tieShare: 0.6 })).toThrow(RangeError);
    expect(() => createDataset({ ...OPTIONS, tieShare: -0.1 })).toThrow(RangeError);
  });
});

describe("pages over ties", () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator(OPTIONS);
  });
  afterAll(() => sim.close());

  const ids = (u: number) => must(expected[u]).map((k) => k.id);

  test.each([2, 3, 5, 7, 100, 10_000])(
    "ascending at limit %i lists every call once, ties by id",
    async (limit) => {
      for (const u of [0, 1]) {
        const { items } = await scan(sim, must(sim.users[u]).token, { limit });
        expect(items.map((i) => i.id)).toEqual(ids(u));
      }
    },
  );

  test.each([3, 7])("descending at limit %i is the exact reverse", async (limit) => {
    const { items } = await scan(sim, must(sim.users[0]).token, { limit, order: "created_at_descending" });
    expect(items.map((i) => i.id)).toEqual([...ids(0)].reverse());
  });

  test("a page that ends inside a tie group resumes at the next call of the group, both ways", async () => {
    const token = must(sim.users[0]).token;
    const listing = must(expected[0]);
    expect(tiePositions.length).toBeGreaterThan(20);
    for (const k of tiePositions.slice(0, 20)) {
      // A limit that puts the tie exactly on the page boundary: page 1 ends at k - 1.
      const first = await listPage(sim, token, `limit=${k}&sort_by=created_at_ascending`);
      expect(first.items.at(-1)?.id).toBe(listing[k - 1]?.id);
      const next = await listPage(sim, token, `limit=2&page_token=${first.next_page}`);
      expect(next.items.map((i) => i.id)).toEqual(listing.slice(k, k + 2).map((c) => c.id));
      // Descending, the page ends at k and the next one starts at k - 1.
      const tail = listing.length - k;
      const down = await listPage(sim, token, `limit=${tail}&sort_by=created_at_descending`);
      expect(down.items.at(-1)?.id).toBe(listing[k]?.id);
      const below = await listPage(sim, token, `limit=1&page_token=${down.next_page}`);
      expect(below.items.map((i) => i.id)).toEqual([listing[k - 1]?.id]);
    }
  });

  test("a token naming a tied created_at with any id resumes exactly after that (created_at, id)", async () => {
    const token = must(sim.users[0]).token;
    const listing = must(expected[0]);
    const k = must(tiePositions[5]);
    const tied = must(listing[k]);
    const createdAt = must(
      (await listPage(sim, token, `limit=${k + 1}&sort_by=created_at_ascending`)).items.at(-1),
    ).created_at;
    // The smallest and the largest possible id at that instant: before and after the whole group.
    for (const [id, expectFrom] of [
      ["00000000-0000-4000-8000-000000000000", listing.findIndex((c) => c.createdUs === tied.createdUs)],
      [
        "ffffffff-ffff-4fff-bfff-ffffffffffff",
        listing.findLastIndex((c) => c.createdUs === tied.createdUs) + 1,
      ],
    ] as const) {
      const page = await listPage(
        sim,
        token,
        `limit=3&page_token=${encodePageToken("created_at_ascending", createdAt, id)}`,
      );
      expect(page.items.map((i) => i.id)).toEqual(listing.slice(expectFrom, expectFrom + 3).map((c) => c.id));
    }
  });
});
