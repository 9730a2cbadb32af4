import { describe, expect, test } from "vitest";
import { isoTime } from "../../src/log/isoTime.js";
import { groupDigits, usdText } from "../../src/log/usdText.js";

describe("the one instant format", () => {
  test("a JS instant prints with microseconds and Z, as DuckDB's strftime prints a stored one", () => {
    expect(isoTime(new Date("2026-10-07T00:00:00Z"))).toBe("2026-10-07T00:00:00.000000Z");
    expect(isoTime(new Date("2026-10-19T21:10:16.416Z"))).toBe("2026-10-19T21:10:16.416000Z");
  });
});

describe("the one USD format", () => {
  test.each([
    ["54207.687837", "54,207.687837 USD"],
    ["0.000000", "0.000000 USD"],
    ["1234567.5", "1,234,567.500000 USD"],
    ["12", "12.000000 USD"],
    ["-1000.000001", "-1,000.000001 USD"],
    // More than 6 places is kept: an exact value is never cut.
    ["0.30000000000000004", "0.30000000000000004 USD"],
  ])("%s prints as %s", (decimal, text) => {
    expect(usdText(decimal)).toBe(text);
  });

  test("grouping changes no digit", () => {
    expect(groupDigits("116634.921986").replaceAll(",", "")).toBe("116634.921986");
  });
});
