import { unit } from "./random.js";
import { SALT } from "./salts.js";

/**
 * Planted changes in an account's usage, for the forecast's backtest and tests: each is a multiple
 * of a UTC day's call rate, on top of the weekdays, the trend and the day's draw. None is planted by
 * default, and then the rate is exactly what it was without them.
 */
export interface UsageShape {
  /** From this UTC day (days since the epoch) on, the rate is `stepFactor` times what it was. */
  stepDay?: number | undefined;
  stepFactor?: number | undefined;
  /**
   * A weekday (0 Sunday .. 6 Saturday) whose second occurrence in every month has `spikeFactor`
   * times its calls: one spike a month, on a weekday or on a weekend day.
   */
  spikeWeekday?: number | undefined;
  /** The whole UTC month holding this day (days since the epoch) has QUIET_MONTH_FACTOR of its calls. */
  quietMonthDay?: number | undefined;
  /**
   * The day's draw is lognormal, exp(sigma z - sigma^2 / 2) with z standard normal (mean 1), instead
   * of the default uniform +-12%: rare much busier days, as a heavier tail.
   */
  lognormalSigma?: number | undefined;
}

/** A quiet month's rate, as a share of its usual (a holiday month). */
export const QUIET_MONTH_FACTOR = 0.4;

const MS_PER_DAY = 86_400_000;

/** Whether any change is planted (an even stream with one is no longer even). */
export function hasUsageShape(shape: UsageShape): boolean {
  return (
    shape.stepDay !== undefined ||
    shape.spikeWeekday !== undefined ||
    shape.quietMonthDay !== undefined ||
    shape.lognormalSigma !== undefined
  );
}

/** The multiple of day `day`'s rate the planted step, quiet month and weekday spikes give (1: none). */
export function plantedMultiple(shape: UsageShape, day: number, spikeFactor: number): number {
  let multiple = 1;
  if (shape.stepDay !== undefined && day >= shape.stepDay) multiple *= shape.stepFactor ?? 1;
  if (shape.quietMonthDay !== undefined && monthOf(day) === monthOf(shape.quietMonthDay)) {
    multiple *= QUIET_MONTH_FACTOR;
  }
  if (shape.spikeWeekday !== undefined && isSecondWeekdayOfMonth(day, shape.spikeWeekday)) {
    multiple *= spikeFactor;
  }
  return multiple;
}

/** The days of [first, end) a weekday spike falls on, as YYYY-MM-DD: what a check should find. */
export function plantedSpikeDays(shape: UsageShape, first: number, end: number): string[] {
  const days: string[] = [];
  if (shape.spikeWeekday === undefined) return days;
  for (let day = first; day < end; day++) {
    if (isSecondWeekdayOfMonth(day, shape.spikeWeekday)) days.push(isoDay(day));
  }
  return days;
}

/** A lognormal draw of mean 1 for the day (Box-Muller on two of the day's uniform draws). */
export function lognormalDraw(seed: number, day: number, sigma: number): number {
  const u1 = 1 - unit(seed, day, SALT.dayRate);
  const u2 = unit(seed, day, SALT.dayRateNormal);
  const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  return Math.exp(sigma * z - (sigma * sigma) / 2);
}

/** The UTC day number (days since the epoch) of a YYYY-MM-DD text; throws naming the field. */
export function dayNumber(field: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN;
  if (!Number.isFinite(ms) || isoDay(ms / MS_PER_DAY) !== text) {
    throw new RangeError(`${field} must be a UTC day written YYYY-MM-DD, not ${JSON.stringify(text)}`);
  }
  return ms / MS_PER_DAY;
}

function isSecondWeekdayOfMonth(day: number, weekday: number): boolean {
  const date = new Date(day * MS_PER_DAY);
  return date.getUTCDay() === weekday && date.getUTCDate() >= 8 && date.getUTCDate() <= 14;
}

function monthOf(day: number): string {
  return isoDay(day).slice(0, 7);
}

function isoDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}
