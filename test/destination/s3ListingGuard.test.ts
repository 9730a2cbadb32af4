import { describe, expect, test } from "vitest";
import { ListingGuard, S3ListingAnomaly } from "../../src/destination/s3ListingGuard.js";

const LISTING = "s3://zoo-data/usage/api_calls/";

/** Feeds pages to a guard until it ends the listing or stops it; returns the pages taken and why it ended. */
function follow(pages: ReadonlyArray<{ keys: string[]; truncated: boolean; next?: string }>) {
  const guard = new ListingGuard(LISTING);
  let taken = 0;
  try {
    for (const { keys, truncated, next } of pages) {
      taken += 1;
      if (guard.page(keys, truncated, next) === undefined)
        return { taken, keys: guard.seen, error: undefined };
    }
  } catch (error) {
    return { taken, keys: guard.seen, error: error as S3ListingAnomaly };
  }
  throw new Error("the pages ran out before the listing ended");
}

describe("a store's paged listing is followed only while it advances", () => {
  test("a listing that advances is read to its end, each key once", () => {
    const result = follow([
      { keys: ["a", "b"], truncated: true, next: "t1" },
      { keys: [], truncated: true, next: "t2" },
      { keys: ["b", "c"], truncated: false },
    ]);
    expect(result.error).toBeUndefined();
    expect(result.keys).toEqual(["a", "b", "c"]);
  });

  test.each([
    [
      "a token handed out twice",
      [
        { keys: ["a"], truncated: true, next: "t1" },
        { keys: ["b"], truncated: true, next: "t1" },
      ],
      2,
      /continuation token of page 2 was handed out before/,
    ],
    [
      "pages that bring no new key while claiming more",
      [
        { keys: ["a"], truncated: true, next: "t1" },
        { keys: ["a"], truncated: true, next: "t2" },
        { keys: [], truncated: true, next: "t3" },
        { keys: ["a"], truncated: true, next: "t4" },
      ],
      4,
      /3 pages in a row brought no new key/,
    ],
    [
      "a page that claims more without a token",
      [{ keys: ["a"], truncated: true }],
      1,
      /no continuation token/,
    ],
  ])("%s: stopped as an anomaly naming the prefix (exit 4)", (_, pages, taken, reason) => {
    const result = follow(pages);
    expect(result.taken).toBe(taken);
    expect(result.error).toBeInstanceOf(S3ListingAnomaly);
    expect(result.error?.code).toBe("output.s3_listing_anomaly");
    expect(result.error?.exitCode).toBe(4);
    expect(result.error?.message).toContain(LISTING);
    expect(result.error?.message).toMatch(reason);
  });

  test("a store that hands out new tokens and new keys forever is stopped at 10,000 pages", () => {
    const guard = new ListingGuard(LISTING);
    let pages = 0;
    expect(() => {
      for (;;) {
        pages += 1;
        guard.page([`k${pages}`], true, `t${pages}`);
      }
    }).toThrow(/more than 10000 pages/);
    expect(pages).toBe(10_000);
  });
});
