import { epochMicros, isEarlier } from "../../transform/apiCallRow.js";

/** Clocks drift: a call dated up to this far after the run's clock is taken at its word. */
export const CLOCK_TOLERANCE_MS = 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The run's clock bounds the checkpoint: a call dated after now + CLOCK_TOLERANCE_MS (a server's
 * bad clock, a test record) is loaded as sent, but counts as created now for the high-water mark.
 * Otherwise one such call moves the mark years ahead, the lookback window follows it, and the
 * billing filled in later for every real call is never read again.
 */
export class FutureCalls {
  private readonly boundMs: number;
  /** Every time written on a date before this one is within the bound, whatever its offset. */
  private readonly safeDate: string;
  private readonly now: string;
  private count = 0;
  private firstId: string | undefined;
  private firstCreatedAt: string | undefined;

  constructor(now: Date) {
    this.boundMs = now.getTime() + CLOCK_TOLERANCE_MS;
    this.safeDate = new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
    this.now = now.toISOString();
  }

  /** The created_at the checkpoint notes for a call: its own, or the run's clock when it is beyond it. */
  checkpointTime(id: string, createdAt: string): string {
    // Compared as text first: a time on a date before safeDate (YYYY-MM-DD, which any time on that
    // date sorts after) is early enough without parsing it.
    if (createdAt < this.safeDate) return createdAt;
    if (epochMicros(createdAt) <= this.boundMs * 1000) return createdAt;
    this.count += 1;
    if (this.firstId === undefined) {
      this.firstId = id;
      this.firstCreatedAt = createdAt;
    }
    return isEarlier(this.now, createdAt) ? this.now : createdAt;
  }

  /** The run's one warning about them, or undefined when there were none. */
  warning(): string | undefined {
    if (this.count === 0) return undefined;
    return `${this.count} call(s) dated more than a day after this run's clock (first: ${this.firstId} created at ${this.firstCreatedAt}) were loaded, but the high-water mark and the lookback window stay at ${this.now}`;
  }
}
