import { firstOfMonth, isoDay } from "../forecast/epochDay.js";
import { microsText } from "../forecast/microsText.js";
import { monthForecast, monthToDateOf } from "../forecast/monthForecast.js";
import type { DailySeries } from "../forecast/rateModel.js";
import { judgeSpike, type SpikeRule } from "./spikeJudge.js";

/** The days of a month the forecast is judged at: as of the start of day k + 1, k days known. */
export const BACKTEST_DAYS = [7, 14, 21] as const;

/** One forecast of a complete month, made k days in, beside what the month came to. */
export interface BacktestForecast {
  month: string;
  day: number;
  actualUsd: string;
  forecastUsd: string;
  lowUsd: string;
  highUsd: string;
}

/** Accuracy at one day of the month: mean absolute percentage error and interval coverage. */
export interface BacktestFigure {
  day: number;
  months: number;
  /** Mean of |forecast - actual| / actual, in percent (months whose actual is 0 are left out). */
  mapePercent: number;
  /** Share of the months whose actual month-end lies inside [low, high], in percent. */
  coveragePercent: number;
}

/** The spike rule replayed: the days it would have fired on. */
export interface SpikeReplay {
  daysJudged: number;
  fired: string[];
}

/** The rule a backtest replays the spike alerts with: x3, at least $10, against the same weekday. */
export const BACKTEST_SPIKE_RULE = {
  factorMillionths: 3_000_000n,
  minMicros: 10_000_000,
  baseline: "weekday",
} as const;

/**
 * The complete months of a history ending before `endDay` (the first day not complete) that a
 * backtest can judge: 14 days of history before their 7th day. Days since the epoch.
 */
export function backtestMonths(series: DailySeries, endDay: number): number[] {
  const months: number[] = [];
  for (let month = firstOfMonth(series.firstDay); month < endDay; month = firstOfMonth(month + 31)) {
    if (firstOfMonth(month + 31) <= endDay && month + 7 - series.firstDay >= 14) months.push(month);
  }
  return months;
}

/**
 * Replays the month-end forecast over the given months: what it said on day 7, 14 and 21 of each
 * (knowing only the days before), against what the month came to.
 */
export function replayForecasts(series: DailySeries, months: readonly number[]): BacktestForecast[] {
  const forecasts: BacktestForecast[] = [];
  for (const month of months) {
    const actual = monthToDateOf(series, firstOfMonth(month + 31)).micros;
    for (const day of BACKTEST_DAYS) {
      const forecast = monthForecast(series, month + day);
      if (forecast === null) continue;
      forecasts.push({
        month: isoDay(month).slice(0, 7),
        day,
        actualUsd: microsText(actual),
        forecastUsd: microsText(forecast.forecastMicros),
        lowUsd: microsText(forecast.lowMicros),
        highUsd: microsText(forecast.highMicros),
      });
    }
  }
  return forecasts;
}

/** The spike rule judged on every day of the given months. */
export function replaySpikes(
  series: DailySeries,
  months: readonly number[],
  rule: SpikeRule = BACKTEST_SPIKE_RULE,
): SpikeReplay {
  const fired: string[] = [];
  let daysJudged = 0;
  for (const month of months) {
    for (let day = month; day < firstOfMonth(month + 31); day++) {
      const judged = judgeSpike(series, day, rule);
      if (judged === null) continue;
      daysJudged++;
      if (judged.fired) fired.push(isoDay(day));
    }
  }
  return { daysJudged, fired };
}

/**
 * MAPE and coverage per day of the month. The error of a forecast is a ratio, not money: a binary
 * float is fine for it. `countsForCoverage` leaves out forecasts no interval could hold (a planted
 * spike after the day forecast from).
 */
export function backtestFigures(
  forecasts: readonly BacktestForecast[],
  countsForCoverage: (forecast: BacktestForecast) => boolean = () => true,
): BacktestFigure[] {
  return BACKTEST_DAYS.map((day) => {
    const at = forecasts.filter((f) => f.day === day);
    const judged = at.filter((f) => Number(f.actualUsd) !== 0);
    const errors = judged.map(
      (f) => Math.abs(Number(f.forecastUsd) - Number(f.actualUsd)) / Number(f.actualUsd),
    );
    const covered = at.filter(countsForCoverage);
    const inside = covered.filter(isInside);
    return {
      day,
      months: at.length,
      mapePercent:
        judged.length === 0 ? Number.NaN : (100 * errors.reduce((a, b) => a + b, 0)) / judged.length,
      coveragePercent: covered.length === 0 ? Number.NaN : (100 * inside.length) / covered.length,
    };
  });
}

export function isInside(forecast: BacktestForecast): boolean {
  const actual = Number(forecast.actualUsd);
  return Number(forecast.lowUsd) <= actual && actual <= Number(forecast.highUsd);
}
