import { CallRate, type CallRateShape } from "./callRate.js";
import { unit } from "./random.js";
import { SALT } from "./salts.js";
import { US_PER_DAY, US_PER_HOUR } from "./time.js";

/** Share of calls that are "listed late": visible in the listing only hours after created_at. */
const LATE_SHARE = 0.005;
/** Jitter stays below 1 interval so the untied created_at(i) is strictly increasing in i. */
const MAX_JITTER = 0.9;
/** Below this spacing (µs) rounding could tie neighbours that were not meant to tie. */
const MIN_INTERVAL_US = 10;
/** A tie group holds at most this many calls, so finding a call's created_at stays O(1). */
const MAX_TIE_GROUP = 4;

/**
 * The call stream: call i is created at start + rate((i + jitter(i)) * interval), for i = 0, 1, 2, ...
 * (rate: the even stream's time onto real time, busier on busy days, see CallRate)
 * without end, so advancing the clock simply reveals more of it. A share of calls (`tieShare`) is
 * created in the same microsecond as the call before it, as rows written together are on the real
 * API (real histories hold calls that tie on created_at). created_at is non-decreasing in i, so
 * index order is the API's created_at order and no index over time is needed; only within a tie
 * group does the id decide the order (see Dataset.pageIndices).
 */
export class Timeline {
  readonly startUs: number;
  readonly intervalUs: number;
  readonly #seed: number;
  readonly #neverLateBelow: number;
  readonly #tieShare: number;
  readonly #rate: CallRate;

  /**
   * `neverLateBelow`: the first calls are never late and never tied, so every user has visible calls
   * from the start. `tieShare`: the share of calls that tie with the call before them (0 to 0.5).
   */
  constructor(
    seed: number,
    nowUs: number,
    days: number,
    calls: number,
    neverLateBelow: number,
    tieShare = 0,
    shape: CallRateShape = { seasonal: false },
  ) {
    if (!(days > 0) || !(calls > 0)) throw new RangeError("the simulator needs days > 0 and calls > 0");
    if (!(tieShare >= 0 && tieShare <= 0.5)) throw new RangeError("the simulator needs 0 <= tieShare <= 0.5");
    this.#seed = seed;
    this.#neverLateBelow = neverLateBelow;
    this.#tieShare = tieShare;
    this.startUs = nowUs - Math.round(days * US_PER_DAY);
    this.intervalUs = (days * US_PER_DAY) / calls;
    this.#rate = new CallRate(seed, this.startUs, nowUs, shape);
    // The busiest days squeeze the calls closest together: keep them MIN_INTERVAL_US apart there too.
    const squeeze = this.#rate.isEven ? 1 : 4 * this.#rate.peakMultiple;
    if (this.intervalUs / squeeze < MIN_INTERVAL_US) {
      throw new RangeError(`too many calls for ${days} days: keep calls/days below ${US_PER_DAY / 10}`);
    }
  }

  createdAt(i: number): number {
    const first = this.tieGroupStart(i);
    const jitter = unit(this.#seed, first, SALT.jitter) * MAX_JITTER;
    return this.startUs + Math.floor(this.#rate.realElapsed((first + jitter) * this.intervalUs));
  }

  /** Whether call i has the same created_at as call i - 1. */
  tiesWithPrevious(i: number): boolean {
    return this.tieGroupStart(i) < i;
  }

  #drawsTie(i: number): boolean {
    return this.#tieShare > 0 && i > this.#neverLateBelow && unit(this.#seed, i, SALT.tie) < this.#tieShare;
  }

  /**
   * The first call of i's tie group (i itself when it ties with nobody before it). A run of tie draws
   * longer than a group allows starts a new group, so created_at stays non-decreasing in i.
   */
  tieGroupStart(i: number): number {
    let first = i;
    while (i - first < MAX_TIE_GROUP - 1 && this.#drawsTie(first)) first--;
    return first;
  }

  /** The number of calls created at or before `us` (calls 0 .. n-1). */
  countCreatedBy(us: number): number {
    if (us < this.startUs) return 0;
    let n = Math.max(0, Math.floor(this.#rate.virtualElapsed(us - this.startUs) / this.intervalUs) + 1);
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
   * never sees them, which is why an exporter must re-read a recent window (a stored token only
   * returns what sorts after it).
   */
  visibleFrom(i: number): number {
    const created = this.createdAt(i);
    if (!this.isLate(i)) return created;
    const delay = US_PER_HOUR + Math.floor(unit(this.#seed, i, SALT.lateDelay) * 11 * US_PER_HOUR);
    return created + delay;
  }
}
