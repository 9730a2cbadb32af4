import { expect, test } from "vitest";
import { type CallKey, CursorGuard } from "../../src/sources/calls/cursorGuard.js";

const call = (id: string, second: number, zone = "Z"): CallKey => ({
  id,
  created_at: `2026-10-01T00:00:${String(second).padStart(2, "0")}${zone}`,
});

/** The guard's verdict on each page in turn (undefined: accepted). */
function verdicts(pages: CallKey[][]): (string | undefined)[] {
  const guard = new CursorGuard();
  return pages.map((calls) => {
    const problem = guard.check(calls);
    if (problem === undefined) guard.accept(calls);
    return problem;
  });
}

test.each([
  ["pages that move forward", [[call("a", 1), call("b", 2)], [call("c", 3)]], [undefined, undefined]],
  [
    "a tie across the boundary, new ids",
    [
      [call("a", 1), call("b", 2)],
      [call("c", 2), call("d", 2)],
    ],
    [undefined, undefined],
  ],
  [
    "empty pages and pages of rejects",
    [[call("a", 1)], [], [call("b", 1)]],
    [undefined, undefined, undefined],
  ],
  [
    "a call out of order inside a page that moves forward",
    [[call("a", 5)], [call("b", 6), call("c", 1)]],
    [undefined, undefined],
  ],
  ["an offset compared as an instant", [[call("a", 30)], [call("b", 30, "+00:00")]], [undefined, undefined]],
])("%s: accepted", (_, pages, expected) => {
  expect(verdicts(pages)).toEqual(expected);
});

test.each([
  [
    "a page that starts before the newest call",
    [
      [call("a", 1), call("b", 5)],
      [call("c", 4), call("d", 9)],
    ],
    /cursor went back: page 2 .* call c/,
  ],
  [
    "the same page again",
    [
      [call("a", 1), call("b", 2)],
      [call("a", 1), call("b", 2)],
    ],
    /cursor went back/,
  ],
  [
    "only ids of the boundary instant already read",
    [
      [call("a", 2), call("b", 2)],
      [call("b", 2), call("a", 2)],
    ],
    /page 2 .* brings no call it has not already read/,
  ],
  [
    "the last call again, then older ones",
    [
      [call("a", 1), call("b", 2)],
      [call("b", 2), call("a", 1)],
    ],
    /brings no call/,
  ],
])("%s: an anomaly", (_, pages, expected) => {
  const result = verdicts(pages);
  expect(result.slice(0, -1).every((verdict) => verdict === undefined)).toBe(true);
  expect(result.at(-1)).toMatch(expected);
});
