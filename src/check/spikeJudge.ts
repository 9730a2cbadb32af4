import { type DailySeries, dayForecast, rateModel, spendOn, weekdayOf } from "../forecast/rateModel.js";

/** What a day is judged against: the same weekday in the 4 weeks before, or the 28 days before. */
export type SpikeBaseline = "weekday" | "28d";

/**
 * A same-weekday baseline is at least this share of the 28-day one: after a quiet weekend (or on an
 * account idle at weekends) a small Sunday is not a spike merely for being bigger than nothing.
 */
export const SPIKE_FLOOR_SHARE = 0.25;

/** The spike rule as judged: its factor and minimum scaled to exact integers, and its baseline. */
export interface SpikeRule {
  factorMillionths: bigint;
  minMicros: number;
  baseline: SpikeBaseline;
}

/** One judged day: its spend, its usual day and the limit (factor x usual), micro-dollars. */
export interface SpikeJudgement {
  day: number;
  micros: number;
  usualMicros: number;
  limitMicros: number;
  /** The days the usual day is the median of. */
  baselineDays: number;
  /** What set the usual day: a median of the same weekday or of 28 days, the forecast, the floor. */
  basis: "weekday" | "28d" | "forecast" | "floor";
  fired: boolean;
}

/**
 * Day `day` against its usual day: the lower median of the same weekday in the 4 weeks before
 * (weekday; never under the forecast of the day, which follows a step in usage the weeks before
 * do not know yet, nor under SPIKE_FLOOR_SHARE of the 28-day median) or of the 28 days before (28d),
 * days without calls as 0 and days before the first stored day not counted. It fires when it
 * reaches factor x usual and the minimum amount. `factorMillionths` and `minMicros` are exact
 * (the rule's decimals scaled); the limit is rounded half up to the micro-dollar.
 */
export function judgeSpike(series: DailySeries, day: number, rule: SpikeRule): SpikeJudgement | null {
  const before: number[] = [];
  for (let d = Math.max(series.firstDay, day - 28); d < day; d++) before.push(d);
  if (before.length === 0 || day < series.firstDay) return null;
  const all = lowerMedian(before.map((d) => spendOn(series, d)));
  const sameWeekday = before.filter((d) => weekdayOf(d) === weekdayOf(day));
  const weekday = sameWeekday.length === 0 ? all : lowerMedian(sameWeekday.map((d) => spendOn(series, d)));
  const model = rule.baseline === "28d" ? null : rateModel(series, day);
  const expected = model === null ? 0 : Math.round(dayForecast(model, day));
  const floor = Math.round(all * SPIKE_FLOOR_SHARE);
  const usual = rule.baseline === "28d" ? all : Math.max(weekday, expected, floor);
  const basis =
    rule.baseline === "28d"
      ? "28d"
      : usual === weekday
        ? "weekday"
        : usual === expected
          ? "forecast"
          : "floor";
  const limit = Number((BigInt(usual) * rule.factorMillionths + 500_000n) / 1_000_000n);
  const micros = spendOn(series, day);
  return {
    day,
    micros,
    usualMicros: usual,
    limitMicros: limit,
    baselineDays: basis === "weekday" && sameWeekday.length > 0 ? sameWeekday.length : before.length,
    basis,
    fired: micros > 0 && micros >= limit && micros >= rule.minMicros,
  };
}

/** The lower median: an actual day's spend, exact. */
function lowerMedian(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[(sorted.length - 1) >> 1] as number;
}
