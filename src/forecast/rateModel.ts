import { median, robustSd, winsorisedMean } from "./robust.js";

/**
 * A history of daily spend: micros[i] is the spend of UTC day firstDay + i (days since the
 * epoch), in micro-dollars (whole numbers; a day without calls is 0). Days before firstDay are not
 * history.
 */
export interface DailySeries {
  firstDay: number;
  micros: readonly number[];
}

/** The days the weekday profile is learned from, before the day forecast from. */
export const HISTORY_DAYS = 56;
/** Fewer days of history than this give no forecast. */
export const MIN_HISTORY_DAYS = 14;
/** Without a level shift, the level is learned from this many last days. */
export const LEVEL_DAYS = 14;

/** The rate a day's spend is forecast at, as of the start of a day: level x its weekday's factor. */
export interface RateModel {
  /** The deseasonalised daily spend, micro-dollars (a float: an estimate). */
  level: number;
  /** Factor per weekday, Sunday first (getUTCDay order); their mean is 1. */
  factors: number[];
  /** The first day of the new level when a shift was seen, else null. */
  shiftDay: number | null;
  /** The days the level is learned from. */
  levelDays: number;
  /** The days of history, at most HISTORY_DAYS. */
  historyDays: number;
}

export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

export function spendOn(series: DailySeries, day: number): number {
  return series.micros[day - series.firstDay] ?? 0;
}

/**
 * The rate model as of the start of day `asOf` (only days before it are read: it never looks
 * ahead), or null with under MIN_HISTORY_DAYS of history. Each weekday's factor is the median of
 * its days over the mean of the weekdays' medians, so a spike day moves no factor. The level is a
 * winsorised mean of the deseasonalised days since a level shift when one is seen, else of the last
 * LEVEL_DAYS: a step in usage is followed within days instead of being averaged over weeks.
 */
export function rateModel(series: DailySeries, asOf: number): RateModel | null {
  const start = Math.max(series.firstDay, asOf - HISTORY_DAYS);
  const historyDays = asOf - start;
  if (historyDays < MIN_HISTORY_DAYS) return null;
  const days = Array.from({ length: historyDays }, (_, i) => start + i);
  const factors = weekdayFactors(series, days);
  const deseasonalised = days.map((day) => {
    const factor = factors[weekdayOf(day)] as number;
    return factor > 0 ? spendOn(series, day) / factor : spendOn(series, day);
  });
  const shiftAt = levelShift(deseasonalised);
  const from = shiftAt ?? Math.max(0, deseasonalised.length - LEVEL_DAYS);
  const level = winsorisedMean(deseasonalised.slice(from));
  return {
    level,
    factors,
    shiftDay: shiftAt === null ? null : start + shiftAt,
    levelDays: deseasonalised.length - from,
    historyDays,
  };
}

function weekdayFactors(series: DailySeries, days: readonly number[]): number[] {
  const medians = Array.from({ length: 7 }, (_, weekday) =>
    median(days.filter((day) => weekdayOf(day) === weekday).map((day) => spendOn(series, day))),
  );
  const present = medians.filter((m) => !Number.isNaN(m));
  const mean = present.reduce((a, b) => a + b, 0) / present.length;
  return medians.map((m) => (Number.isNaN(m) || !(mean > 0) ? 1 : m / mean));
}

/** A shift needs at least this many days after it, and this many before it to compare with. */
const MIN_DAYS_AFTER = 4;
const MIN_DAYS_BEFORE = 7;
/** How far back a shift is looked for, and how many days before it it is compared with. */
const SHIFT_SEARCH_DAYS = 21;
const SHIFT_BASELINE_DAYS = 28;
/** A shift must stand out of the noise by this many standard errors, and move the level by this share. */
const SHIFT_Z = 3;
const SHIFT_SHARE = 0.2;

/**
 * The index where the level shifted, or null: of the candidate days in the last SHIFT_SEARCH_DAYS,
 * the one whose days after differ most from the SHIFT_BASELINE_DAYS before, in medians, by more
 * than SHIFT_Z standard errors of those medians (from the MAD of the days before) and by more than
 * SHIFT_SHARE of the level. Growth of a few percent a week is no shift; a step of 1.8 or 0.5 is.
 */
export function levelShift(values: readonly number[]): number | null {
  let best: { at: number; z: number; medianBefore: number; medianAfter: number } | null = null;
  const end = values.length;
  for (let at = Math.max(MIN_DAYS_BEFORE, end - SHIFT_SEARCH_DAYS); at <= end - MIN_DAYS_AFTER; at++) {
    const after = values.slice(at);
    const before = values.slice(Math.max(0, at - SHIFT_BASELINE_DAYS), at);
    const medianBefore = median(before);
    const medianAfter = median(after);
    if (!(medianBefore > 0)) continue;
    // The standard error of a median is about 1.25 sigma / sqrt(n).
    const standardError = 1.25 * robustSd(before) * Math.sqrt(1 / after.length + 1 / before.length);
    const z = Math.abs(medianAfter - medianBefore) / Math.max(standardError, medianBefore * 1e-9);
    const share = Math.abs(medianAfter / medianBefore - 1);
    if (z > SHIFT_Z && share > SHIFT_SHARE && (best === null || z > best.z)) {
      best = { at, z, medianBefore, medianAfter };
    }
  }
  if (best === null) return null;
  // A median after the shift hardly moves when a few days before it are counted in, so the best
  // split can fall a little early: days closer to the old level than to the new are the old level.
  let at = best.at;
  const closerToBefore = (value: number) =>
    Math.abs(value - best.medianBefore) < Math.abs(value - best.medianAfter);
  while (at < end - MIN_DAYS_AFTER && closerToBefore(values[at] as number)) at++;
  return at;
}

/** The model's forecast of day `day`'s spend, micro-dollars (a float). */
export function dayForecast(model: RateModel, day: number): number {
  return model.level * (model.factors[weekdayOf(day)] as number);
}
