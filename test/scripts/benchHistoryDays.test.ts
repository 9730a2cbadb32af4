import { expect, test } from "vitest";
// @ts-expect-error: a plain ES module of the benchmark, without types.
import { historyDaysForSameRecentVolume } from "../../bench/lib/historyDays.mjs";
import { US_PER_DAY } from "../../src/sim/time.js";
import { Timeline } from "../../src/sim/timeline.js";

/** Calls the simulator's seasonal timeline puts in the last `windowDays` before `nowUs`. */
function recentCalls(calls: number, days: number, windowDays: number): number {
  const nowUs = Date.parse("2026-11-26T00:00:00Z") * 1000;
  const timeline = new Timeline(1, nowUs, days, calls, 0, 0, { seasonal: true });
  return calls - timeline.countCreatedBy(nowUs - windowDays * US_PER_DAY);
}

test("the benchmark's history lengths give every size the reference's calls in the last 35 days", () => {
  const reference = recentCalls(200_000, 90, 35);
  expect(historyDaysForSameRecentVolume(200_000, 35)).toBe(90);
  for (const calls of [500_000, 1_000_000]) {
    const days = historyDaysForSameRecentVolume(calls, 35);
    // The histories end on one day, so they share its weekdays and draws: the trend's slope differs.
    expect(Math.abs(recentCalls(calls, days, 35) / reference - 1), `${calls} calls`).toBeLessThan(0.03);
  }
  // What it corrects: the same average daily volume over a longer history is busier at its end.
  expect(recentCalls(1_000_000, 450, 35) / reference).toBeGreaterThan(1.15);
});
