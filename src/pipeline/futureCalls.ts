import { epochMicros, isEarlier } from "../transform/apiCallRow.js";

/** Clocks drift: a call dated up to this far after the run's clock is taken at its word. */
export const CLOCK_TOLERANCE_MS = 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The first instant of year 10000 UTC. */
const YEAR_10000_MS = Date.UTC(10000, 0, 1);

/**
 * Why a call's created_at cannot be stored, or undefined. An instant in year 10000 UTC or later
 * (`9999-12-31T23:59:59-05:00`) has no RFC 3339 UTC form (four-digit years), its partition name
 * "10000-01" sorts before "9999-12" as text, and it is out of range for many Parquet readers
 * (Python's datetime ends at year 9999): it is rejected with this reason rather than stored.
 */
export function createdAtProblem(createdAt: string): string | undefined {
  // Only a time written in 9999 can reach year 10000 UTC (an offset moves it by less than a day).
  if (!createdAt.startsWith("9999-12-31")) return undefined;
  if (Date.parse(createdAt) < YEAR_10000_MS) return undefined;
  return "✖ created_at is beyond year 9999 UTC, which the warehouse cannot store\n  → at created_at";
}

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
