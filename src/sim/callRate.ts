import { unit } from "./random.js";
import { SALT } from "./salts.js";
import { US_PER_DAY } from "./time.js";

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
export interface CallRateShape {
  seasonal: boolean;
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
    const { seasonal, spikeDay, spikeFactor } = this.#shape;
    const spike = day === spikeDay ? (spikeFactor ?? 1) : 1;
    if (!seasonal) return spike;
    // 1970-01-01 was a Thursday (getUTCDay 4).
    const weekday = (((day + 4) % 7) + 7) % 7;
    const trend = 1 + (TREND_PER_WEEK * Math.max(0, day - this.#startDay)) / 7;
    const noise = 1 - DAY_NOISE + 2 * DAY_NOISE * unit(this.#seed, day, SALT.dayRate);
    return (WEEKDAY_WEIGHTS[weekday] as number) * trend * noise * spike;
  }

  get isEven(): boolean {
    return !this.#shape.seasonal && this.#shape.spikeDay === undefined;
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

/** The call rate's shape from the options: seasonal unless asked for an even stream, and the planted spike. */
export function callRateShape(options: {
  seasonal?: boolean | undefined;
  spikeDay?: string | undefined;
  spikeFactor?: number | undefined;
}): CallRateShape {
  const spike = options.spikeDay;
  const spikeDay =
    spike === undefined ? undefined : Math.floor(Date.parse(`${spike}T00:00:00Z`) / 86_400_000);
  if (spikeDay !== undefined && !Number.isFinite(spikeDay)) {
    throw new RangeError(`spikeDay must be a UTC day written YYYY-MM-DD, not ${JSON.stringify(spike)}`);
  }
  return {
    seasonal: options.seasonal ?? true,
    spikeDay,
    spikeFactor: options.spikeFactor ?? DEFAULT_SPIKE_FACTOR,
  };
}
