import { expect, test } from "vitest";
import { isRfc3339DateTime } from "../../src/api/schemas/primitives.js";
import { FutureCalls } from "../../src/sources/calls/futureCalls.js";

const NOW = new Date("2026-11-23T12:00:00Z");

test.each([
  ["weeks before the clock", "2026-10-01T00:00:00Z", "2026-10-01T00:00:00Z"],
  ["the day before, with an offset", "2026-11-22T23:30:00-08:00", "2026-11-22T23:30:00-08:00"],
  ["within the day of tolerance", "2026-11-24T11:59:59.999999Z", "2026-11-24T11:59:59.999999Z"],
  ["just past the tolerance", "2026-11-24T12:00:00.000001Z", NOW.toISOString()],
  ["past it by an offset only", "2026-11-24T12:30:00-01:00", NOW.toISOString()],
  ["in year 9999", "9999-12-31T23:59:59Z", NOW.toISOString()],
])("%s: the checkpoint notes %s as %s", (_, createdAt, noted) => {
  expect(new FutureCalls(NOW).checkpointTime("id", createdAt)).toBe(noted);
});

test("one warning counts the calls beyond the clock and names the first", () => {
  const future = new FutureCalls(NOW);
  expect(future.warning()).toBeUndefined();
  future.checkpointTime("a", "2026-10-01T00:00:00Z");
  future.checkpointTime("b", "2030-01-01T00:00:00Z");
  future.checkpointTime("c", "9999-12-31T23:59:59Z");
  expect(future.warning()).toMatch(/^2 call\(s\) .* \(first: b created at 2030-01-01T00:00:00Z\)/);
});

test.each([
  ["9999-12-31T23:59:59Z", false],
  ["9999-12-31T18:59:59.999999-05:00", false],
  ["9999-12-31T19:00:00-05:00", true],
  ["9999-12-31T23:59:59-05:00", true],
  ["9999-12-30T23:59:59-23:59", false],
  ["2026-10-01T00:00:00Z", false],
])("%s beyond year 9999 UTC: %s, and the validator refuses it then", (createdAt, beyond) => {
  expect(isRfc3339DateTime(createdAt)).toBe(!beyond);
});
