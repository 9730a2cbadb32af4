import { describe, expect, test } from "vitest";
import { budgetAlerts } from "../../src/check/forecastRules.js";
import { judgeSpike } from "../../src/check/spikeJudge.js";
import { monthForecast } from "../../src/forecast/monthForecast.js";
import { levelShift, rateModel } from "../../src/forecast/rateModel.js";
import { median, robustSd, winsorisedMean } from "../../src/forecast/robust.js";

/** Pure tables of the forecast's statistics: robust to one day, following a step, never looking ahead. */

const DAY = Date.UTC(2026, 9, 1) / 86_400_000; // 2026-10-01, a Thursday
const WEEK = [100, 100, 100, 100, 100, 40, 40]; // Thu..Wed: quiet Tuesdays and Wednesdays

function series(days: number, at: (i: number) => number) {
  return { firstDay: DAY, micros: Array.from({ length: days }, (_, i) => Math.round(at(i) * 1e6)) };
}

describe("robust statistics", () => {
  test.each([
    [[1, 2, 3], 2],
    [[4, 1, 3, 2], 2.5],
    [[1, 1, 1, 100], 1],
  ])("median of %j is %d", (values, expected) => {
    expect(median(values)).toBe(expected);
  });

  test("one day at x5 moves the winsorised mean by under 5%, the mean by 29%", () => {
    const days = [100, 104, 96, 101, 99, 103, 97, 100, 102, 98, 100, 101, 99, 500];
    const ordinary = winsorisedMean(days.slice(0, -1));
    expect(Math.abs(winsorisedMean(days) / ordinary - 1)).toBeLessThan(0.05);
    expect(days.reduce((a, b) => a + b, 0) / days.length / ordinary - 1).toBeGreaterThan(0.28);
    expect(robustSd(days)).toBeLessThan(5);
  });
});

describe("the level shift", () => {
  const noisy = (i: number) => 100 * (1 + 0.05 * Math.sin(i * 2.1));
  test.each([
    ["none in a steady month", 35, () => 1, null],
    ["growth of 5% a week is no shift", 35, (i: number) => 1 + (0.05 * i) / 7, null],
    ["x1.8 from day 28, seen 4 days later", 32, (i: number) => (i >= 28 ? 1.8 : 1), 28],
    ["x0.5 from day 28, seen 7 days later", 35, (i: number) => (i >= 28 ? 0.5 : 1), 28],
    ["a single x5 day is no shift", 35, (i: number) => (i === 30 ? 5 : 1), null],
  ] as const)("%s", (_, length, shape, expected) => {
    const values = Array.from({ length }, (_, i) => noisy(i) * shape(i));
    expect(levelShift(values)).toBe(expected);
  });
});

describe("the month-end forecast", () => {
  test("weekday factors from medians: a quiet weekday is forecast quiet, a spike moves no factor", () => {
    const history = series(42, (i) => (i === 35 ? 5 : 1) * (WEEK[i % 7] as number));
    const model = rateModel(history, DAY + 42);
    expect(model?.shiftDay).toBeNull();
    const forecast = monthForecast(history, DAY + 42);
    // 2026-11-12 (a Thursday) to 2026-11-30: every day at its weekday's usual spend.
    expect(forecast?.days.map((d) => d.micros / 1e6)).toEqual(
      forecast?.days.map((d) => WEEK[(d.day - DAY) % 7] as number),
    );
  });

  test("never looks ahead: the days from as_of on change nothing", () => {
    const history = series(60, (i) => WEEK[i % 7] as number);
    const changed = { ...history, micros: history.micros.map((m, i) => (i >= 45 ? m * 9 : m)) };
    expect(monthForecast(changed, DAY + 45)).toEqual(monthForecast(history, DAY + 45));
  });

  test("under 14 days of history there is no forecast; the month over, the forecast is what it was", () => {
    const history = series(40, (i) => WEEK[i % 7] as number);
    expect(monthForecast(history, DAY + 13)).toBeNull();
    const whole = monthForecast(history, DAY + 31);
    expect(whole?.days).toEqual([]);
    expect(whole?.forecastMicros).toBe(history.micros.slice(0, 31).reduce((a, b) => a + b, 0));
    expect([whole?.lowMicros, whole?.highMicros]).toEqual([whole?.forecastMicros, whole?.forecastMicros]);
  });
});

describe("the budget rule", () => {
  const budget = { usd: "500", actualPercent: "80", forecastPercent: "100" };

  test("under 14 days of history the month-to-date is judged alone", () => {
    const history = series(10, () => 50);
    expect(budgetAlerts(history, DAY + 10, budget)).toEqual([
      {
        rule: "budget-actual",
        subject: "account",
        value: "500.000000",
        threshold: "400.000000",
        period: "2026-10",
        unit: "usd",
        note: "80% of the {budget} budget, 10 days in",
        amounts: { budget: "500.000000" },
      },
    ]);
  });

  test("the forecast alert names the budget, its share, the range and how the range was made", () => {
    const history = series(60, (i) => WEEK[i % 7] as number);
    const forecast = budgetAlerts(history, DAY + 45, { ...budget, usd: "1000" }).find(
      (alert) => alert.rule === "budget-forecast",
    );
    expect(forecast).toMatchObject({ rule: "budget-forecast", threshold: "1000.000000", period: "2026-11" });
    expect(forecast?.note).toMatch(
      /^100% of the \{budget\} budget; range \{low\} to \{high\}, 90% nominal: /,
    );
  });
});

describe("the spike rule", () => {
  const rule = { factorMillionths: 3_000_000n, minMicros: 10_000_000, baseline: "weekday" as const };
  const judged = (history: ReturnType<typeof series>, i: number) => judgeSpike(history, DAY + i, rule);

  test("a x5 day on a quiet weekday fires against its own weekday, not against the 28-day median", () => {
    const history = series(36, (i) => (i === 33 ? 5 : 1) * (WEEK[i % 7] as number));
    expect(judged(history, 33)).toMatchObject({ fired: true, basis: "weekday", usualMicros: 40_000_000 });
    expect(judgeSpike(history, DAY + 33, { ...rule, baseline: "28d" })?.fired).toBe(false);
  });

  test("a day after quiet weekdays of nothing is judged against the floor, a quarter of the 28-day median", () => {
    const history = series(36, (i) => (i === 33 ? 60 : i % 7 === 5 ? 0 : 100));
    expect(judged(history, 33)).toMatchObject({ fired: false, basis: "floor", usualMicros: 25_000_000 });
  });

  test("the days after a step are judged against the forecast once it sees the step", () => {
    const history = series(40, (i) => (i >= 28 ? 3.5 : 1) * (WEEK[i % 7] as number));
    expect(judged(history, 33)).toMatchObject({ fired: false, basis: "forecast" });
  });
});
