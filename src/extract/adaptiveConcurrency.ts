/**
 * How many requests may be in flight, adapted to what the server says (additive increase,
 * multiplicative decrease, as TCP's congestion window):
 * - after each window of successes (as many as the current limit: about one round trip of them),
 *   the limit grows by one if the window's median latency is within `flatFactor` of the best window
 *   median seen: more requests in flight only help while the server answers them as fast; it
 *   shrinks by one if the median passes `riseFactor` of the best: requests are queueing (at the
 *   server, or in this process when it is the bottleneck), and more in flight only adds to the wait;
 *   latency alone never takes it below where it started, which is already polite: when this
 *   process is the bottleneck, fewer in flight only stops its work overlapping the server's;
 * - a refusal (429, 5xx, a reset or a timeout) halves it, at most once per window, since one
 *   overload is usually refused several times over by the requests already in flight;
 * - it stays within [floor, cap].
 * Pure: latencies are given to it, it measures nothing itself.
 */
export class AdaptiveConcurrency {
  private current: number;
  private highest: number;
  private window: number[] = [];
  private bestMedianMs = Number.POSITIVE_INFINITY;
  /** Completions since the last halving: the next halving waits for a window of them. */
  private sinceDecrease: number;
  /** The window after a halving: the limit it set. */
  private decreaseWindow = 0;
  private readonly cap: number;
  private readonly floor: number;
  /** The lowest limit a rise in latency shrinks it to (the start); refusals go down to `floor`. */
  private readonly latencyFloor: number;
  private readonly flatFactor: number;
  private readonly riseFactor: number;

  constructor(options: {
    start: number;
    cap: number;
    floor?: number;
    flatFactor?: number;
    riseFactor?: number;
  }) {
    this.floor = Math.max(1, Math.floor(options.floor ?? 1));
    this.cap = Math.max(this.floor, Math.floor(options.cap));
    this.flatFactor = options.flatFactor ?? 1.5;
    this.riseFactor = Math.max(this.flatFactor, options.riseFactor ?? 2.5);
    this.current = clamp(Math.floor(options.start), this.floor, this.cap);
    this.highest = this.current;
    this.latencyFloor = this.current;
    this.sinceDecrease = 0;
  }

  /** Requests that may be in flight now. */
  get limit(): number {
    return this.current;
  }

  /** The highest limit reached so far. */
  get peak(): number {
    return this.highest;
  }

  /** A request answered without a refusal, after `latencyMs`. */
  onSuccess(latencyMs: number): void {
    this.sinceDecrease += 1;
    this.window.push(latencyMs);
    if (this.window.length < this.current) return;
    const median = medianOf(this.window);
    this.window = [];
    if (median < this.bestMedianMs) this.bestMedianMs = median;
    if (median <= this.bestMedianMs * this.flatFactor) {
      if (this.current < this.cap) this.current += 1;
      if (this.current > this.highest) this.highest = this.current;
    } else if (median > this.bestMedianMs * this.riseFactor && this.current > this.latencyFloor) {
      this.current -= 1;
    }
  }

  /** The server refused or failed a request (429, 5xx, reset, timeout): back off. */
  onRefused(): void {
    if (this.sinceDecrease < this.decreaseWindow) return;
    this.current = Math.max(this.floor, Math.floor(this.current / 2));
    this.decreaseWindow = this.current;
    this.sinceDecrease = 0;
    this.window = [];
  }
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
