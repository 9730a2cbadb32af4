import { describe, expect, test } from "vitest";
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  parseRetryAfterMs,
  RetryBudget,
} from "../../src/api/retryPolicy.js";

describe("parseRetryAfterMs", () => {
  const now = Date.parse("2026-11-01T00:00:00Z");
  test.each([
    ["3", 3000],
    [" 0 ", 0],
    ["120", 120_000],
    ["Sun, 01 Nov 2026 00:00:05 GMT", 5000],
    ["Sat, 31 Oct 2026 23:59:00 GMT", 0],
  ])("%j -> %d ms", (header, expected) => {
    expect(parseRetryAfterMs(header, now)).toBe(expected);
  });

  test.each([[undefined], ["soon"], ["-5"], ["1.5"]])("%j is not a usable delay", (header) => {
    expect(parseRetryAfterMs(header, now)).toBeUndefined();
  });
});

describe("backoffDelayMs", () => {
  const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
  test.each([
    [1, 100],
    [2, 200],
    [3, 400],
    [4, 800],
    [5, 1000],
    [30, 1000],
  ])("attempt %d never waits more than %d ms", (attempt, ceiling) => {
    expect(backoffDelayMs(policy, attempt, () => 0.999_999)).toBeLessThanOrEqual(ceiling);
    expect(backoffDelayMs(policy, attempt, () => 0.999_999)).toBeGreaterThan(ceiling * 0.99);
    expect(backoffDelayMs(policy, attempt, () => 0)).toBe(0);
  });
});

test("RetryBudget refuses a wait that would pass the run's total", () => {
  let now = 0;
  const budget = new RetryBudget({ ...DEFAULT_RETRY_POLICY, maxTotalWaitMs: 1000 }, () => now);
  expect(budget.canWait(600)).toBe(true);
  budget.record(600);
  now = 600;
  expect(budget.canWait(400)).toBe(true);
  expect(budget.canWait(401)).toBe(false);
  expect(budget.totalRetries).toBe(1);
  expect(budget.totalWaitedMs).toBe(600);
});

test("RetryBudget counts waits that overlap in wall time once", () => {
  let now = 0;
  const budget = new RetryBudget({ ...DEFAULT_RETRY_POLICY, maxTotalWaitMs: 1000 }, () => now);
  // Eight concurrent requests each wait 500 ms from (nearly) the same moment: 510 ms of waiting.
  for (let i = 0; i < 8; i++) {
    expect(budget.canWait(500)).toBe(true);
    budget.record(500);
    now += i === 7 ? 0 : 1;
  }
  expect(budget.totalWaitedMs).toBe(507);
  expect(budget.totalRetries).toBe(8);
  // After the waits end, a new one adds its whole length.
  now = 2000;
  expect(budget.canWait(493)).toBe(true);
  expect(budget.canWait(494)).toBe(false);
  // A wait starting while another is still running adds only what reaches past it.
  budget.record(400);
  now = 2200;
  expect(budget.canWait(293)).toBe(true);
  expect(budget.canWait(294)).toBe(false);
});
