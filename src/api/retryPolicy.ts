/**
 * When and how long to wait before retrying an idempotent GET. Every call the exporter makes is a
 * GET, so 429, 5xx, resets, timeouts and broken bodies are all safe to retry (RFC 9110: GET is idempotent).
 */
export interface RetryPolicy {
  /** Attempts per request, the first one included. */
  maxAttempts: number;
  /** First backoff delay; doubles per attempt. */
  baseDelayMs: number;
  /** Upper bound of one backoff delay (Retry-After may ask for more, and is obeyed). */
  maxDelayMs: number;
  /** Upper bound of all waiting in one run, across every request. */
  maxTotalWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  maxTotalWaitMs: 10 * 60_000,
};

/** Statuses worth another try: rate limiting and transient server failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

/**
 * "Full jitter" exponential backoff: a random delay in [0, min(max, base * 2^(attempt-1))], so that
 * many clients retrying at once spread out. `random` is injected to keep tests deterministic.
 */
export function backoffDelayMs(policy: RetryPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(random() * ceiling);
}

/**
 * Parses Retry-After (RFC 9110 §10.2.3): either delay-seconds or an HTTP date. Returns the delay in
 * ms from `nowMs`, or undefined when the header is absent or unreadable. A date in the past is 0.
 */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date always names a weekday or month and a time; V8 would otherwise read "-5" as a year.
  if (!/[a-z]/i.test(trimmed) || !/\d{1,2}:\d{2}/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * The run's time spent waiting to retry, in wall time: concurrent requests that wait at once (the
 * operations phase fetches several at a time) spend the budget once, not once each, so the budget
 * is what a user waits. Each wait counts as the span it was scheduled for, [now, now + delay]; the
 * total is the length of the union of those spans.
 */
export class RetryBudget {
  private waitedMs = 0;
  /** The end of the latest wait scheduled so far. */
  private busyUntil = Number.NEGATIVE_INFINITY;
  private retries = 0;

  constructor(
    private readonly policy: RetryPolicy,
    private readonly now: () => number,
  ) {}

  get totalWaitedMs(): number {
    return this.waitedMs;
  }

  get totalRetries(): number {
    return this.retries;
  }

  get limitMs(): number {
    return this.policy.maxTotalWaitMs;
  }

  /** True when waiting `delayMs` from now keeps the run's waiting within its budget. */
  canWait(delayMs: number): boolean {
    return this.waitedMs + this.added(delayMs) <= this.policy.maxTotalWaitMs;
  }

  record(delayMs: number): void {
    const now = this.now();
    this.waitedMs += this.added(delayMs);
    this.busyUntil = Math.max(this.busyUntil, now + delayMs);
    this.retries += 1;
  }

  /** What a wait of `delayMs` from now adds to the union of the waits already scheduled. */
  private added(delayMs: number): number {
    const now = this.now();
    return Math.max(0, now + delayMs - Math.max(now, this.busyUntil));
  }
}
