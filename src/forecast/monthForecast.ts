import { firstOfMonth } from "./epochDay.js";
import { type DailySeries, dayForecast, type RateModel, rateModel, spendOn } from "./rateModel.js";
import { robustSd } from "./robust.js";

/** The interval's nominal coverage: 90% of month-ends inside. */
export const NOMINAL_COVERAGE = 0.9;
/** The past forecasts an empirical interval needs; with fewer, it comes from the days' noise. */
export const MIN_PAST_FORECASTS = 20;
/** How far back past forecasts are replayed for the interval. */
const PAST_ORIGIN_DAYS = 120;

/** How the interval was made: from the method's own past errors on this history, or from its noise. */
export type IntervalSource = { kind: "past-errors"; forecasts: number } | { kind: "day-noise" };

/** How the 90% interval was made, in words: the coverage it is labelled with. */
export function intervalLabel(source: IntervalSource): string {
  return source.kind === "past-errors"
    ? `90% nominal: the errors of ${source.forecasts} past forecasts`
    : "90% nominal: from the day-to-day noise";
}

/** The month-end forecast as of the start of a UTC day; money in whole micro-dollars. */
export interface MonthForecast {
  /** Days since the epoch: the month's first day, the first day not known, the next month's first. */
  monthDay: number;
  asOf: number;
  nextMonthDay: number;
  historyDays: number;
  monthToDateMicros: number;
  aheadMicros: number;
  forecastMicros: number;
  lowMicros: number;
  highMicros: number;
  /** Each day from asOf to the month's end with its forecast spend. */
  days: { day: number; micros: number }[];
  /** The first day of a level shift the forecast follows, or null. */
  shiftDay: number | null;
  interval: IntervalSource;
}

/**
 * The month-end forecast of the month of day asOf - 1 (on the 1st, the month just ended, whole), as
 * of the start of day asOf: the exact month-to-date plus each remaining day at the rate model's
 * level x its weekday's factor. The 90% interval comes from the errors the same method made on this
 * history over the same number of days ahead, from each of the last PAST_ORIGIN_DAYS days it could
 * forecast from (the range of those errors); with under MIN_PAST_FORECASTS of them, from
 * the days' noise: +-1.645 robust standard deviations x sqrt(n + n^2 / level days). Null with under
 * 14 days of history. Estimates are floats rounded to the micro-dollar; the month-to-date is exact.
 */
export function monthForecast(series: DailySeries, asOf: number): MonthForecast | null {
  const model = rateModel(series, asOf);
  if (model === null) return null;
  const { monthDay, nextMonthDay, micros: monthToDate } = monthToDateOf(series, asOf);
  const days: { day: number; micros: number }[] = [];
  for (let day = asOf; day < nextMonthDay; day++)
    days.push({ day, micros: Math.round(dayForecast(model, day)) });
  const ahead = days.reduce((sum, d) => sum + d.micros, 0);
  const { low, high, source } = interval(series, asOf, days.length, ahead, model);
  return {
    monthDay,
    asOf,
    nextMonthDay,
    historyDays: model.historyDays,
    monthToDateMicros: monthToDate,
    aheadMicros: ahead,
    forecastMicros: monthToDate + ahead,
    lowMicros: monthToDate + Math.max(0, Math.round(low)),
    highMicros: monthToDate + Math.max(0, Math.round(high)),
    days,
    shiftDay: model.shiftDay,
    interval: source,
  };
}

/**
 * The month of day asOf - 1 (its first day, the next month's first day) and its exact spend of the
 * days before asOf, whole micro-dollars: known with any history, forecast or not.
 */
export function monthToDateOf(
  series: DailySeries,
  asOf: number,
): { monthDay: number; nextMonthDay: number; micros: number } {
  const monthDay = firstOfMonth(asOf - 1);
  const nextMonthDay = firstOfMonth(monthDay + 31);
  let micros = 0;
  for (let day = Math.max(monthDay, series.firstDay); day < Math.min(asOf, nextMonthDay); day++) {
    micros += spendOn(series, day);
  }
  return { monthDay, nextMonthDay, micros };
}

/** The sum of the next `n` days as forecast from the start of day `origin`, or null. */
function aheadSum(series: DailySeries, origin: number, n: number): number | null {
  const model = rateModel(series, origin);
  if (model === null) return null;
  let sum = 0;
  for (let day = origin; day < origin + n; day++) sum += dayForecast(model, day);
  return sum;
}

function interval(
  series: DailySeries,
  asOf: number,
  n: number,
  ahead: number,
  model: RateModel,
): { low: number; high: number; source: IntervalSource } {
  if (n === 0) return { low: 0, high: 0, source: { kind: "day-noise" } };
  const errors: number[] = [];
  for (let origin = asOf - PAST_ORIGIN_DAYS; origin + n <= asOf; origin++) {
    const forecast = aheadSum(series, origin, n);
    if (forecast === null || !(forecast > 0)) continue;
    let actual = 0;
    for (let day = origin; day < origin + n; day++) actual += spendOn(series, day);
    errors.push(actual / forecast - 1);
  }
  if (errors.length >= MIN_PAST_FORECASTS) {
    // Past forecasts over n days from consecutive days overlap: a history of 120 days holds fewer
    // than 19 independent ones for any n of a week or more, and a split-conformal 90% interval
    // from fewer than 19 is the whole range of their errors.
    return {
      low: ahead * (1 + Math.min(...errors)),
      high: ahead * (1 + Math.max(...errors)),
      source: { kind: "past-errors", forecasts: errors.length },
    };
  }
  const residuals: number[] = [];
  for (let day = Math.max(series.firstDay, asOf - 28); day < asOf; day++) {
    residuals.push(spendOn(series, day) - dayForecast(model, day));
  }
  const half = 1.645 * robustSd(residuals) * Math.sqrt(n + (n * n) / Math.max(1, model.levelDays));
  return { low: ahead - half, high: ahead + half, source: { kind: "day-noise" } };
}
