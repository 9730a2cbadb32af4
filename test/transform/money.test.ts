import { describe, expect, test } from "vitest";
import { storedPrice } from "../../src/transform/money.js";

describe("storedPrice", () => {
  test.each<[string, string, string | null, string | null]>([
    ["30.11", "30.11", null, null],
    ["0.30000000000000004", "0.3", "0.30000000000000004", "rounded"],
    ["0.0000005", "0", "0.0000005", "rounded"],
    ["0.0000015", "0.000002", "0.0000015", "rounded"],
    ["0.0000025", "0.000002", "0.0000025", "rounded"],
    ["0.00000250001", "0.000003", "0.00000250001", "rounded"],
    ["999999999999.9999994", "999999999999.999999", "999999999999.9999994", "rounded"],
    ["-0.5", "-0.5", null, "negative"],
    ["-0.0000015", "-0.000002", "-0.0000015", "negative,rounded"],
    ["-0.0000001", "0", "-0.0000001", "negative,rounded"],
    ["1234567.1234567", "1234567.123457", "1234567.1234567", "rounded"],
  ])("%s is stored as %s (raw %s, flags %s)", (decimal, usd, raw, flags) => {
    expect(storedPrice(decimal, Number.MAX_VALUE)).toEqual({ ok: true, price: { usd, raw, flags } });
  });

  test.each<[string, RegExp]>([
    ["1000000000000", /more than 12 integer digits/],
    ["999999999999.9999995", /more than 12 integer digits/],
    ["1000001", /above the per-call sanity limit of 1000000 USD/],
    ["-1000001", /below the per-call sanity limit of -1000000 USD/],
  ])("%s cannot be stored", (decimal, problem) => {
    const result = storedPrice(decimal, 1_000_000);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(problem);
  });
});
