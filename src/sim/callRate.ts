import { unit } from "./random.js";
import { SALT } from "./salts.js";
import { US_PER_DAY } from "./time.js";
import { dayNumber, hasUsageShape, lognormalDraw, plantedMultiple, type UsageShape } from "./usageShape.js";

/**
 * How busy each UTC weekday is, Sunday first (Date#getUTCDay order): an API account that people and
 * their office-hours jobs drive calls far less at the weekend.
 */
export const WEEKDAY_WEIGHTS = [0.45, 1.15, 1.25, 1.25, 1.2, 1.0, 0.5] as const;
/** Growth of the call rate per week, linear from the history's first day: a growing account. */
export const TREND_PER_WEEK = 0.015;
/**
 * Each day's rate is also scaled by a draw in [1 - DAY_NOISE, 1 + DAY_NOISE): days differ. The draw
 * is the calendar day's, so that two histories of one seed, of different lengths, have the same
 * busy and quiet days (the benchmark compares their nightly runs).
 */
export const DAY_NOISE = 0.12;

/** A planted spike day's rate, as a multiple of what the day would have had. */
export const DEFAULT_SPIKE_FACTOR = 6;

/** The shape of the call rate over time; `flat` keeps the calls evenly spread. */
export interface CallRateShape extends UsageShape {
  seasonal: boolean;
  /** Growth per week of the seasonal rate (default TREND_PER_WEEK). */
  growthPerWeek?: number | undefined;
  /** A UTC day (days since 1970-01-01) whose rate is multiplied by `spikeFactor`. */
  spikeDay?: number | undefined;
  spikeFactor?: number | undefined;
}

/**
 * Maps the call stream's even "virtual" time onto real time, so that calls bunch on busy days: the
 * real rate on UTC day d is weight(d) (weekday, trend, the day's draw, a planted spike), constant
 * within the day. Virtual time is scaled so that `days` of it end exactly at the initial clock: the
 * history still holds about `calls` calls then. Both directions are piecewise linear and strictly
 * increasing; the per-day sums are kept as they are first needed (the clock only moves forward).
 */
export class CallRate {
  readonly #seed: number;
  readonly #shape: CallRateShape;
  readonly #startDay: number;
  readonly #startUs: number;
  /** #cumulative[k]: the weighted length (weight x us) of days startDay .. startDay + k - 1. */
  readonly #cumulative: number[] = [0];
  readonly #offset: number;
  readonly #scale: number;

  constructor(seed: number, startUs: number, nowUs: number, shape: CallRateShape) {
    this.#seed = seed;
    this.#shape = shape;
    this.#startUs = startUs;
    this.#startDay = Math.floor(startUs / US_PER_DAY);
    this.#offset = this.#weighted(startUs);
    // Virtual us per weighted us: `days` of virtual time end at the initial clock.
    this.#scale = this.isEven ? 1 : (nowUs - startUs) / (this.#weighted(nowUs) - this.#offset);
  }

  /** The rate's weight on UTC day `day` (days since the epoch); the mean is about 1. */
  weightOf(day: number): number {
    const { seasonal, spikeDay, spikeFactor, growthPerWeek, lognormalSigma } = this.#shape;
    const spike = day === spikeDay ? (spikeFactor ?? 1) : 1;
    // 1 (exactly) when nothing is planted: the default rate is unchanged.
    const planted = plantedMultiple(this.#shape, day, spikeFactor ?? 1);
    if (!seasonal) return spike * planted;
    // 1970-01-01 was a Thursday (getUTCDay 4).
    const weekday = (((day + 4) % 7) + 7) % 7;
    const trend = 1 + ((growthPerWeek ?? TREND_PER_WEEK) * Math.max(0, day - this.#startDay)) / 7;
    const noise =
      lognormalSigma === undefined
        ? 1 - DAY_NOISE + 2 * DAY_NOISE * unit(this.#seed, day, SALT.dayRate)
        : lognormalDraw(this.#seed, day, lognormalSigma);
    return (WEEKDAY_WEIGHTS[weekday] as number) * trend * noise * spike * planted;
  }

  get isEven(): boolean {
    return !this.#shape.seasonal && this.#shape.spikeDay === undefined && !hasUsageShape(this.#shape);
  }

  /**
   * How many times its mean rate the busiest day may have: the timeline keeps calls apart there.
   * A lognormal day noise is taken up to 4 sigma.
   */
  get peakMultiple(): number {
    const { spikeFactor, stepFactor, lognormalSigma } = this.#shape;
    const planted = Math.max(1, stepFactor ?? 1) * Math.exp(4 * (lognormalSigma ?? 0));
    return (spikeFactor ?? 1) * planted;
  }

  /** Real microseconds since the start for `virtualUs` of the even stream's time. */
  realElapsed(virtualUs: number): number {
    if (this.isEven) return virtualUs;
    const target = virtualUs / this.#scale + this.#offset;
    const k = this.#dayHolding(target);
    const dayStartUs = (this.#startDay + k) * US_PER_DAY;
    const within = (target - (this.#cumulative[k] as number)) / this.weightOf(this.#startDay + k);
    return dayStartUs + within - this.#startUs;
  }

  /** The even stream's microseconds for `realUs` since the start (the inverse of realElapsed). */
  virtualElapsed(realUs: number): number {
    if (this.isEven) return realUs;
    return (this.#weighted(this.#startUs + realUs) - this.#offset) * this.#scale;
  }

  /** The weighted length from the start day's midnight to the instant `us`. */
  #weighted(us: number): number {
    const k = Math.max(0, Math.floor(us / US_PER_DAY) - this.#startDay);
    this.#extendTo(k);
    const dayStartUs = (this.#startDay + k) * US_PER_DAY;
    return (this.#cumulative[k] as number) + (us - dayStartUs) * this.weightOf(this.#startDay + k);
  }

  /** The day k (from the start day) whose weighted span holds `target`. */
  #dayHolding(target: number): number {
    while ((this.#cumulative[this.#cumulative.length - 1] as number) <= target) {
      this.#extendTo(this.#cumulative.length);
    }
    let low = 0;
    let high = this.#cumulative.length - 1;
    // The last k with cumulative[k] <= target.
    while (high - low > 1) {
      const middle = (low + high) >> 1;
      if ((this.#cumulative[middle] as number) <= target) low = middle;
      else high = middle;
    }
    return low;
  }

  #extendTo(k: number): void {
    while (this.#cumulative.length <= k) {
      const last = this.#cumulative.length - 1;
      this.#cumulative.push(
        (this.#cumulative[last] as number) + US_PER_DAY * this.weightOf(this.#startDay + last),
      );
    }
  }
}

/** The call rate's shape from the options: seasonal unless asked for an even stream, and the plants. */
export function callRateShape(options: {
  seasonal?: boolean | undefined;
  spikeDay?: string | undefined;
  spikeFactor?: number | undefined;
  stepDay?: string | undefined;
  stepFactor?: number | undefined;
  spikeWeekday?: number | undefined;
  growthPerWeek?: number | undefined;
  quietMonth?: string | undefined;
  lognormalNoise?: number | undefined;
}): CallRateShape {
  const positive = (field: string, value: number | undefined) => {
    if (value !== undefined && !(value > 0 && Number.isFinite(value))) {
      throw new RangeError(`${field} must be a positive number, not ${value}`);
    }
    return value;
  };
  const { spikeWeekday, growthPerWeek } = options;
  if (
    spikeWeekday !== undefined &&
    !(Number.isInteger(spikeWeekday) && spikeWeekday >= 0 && spikeWeekday <= 6)
  ) {
    throw new RangeError(`spikeWeekday must be 0 (Sunday) to 6 (Saturday), not ${spikeWeekday}`);
  }
  if (growthPerWeek !== undefined && !(growthPerWeek > -1 && Number.isFinite(growthPerWeek))) {
    throw new RangeError(`growthPerWeek must be a number above -1, not ${growthPerWeek}`);
  }
  const quiet = options.quietMonth === undefined ? undefined : `${options.quietMonth}-01`;
  return {
    seasonal: options.seasonal ?? true,
    spikeDay: dayNumber("spikeDay", options.spikeDay),
    spikeFactor: positive("spikeFactor", options.spikeFactor) ?? DEFAULT_SPIKE_FACTOR,
    stepDay: dayNumber("stepDay", options.stepDay),
    stepFactor: positive("stepFactor", options.stepFactor),
    spikeWeekday,
    growthPerWeek,
    quietMonthDay: dayNumber("quietMonth (YYYY-MM)", quiet),
    lognormalSigma: positive("lognormalNoise", options.lognormalNoise),
  };
}
