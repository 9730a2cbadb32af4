import { unit } from "./random.js";
import { SALT } from "./salts.js";
import { US_PER_DAY, US_PER_HOUR } from "./time.js";

/** Share of calls that are "listed late": visible in the listing only hours after created_at. */
const LATE_SHARE = 0.005;
/** Jitter stays below 1 interval so created_at(i) is strictly increasing in i. */
const MAX_JITTER = 0.9;
/** Below this spacing (µs) rounding could tie neighbours and break "index order = sort order". */
const MIN_INTERVAL_US = 10;

/**
 * The call stream: call i is created at start + (i + jitter(i)) * interval, for i = 0, 1, 2, ...
 * without end, so advancing the clock simply reveals more of it. Because created_at is strictly
 * increasing in i, index order is the API's (created_at, id) sort order, and no index over time is
 * needed.
 */
export class Timeline {
  readonly startUs: number;
  readonly intervalUs: number;
  readonly #seed: number;
  readonly #neverLateBelow: number;

  /** `neverLateBelow`: the first calls are never late so every user has visible calls from the start. */
  constructor(seed: number, nowUs: number, days: number, calls: number, neverLateBelow: number) {
    if (!(days > 0) || !(calls > 0)) throw new RangeError("the simulator needs days > 0 and calls > 0");
    this.#seed = seed;
    this.#neverLateBelow = neverLateBelow;
    this.startUs = nowUs - Math.round(days * US_PER_DAY);
    this.intervalUs = (days * US_PER_DAY) / calls;
    if (this.intervalUs < MIN_INTERVAL_US) {
      throw new RangeError(`too many calls for ${days} days: keep calls/days below ${US_PER_DAY / 10}`);
    }
  }

  createdAt(i: number): number {
    const jitter = unit(this.#seed, i, SALT.jitter) * MAX_JITTER;
    return this.startUs + Math.floor((i + jitter) * this.intervalUs);
  }

  /** The number of calls created at or before `us` (calls 0 .. n-1). */
  countCreatedBy(us: number): number {
    if (us < this.startUs) return 0;
    let n = Math.max(0, Math.floor((us - this.startUs) / this.intervalUs) + 1);
    while (n > 0 && this.createdAt(n - 1) > us) n--;
    while (this.createdAt(n) <= us) n++;
    return n;
  }

  isLate(i: number): boolean {
    return i >= this.#neverLateBelow && unit(this.#seed, i, SALT.late) < LATE_SHARE;
  }

  /**
   * When call i first appears in GET /user/api-calls. Late-listed calls model rows that reach the
   * listing after newer ones (a delayed write): a keyset scan that already passed their created_at
   * never sees them, which is why an exporter must re-read a recent window (zoo-api.md: stored tokens
   * only return what sorts after them).
   */
  visibleFrom(i: number): number {
    const created = this.createdAt(i);
    if (!this.isLate(i)) return created;
    const delay = US_PER_HOUR + Math.floor(unit(this.#seed, i, SALT.lateDelay) * 11 * US_PER_HOUR);
    return created + delay;
  }
}
