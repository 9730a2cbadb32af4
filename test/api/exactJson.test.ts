import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { hasInexactDuration, itemsWithExactDurations } from "../../src/api/exactJson.js";

describe("itemsWithExactDurations", () => {
  test("keeps the digits of int64 durations beyond 2^53, and only of durations", () => {
    const text =
      '{"items":[{"duration":9223372036854775807,"minutes":9007199254740993},{"duration":-9007199254740993},{"duration":12},{"duration":1e300}],"next_page":null}';
    const items = itemsWithExactDurations(text) as Record<string, unknown>[];
    expect(items.map((item) => item.duration)).toEqual([9223372036854775807n, -9007199254740993n, 12, 1e300]);
    expect(items[0]?.minutes).toBe(9007199254740992);
  });

  test("a key named __proto__ stays a key, and the last of duplicate keys wins, as in JSON.parse", () => {
    const text = '{"items":[{"__proto__":{"a":1},"x":1,"x":2}]}';
    expect(itemsWithExactDurations(text)).toEqual(JSON.parse(text).items);
    expect(Object.keys((itemsWithExactDurations(text)[0] ?? {}) as object)).toEqual(["__proto__", "x"]);
  });

  test("reads any JSON page as JSON.parse does when no duration needs it", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.boolean(), (items, spaced) => {
        const text = JSON.stringify({ items, next_page: null }, null, spaced ? 2 : undefined);
        expect(itemsWithExactDurations(text)).toEqual(JSON.parse(text).items);
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  test("says which pages need it", () => {
    expect(hasInexactDuration(JSON.parse('[{"duration":9007199254740993}]'))).toBe(true);
    expect(hasInexactDuration(JSON.parse('[{"duration":9007199254740991},{"minutes":1e20},null]'))).toBe(
      false,
    );
  });
});
